/**
 * A wire detector on a photograph at its own size (issue 14 item 1): no resize, no squashing.
 * The RGB image is padded on the right and bottom to the network's size multiple by reflection
 * (so the Sobel channel sees no artificial edge at the border), the 4-channel input is built in
 * plain JavaScript (imageInputFromRgb8, ~1 ms where the tensor Sobel costs tens), the fully
 * convolutional network runs once at native resolution, and the wire-class softmax of the cells
 * that cover the photo becomes a per-pixel probability map at the photo's size, bilinear between
 * cell centres (cell (r, c) centred at photo pixel ((c + 0.5) * 8, (r + 0.5) * 8), exact because
 * the padding adds pixels after the photo, never before).
 */
import * as tf from "@tensorflow/tfjs";
import type { RgbImage } from "../data/imageCodec";
import { imageInputFromRgb8 } from "../models/imageInput";
import { WIRE_CELL_PX, type WireNet } from "./WireNet";

/** Index of the wire class in the detectors' 4 class logits (actions.ts DETECTION_CLASSES). */
export const WIRE_CLASS = 1;

export type NativeDetection = {
  width: number;
  height: number;
  /** Wire probability per pixel of the photo, row-major, in [0, 1]. */
  map: Float32Array;
  /** Wire probability per cell, rows x cols (ceil(height / 8) x ceil(width / 8)). */
  cells: Float32Array;
  rows: number;
  cols: number;
  /** Class softmax per cell, 4 per cell (for Detection2D records). */
  cellProbs: Float32Array;
};

function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

/** Runs `net` on `image` at its native size; see the file comment. */
export function detectNative(net: WireNet, image: RgbImage): NativeDetection {
  const { width: W, height: H } = image;
  if (!(W > 0 && H > 0) || image.rgb.length !== W * H * 3) throw new RangeError(`image ${W}x${H} with rgb.length=${image.rgb.length}, expected ${W * H * 3}`);
  const pw = roundUp(W, net.sizeMultiple) - W;
  const ph = roundUp(H, net.sizeMultiple) - H;
  const rows = Math.ceil(H / WIRE_CELL_PX);
  const cols = Math.ceil(W / WIRE_CELL_PX);
  const PW = W + pw;
  const PH = H + ph;
  const padded = pw === 0 && ph === 0 ? image.rgb : reflectPad(image.rgb, W, H, PW, PH);
  const input = imageInputFromRgb8(padded, PW, PH, new Float32Array(PW * PH * 4));
  const cellProbs = tf.tidy(() => {
    const logits = net.classLogits(tf.tensor4d(input, [1, PH, PW, 4]));
    return tf.softmax(tf.slice(logits, [0, 0, 0, 0], [1, rows, cols, -1])).dataSync<"float32">();
  });
  const k = cellProbs.length / (rows * cols);
  const cells = new Float32Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) cells[i] = cellProbs[i * k + WIRE_CLASS]!;
  return { width: W, height: H, map: cellsToPixels(cells, rows, cols, W, H), cells, rows, cols, cellProbs: Float32Array.from(cellProbs) };
}

/**
 * Pads an RGB image on the right and bottom to PW x PH by reflection about the last row/column
 * (numpy "reflect"); a pad wider than the photo folds back again.
 */
export function reflectPad(rgb: Uint8Array, W: number, H: number, PW: number, PH: number): Uint8Array {
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

/** Bilinear interpolation of a cell grid (8 px cells from the top-left corner) to W x H pixels. */
export function cellsToPixels(cells: Float32Array, rows: number, cols: number, W: number, H: number, out = new Float32Array(W * H)): Float32Array {
  if (cells.length !== rows * cols) throw new RangeError(`cells.length=${cells.length}, expected rows*cols=${rows * cols}`);
  if (out.length !== W * H) throw new RangeError(`out.length=${out.length}, expected ${W * H}`);
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
