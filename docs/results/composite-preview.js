// The first eight frames of a composite cache (`dataset --views composite`), each as image | visible label
// (white wire, grey pole), in a 4 x 2 grid: `node docs/results/composite-preview.js <cache dir> <out.png>`.
// Run from the repository root after `npm run build`.
const fs = require("node:fs");
const { FrameCacheDir } = require("../../dist/src/harness/data/node/FrameCacheDir");
const { encodeRgbPng } = require("../../dist/src/harness/data/imageCodec");

const [cacheDir, outFile] = process.argv.slice(2);
if (!cacheDir || !outFile) throw new Error("usage: node docs/results/composite-preview.js <cache dir> <out.png>");
const { grid, frames } = new FrameCacheDir(cacheDir).read((s) => s);
const n = grid.width;
const cols = 4;
const rows = 2;
const W = cols * 2 * n + (cols - 1) * 8;
const H = rows * n + (rows - 1) * 8;
const rgb = new Uint8Array(W * H * 3).fill(255);
frames.slice(0, cols * rows).forEach((f, k) => {
  const ox = (k % cols) * (2 * n + 8);
  const oy = Math.floor(k / cols) * (n + 8);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const m = f.visibleMask[y * n + x];
      const label = m === 1 ? 255 : m === 3 ? 120 : 0;
      for (let c = 0; c < 3; c++) {
        rgb[((oy + y) * W + ox + x) * 3 + c] = f.rgb[(y * n + x) * 3 + c];
        rgb[((oy + y) * W + ox + n + x) * 3 + c] = label;
      }
    }
  }
});
fs.writeFileSync(outFile, encodeRgbPng({ width: W, height: H, rgb }));
console.log(`composite-preview: ${Math.min(frames.length, cols * rows)} frames of ${cacheDir} -> ${outFile}`);
