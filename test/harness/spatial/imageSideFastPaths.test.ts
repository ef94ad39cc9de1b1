/**
 * The harness's image side has fast paths (cellGradientStats without clamps inside the image and
 * without the sum of squares when only the mean is asked for; greyFromRgb8 by a table for 8-bit
 * frames). They must give the same bits as the plain loops they replace, which are written out
 * here as the reference: every cell of an odd-sized grid (border and inner cells), several cell
 * sizes, and every 8-bit grey sum. The one-channel warp (a clamp-free run per row) must equal the
 * general per-channel loop of the same function.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { binaryModulePath, WASM_KERNELS, wasmModuleSource } from "../../../scripts/generate-wasm";
import { gradientKernelAvailable } from "../../../src/harness/correction/gradientKernel";
import { cellGradientStats, cellGradientVariance } from "../../../src/harness/correction/textureGain";
import { greyFromRgb8, warpCamera, warpImage, type ImaginedMotion } from "../../../src/harness/spatial/warp";
import { Rng } from "../../../src/util/Rng";

/** The per-pixel loop with clamped neighbours: mean and variance of g per cell. */
function reference(grey: Float32Array, width: number, height: number, cellPx: number): { mean: Float32Array; variance: Float32Array } {
  const gw = width / cellPx;
  const gh = height / cellPx;
  const mean = new Float32Array(gw * gh);
  const variance = new Float32Array(gw * gh);
  for (let cy = 0; cy < gh; cy++) {
    for (let cx = 0; cx < gw; cx++) {
      let s = 0;
      let ss = 0;
      for (let y = cy * cellPx; y < (cy + 1) * cellPx; y++) {
        for (let x = cx * cellPx; x < (cx + 1) * cellPx; x++) {
          const at = (xx: number, yy: number): number => grey[Math.min(height - 1, Math.max(0, yy)) * width + Math.min(width - 1, Math.max(0, xx))]!;
          const gx = (at(x + 1, y) - at(x - 1, y)) / 2;
          const gy = (at(x, y + 1) - at(x, y - 1)) / 2;
          const g = Math.sqrt(gx * gx + gy * gy);
          s += g;
          ss += g * g;
        }
      }
      const m = s / (cellPx * cellPx);
      mean[cy * gw + cx] = m;
      variance[cy * gw + cx] = Math.max(0, ss / (cellPx * cellPx) - m * m);
    }
  }
  return { mean, variance };
}

describe("the harness image side's gradient statistics", () => {
  it("runs the WebAssembly kernel here (Node.js 20 has WebAssembly SIMD)", () => {
    expect(gradientKernelAvailable()).toBe(true);
  });

  // Odd inner widths (9, 3) take the kernel's one-pixel tail; 1x1 has no inner pixel at all.
  it.each([
    [8, 40, 56, "auto"],
    [8, 40, 56, "js"],
    [4, 20, 12, "auto"],
    [2, 6, 6, "auto"],
    [2, 6, 6, "js"],
    [3, 9, 6, "auto"],
    [1, 3, 5, "auto"],
    [1, 3, 5, "js"],
    [1, 1, 1, "auto"],
    [8, 256, 256, "auto"],
    [8, 1280, 720, "auto"], // the kernel's memory grows after the smaller images
  ] as const)("cellGradientStats with %i px cells on %ix%i (%s) equals the clamped per-pixel loop, bit for bit", (cellPx, width, height, impl) => {
    const rng = new Rng(cellPx + width);
    const grey = Float32Array.from({ length: width * height }, () => rng.uniform(0, 255));
    const ref = reference(grey, width, height, cellPx);
    const cells = (width / cellPx) * (height / cellPx);
    const mean = new Float32Array(cells);
    const variance = new Float32Array(cells);
    cellGradientStats(grey, width, height, cellPx, mean, variance, { impl });
    expect(Array.from(mean)).toEqual(Array.from(ref.mean));
    expect(Array.from(variance)).toEqual(Array.from(ref.variance));
    const meanOnly = new Float32Array(cells);
    cellGradientStats(grey, width, height, cellPx, meanOnly, undefined, { impl });
    expect(Array.from(meanOnly)).toEqual(Array.from(ref.mean));
    const varOnly = new Float32Array(cells);
    cellGradientStats(grey, width, height, cellPx, undefined, varOnly, { impl });
    expect(Array.from(varOnly)).toEqual(Array.from(ref.variance));
    if (impl === "auto") expect(Array.from(cellGradientVariance(grey, width, height, cellPx, new Float32Array(cells)))).toEqual(Array.from(ref.variance));
  });

  it("the committed kernel binary is its source assembled (npm run gen:wasm)", async () => {
    for (const k of WASM_KERNELS) {
      const root = path.join(__dirname, "..", "..", "..");
      const committed = fs.readFileSync(path.join(root, binaryModulePath(k.wat)), "utf8");
      expect(committed).toBe(await wasmModuleSource(path.join(root, k.wat), k.constant));
    }
  });

  it("cellGradientStats names a wrong output length", () => {
    expect(() => cellGradientStats(new Float32Array(64), 8, 8, 4, new Float32Array(3), undefined)).toThrow(/meanOut length=3, expected 4/);
    expect(() => cellGradientStats(new Float32Array(64), 8, 8, 4, undefined, new Float32Array(5))).toThrow(/out length=5, expected 4/);
  });

});

describe("the harness image side's grey frame and warp", () => {
  it("greyFromRgb8 on 8-bit frames equals (r + g + b) / 3 for every sum, and float frames take the division", () => {
    const n = 3 * 255 + 1;
    const rgb = new Uint8Array(3 * n);
    for (let s = 0; s < n; s++) {
      rgb[3 * s] = Math.min(255, s);
      rgb[3 * s + 1] = Math.min(255, Math.max(0, s - 255));
      rgb[3 * s + 2] = Math.max(0, s - 510);
    }
    const grey = greyFromRgb8(rgb, new Float32Array(n));
    for (let s = 0; s < n; s++) expect(grey[s]).toBe(Math.fround(s / 3));
    const f = Float32Array.from([0.25, 0.5, 1, 200.5, 3, 7]);
    expect(Array.from(greyFromRgb8(f, new Float32Array(2)))).toEqual([Math.fround(1.75 / 3), Math.fround(210.5 / 3)]);
  });

  it.each<[string, Partial<ImaginedMotion>]>([
    ["forward 1 m at 6 m", {}],
    ["forward 1 m at 0.5 m (the strongest zoom)", { altitude_m: 0.5 }],
    ["a yaw to the left (the left edge clamps)", { yaw_rad: 0.3 }],
    ["a yaw to the right (the right edge clamps)", { yaw_rad: -0.3 }],
    ["a yaw beyond the image (every pixel clamps)", { yaw_rad: 3 }],
    ["a pitch and a body pitch", { pitchDown_rad: 0.2, bodyPitch_rad: -0.1 }],
    ["no motion", { forward_m: 0 }],
    ["a NaN yaw", { yaw_rad: Number.NaN }],
  ])("the one-channel warp equals the general loop: %s", (_name, motion) => {
    const W = 48;
    const H = 40;
    const rng = new Rng(3);
    const grey = Float32Array.from({ length: W * H }, () => rng.uniform(0, 255));
    const rgb = new Float32Array(3 * W * H);
    for (let i = 0; i < W * H; i++) rgb.fill(grey[i]!, 3 * i, 3 * i + 3);
    const cam = warpCamera(W, H, Math.PI / 2, 0.09);
    const m: ImaginedMotion = { forward_m: 1, yaw_rad: 0, pitchDown_rad: 0, altitude_m: 6, bodyPitch_rad: 0.05, ...motion };
    const one = warpImage(grey, W, H, 1, cam, m, new Float32Array(W * H));
    const three = warpImage(rgb, W, H, 3, cam, m, new Float32Array(3 * W * H));
    expect(Array.from(one)).toEqual(Array.from({ length: W * H }, (_, i) => three[3 * i]!));
  });
});
