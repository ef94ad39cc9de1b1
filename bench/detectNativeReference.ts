/**
 * detectNative as it was before issue 14's speed work (commit 9a9e490), kept as the plain path
 * that the optimised src/harness/eval/detectNative.ts is checked against (bench `detect`, and
 * test/harness/eval/detectNativeFast.test.ts: probability maps within 1e-5): per-pixel reflection
 * fold, tf.slice + tf.softmax + dataSync, per-pixel bilinear interpolation. Run it with the
 * unfused network, teacherWireNet(teacher, name, { fused: false }).
 */
import * as tf from "@tensorflow/tfjs";
import type { RgbImage } from "../src/harness/data/imageCodec";
import { WIRE_CLASS, type DetectStageTimes, type NativeDetection } from "../src/harness/eval/detectNative";
import { WIRE_CELL_PX, type WireNet } from "../src/harness/eval/WireNet";
import { imageInputFromRgb8 } from "../src/harness/models/imageInput";

function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

export function detectNativeReference(net: WireNet, image: RgbImage, times?: DetectStageTimes): NativeDetection {
  const { width: W, height: H } = image;
  const t0 = performance.now();
  const pw = roundUp(W, net.sizeMultiple) - W;
  const ph = roundUp(H, net.sizeMultiple) - H;
  const rows = Math.ceil(H / WIRE_CELL_PX);
  const cols = Math.ceil(W / WIRE_CELL_PX);
  const PW = W + pw;
  const PH = H + ph;
  const padded = pw === 0 && ph === 0 ? image.rgb : reflectPadReference(image.rgb, W, H, PW, PH);
  const input = imageInputFromRgb8(padded, PW, PH, new Float32Array(PW * PH * 4));
  const t1 = performance.now();
  const logits = tf.tidy(() => net.classLogits(tf.tensor4d(input, [1, PH, PW, 4])));
  const t2 = performance.now();
  const cellProbs = tf.tidy(() => tf.softmax(tf.slice(logits, [0, 0, 0, 0], [1, rows, cols, -1])).dataSync<"float32">());
  logits.dispose();
  const k = cellProbs.length / (rows * cols);
  const cells = new Float32Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) cells[i] = cellProbs[i * k + WIRE_CLASS]!;
  const t3 = performance.now();
  const map = cellsToPixelsReference(cells, rows, cols, W, H);
  if (times !== undefined) {
    times.inputMs = t1 - t0;
    times.forwardMs = t2 - t1;
    times.readbackMs = t3 - t2;
    times.mapMs = performance.now() - t3;
  }
  return { width: W, height: H, map, cells, rows, cols, cellProbs: Float32Array.from(cellProbs) };
}

export function reflectPadReference(rgb: Uint8Array, W: number, H: number, PW: number, PH: number): Uint8Array {
  const out = new Uint8Array(PW * PH * 3);
  const fold = (i: number, n: number): number => {
    if (n === 1) return 0;
    const period = 2 * (n - 1);
    const m = i % period;
    return m < n ? m : period - m;
  };
  for (let y = 0; y < PH; y++) {
    const sy = fold(y, H);
    for (let x = 0; x < PW; x++) {
      const s = 3 * (sy * W + fold(x, W));
      const o = 3 * (y * PW + x);
      out[o] = rgb[s]!;
      out[o + 1] = rgb[s + 1]!;
      out[o + 2] = rgb[s + 2]!;
    }
  }
  return out;
}

export function cellsToPixelsReference(cells: Float32Array, rows: number, cols: number, W: number, H: number): Float32Array {
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const gy = Math.min(Math.max((y + 0.5) / WIRE_CELL_PX - 0.5, 0), rows - 1);
    const r0 = Math.floor(gy);
    const r1 = Math.min(r0 + 1, rows - 1);
    const fy = gy - r0;
    for (let x = 0; x < W; x++) {
      const gx = Math.min(Math.max((x + 0.5) / WIRE_CELL_PX - 0.5, 0), cols - 1);
      const c0 = Math.floor(gx);
      const c1 = Math.min(c0 + 1, cols - 1);
      const fx = gx - c0;
      const top = (1 - fx) * cells[r0 * cols + c0]! + fx * cells[r0 * cols + c1]!;
      const bottom = (1 - fx) * cells[r1 * cols + c0]! + fx * cells[r1 * cols + c1]!;
      out[y * W + x] = (1 - fy) * top + fy * bottom;
    }
  }
  return out;
}
