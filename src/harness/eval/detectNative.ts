/**
 * A wire detector on a photograph at its own size (issue 14 item 1): no resize, no squashing.
 * The RGB image is padded on the right and bottom to the network's size multiple by reflection
 * (so the Sobel channel sees no artificial edge at the border), the 4-channel input is built in
 * plain JavaScript (imageInputFromRgb8, ~1 ms where the tensor Sobel costs tens), the fully
 * convolutional network runs once at native resolution, and the wire-class softmax of the cells
 * that cover the photo becomes a per-pixel probability map at the photo's size, bilinear between
 * cell centres (cell (r, c) centred at photo pixel ((c + 0.5) * 8, (r + 0.5) * 8), exact because
 * the padding adds pixels after the photo, never before). Speed (issue 14, bench `detect`): the
 * logits are read back once and the softmax of the photo's cells is done here in JavaScript;
 * frozen teacher nets (WireNet.ts) run fused convs with a weight copy per photo shape.
 */
import * as tf from "@tensorflow/tfjs";
import type { RgbImage } from "../data/imageCodec";
import { imageInputFromRgb8 } from "../models/imageInput";
import { lineSupportScore, type LineSupportSpec } from "./lineSupport";
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

/** Milliseconds spent per stage by one detectNative call (performance.now() deltas), for the bench. */
export type DetectStageTimes = {
  /** Reflection padding and the 4-channel input (imageInputFromRgb8). */
  inputMs: number;
  /** The network's forward pass on the tf backend, up to the logits tensor. */
  forwardMs: number;
  /** Reading the logits back and the class softmax of the photo's cells (JavaScript). */
  readbackMs: number;
  /** The per-pixel map: bilinear interpolation of the wire cells. */
  mapMs: number;
};

/** The 4 class logits come first in every detector's output channels (actions.ts DETECTION_CLASSES). */
const NUM_CLASSES = 4;

function roundUp(n: number, m: number): number {
  return Math.ceil(n / m) * m;
}

/**
 * Runs `net` on `image` at its native size; see the file comment. `times`, when given, receives
 * the time of each stage.
 */
export function detectNative(net: WireNet, image: RgbImage, times?: DetectStageTimes): NativeDetection {
  const { width: W, height: H } = image;
  if (!(W > 0 && H > 0) || image.rgb.length !== W * H * 3) throw new RangeError(`image ${W}x${H} with rgb.length=${image.rgb.length}, expected ${W * H * 3}`);
  const t0 = performance.now();
  const PW = roundUp(W, net.sizeMultiple);
  const PH = roundUp(H, net.sizeMultiple);
  const rows = Math.ceil(H / WIRE_CELL_PX);
  const cols = Math.ceil(W / WIRE_CELL_PX);
  const padded = PW === W && PH === H ? image.rgb : reflectPad(image.rgb, W, H, PW, PH);
  const input = imageInputFromRgb8(padded, PW, PH, new Float32Array(PW * PH * 4));
  const t1 = performance.now();
  const logits = tf.tidy(() => net.classLogits(tf.tensor4d(input, [1, PH, PW, 4])));
  const t2 = performance.now();
  let cellProbs: Float32Array;
  try {
    const [, gh, gw, k] = logits.shape;
    cellProbs = cellSoftmax(logits.dataSync<"float32">(), gh, gw, k, rows, cols);
  } finally {
    logits.dispose();
  }
  const cells = new Float32Array(rows * cols);
  for (let i = 0; i < rows * cols; i++) cells[i] = cellProbs[i * NUM_CLASSES + WIRE_CLASS]!;
  const t3 = performance.now();
  const map = cellsToPixels(cells, rows, cols, W, H);
  if (times !== undefined) {
    times.inputMs = t1 - t0;
    times.forwardMs = t2 - t1;
    times.readbackMs = t3 - t2;
    times.mapMs = performance.now() - t3;
  }
  return { width: W, height: H, map, cells, rows, cols, cellProbs };
}

/**
 * Class softmax (max subtracted, as tf.softmax) of the top-left rows x cols cells of a gh x gw
 * grid with k logits per cell (k >= 4: the 4 class logits first; the rest are ignored). Done
 * here rather than as tf.slice + tf.softmax + dataSync, which cost several ms on wasm where this
 * loop over a few thousand cells costs tens of microseconds (issue 14).
 */
export function cellSoftmax(logits: Float32Array, gh: number, gw: number, k: number, rows: number, cols: number): Float32Array {
  if (logits.length !== gh * gw * k || k < NUM_CLASSES || rows > gh || cols > gw) {
    throw new RangeError(`logits.length=${logits.length} for ${gh}x${gw}x${k}, expected k >= ${NUM_CLASSES} and the ${rows}x${cols} photo cells inside the grid`);
  }
  const out = new Float32Array(rows * cols * NUM_CLASSES);
  const e = new Float64Array(NUM_CLASSES);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const s = (r * gw + c) * k;
      let max = -Infinity;
      for (let j = 0; j < NUM_CLASSES; j++) max = Math.max(max, logits[s + j]!);
      let sum = 0;
      for (let j = 0; j < NUM_CLASSES; j++) sum += e[j] = Math.exp(logits[s + j]! - max);
      const o = (r * cols + c) * NUM_CLASSES;
      for (let j = 0; j < NUM_CLASSES; j++) out[o + j] = e[j]! / sum;
    }
  }
  return out;
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
  // The photo's rows are copied whole and only their pad pixels folded; a pad row is a copy of
  // the padded row it folds to (issue 14: row copies instead of a fold per pixel; same bytes).
  for (let y = 0; y < H; y++) {
    const o = 3 * y * PW;
    out.set(rgb.subarray(3 * y * W, 3 * (y + 1) * W), o);
    for (let x = W; x < PW; x++) {
      const s = 3 * (y * W + fold(x, W));
      out[o + 3 * x] = rgb[s]!;
      out[o + 3 * x + 1] = rgb[s + 1]!;
      out[o + 3 * x + 2] = rgb[s + 2]!;
    }
  }
  for (let y = H; y < PH; y++) {
    const sy = fold(y, H);
    out.copyWithin(3 * y * PW, 3 * sy * PW, 3 * (sy + 1) * PW);
  }
  return out;
}

/**
 * Bilinear interpolation of a cell grid (8 px cells from the top-left corner) to W x H pixels.
 * Every cell row is first interpolated along x at each pixel column, then each pixel row blends
 * its two cell rows: the same arithmetic in the same order as interpolating each pixel from its
 * four cells (same values), with the column work done once per cell row instead of per pixel.
 */
export function cellsToPixels(cells: Float32Array, rows: number, cols: number, W: number, H: number, out = new Float32Array(W * H), cellPx: number = WIRE_CELL_PX): Float32Array {
  if (cells.length !== rows * cols) throw new RangeError(`cells.length=${cells.length}, expected rows*cols=${rows * cols}`);
  if (out.length !== W * H) throw new RangeError(`out.length=${out.length}, expected ${W * H}`);
  const alongX = new Float64Array(rows * W);
  for (let x = 0; x < W; x++) {
    const gx = Math.min(Math.max((x + 0.5) / cellPx - 0.5, 0), cols - 1);
    const c0 = Math.floor(gx);
    const c1 = Math.min(c0 + 1, cols - 1);
    const fx = gx - c0;
    for (let r = 0; r < rows; r++) alongX[r * W + x] = (1 - fx) * cells[r * cols + c0]! + fx * cells[r * cols + c1]!;
  }
  for (let y = 0; y < H; y++) {
    const gy = Math.min(Math.max((y + 0.5) / cellPx - 0.5, 0), rows - 1);
    const r0 = Math.floor(gy);
    const r1 = Math.min(r0 + 1, rows - 1);
    const fy = gy - r0;
    const top = r0 * W;
    const bottom = r1 * W;
    const o = y * W;
    for (let x = 0; x < W; x++) out[o + x] = (1 - fy) * alongX[top + x]! + fy * alongX[bottom + x]!;
  }
  return out;
}

/**
 * The image box-averaged by the integer factor n: floor(W / n) x floor(H / n) pixels, each the mean
 * of its n x n block (the last W mod n columns and H mod n rows are left out).
 */
export function boxDownsample(image: RgbImage, n: number): RgbImage {
  const { width: W, height: H, rgb } = image;
  if (!Number.isInteger(n) || n < 1 || n > Math.min(W, H)) throw new RangeError(`factor ${n}, expected an integer in [1, ${Math.min(W, H)}] for a ${W}x${H} image`);
  const w = Math.floor(W / n);
  const h = Math.floor(H / n);
  const out = new Uint8Array(w * h * 3);
  const inv = 1 / (n * n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let dy = 0; dy < n; dy++) for (let dx = 0; dx < n; dx++) s += rgb[3 * ((y * n + dy) * W + x * n + dx) + c]!;
        out[3 * (y * w + x) + c] = Math.round(s * inv);
      }
    }
  }
  return { width: w, height: h, rgb: out };
}

/**
 * The wire map of `image` seen at 1/n of its size (boxDownsample, then detectNative), interpolated
 * back to the photo's pixels: a small cell (r, c) is centred at photo pixel ((c + 0.5) 8n,
 * (r + 0.5) 8n). A wire w px wide in the photo is w / n px wide to the network, nearer the widths
 * it was trained on when the photo's wires are thick.
 */
export function detectAtScale(net: WireNet, image: RgbImage, n: number): Float32Array {
  if (n === 1) return detectNative(net, image).map;
  const d = detectNative(net, boxDownsample(image, n));
  return cellsToPixels(d.cells, d.rows, d.cols, image.width, image.height, new Float32Array(image.width * image.height), WIRE_CELL_PX * n);
}

/** The image mirrored left-right (a new buffer). */
export function mirrorRgb(image: RgbImage): RgbImage {
  const { width: W, height: H, rgb } = image;
  const out = new Uint8Array(rgb.length);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const s = 3 * (y * W + x);
      const d = 3 * (y * W + (W - 1 - x));
      out[d] = rgb[s]!;
      out[d + 1] = rgb[s + 1]!;
      out[d + 2] = rgb[s + 2]!;
    }
  }
  return { width: W, height: H, rgb: out };
}

/**
 * Test-time flip averaging: the wire map of the photo and of its mirror image (mirrored back),
 * averaged per pixel. A wire seen in a mirror is still a wire, so the two maps are two views of
 * the same answer and their mean cancels part of each one's noise; it costs a second forward
 * pass. Only the per-pixel map is averaged (the cell outputs of the two passes do not line up when
 * the width is not a multiple of the cell size); `cells` and `cellProbs` are the unmirrored pass's.
 */
export function detectNativeFlipAveraged(net: WireNet, image: RgbImage, times?: DetectStageTimes): NativeDetection {
  const plain = detectNative(net, image, times);
  return averageWithMirrored(plain, detectNative(net, mirrorRgb(image)));
}

/**
 * The flip average's second half: `plain`'s map averaged per pixel with the map of the mirrored
 * photo (`mirrored`, the detection of mirrorRgb(photo), mirrored back here). Writes into
 * plain.map and returns `plain`. detectNativeFlipAveraged runs both passes in this thread;
 * `detect --tta flip` runs the mirrored one on a worker thread (the same bits, tested).
 */
export function averageWithMirrored(plain: NativeDetection, mirrored: NativeDetection): NativeDetection {
  const { width: W, height: H, map } = plain;
  if (mirrored.width !== W || mirrored.height !== H) throw new RangeError(`mirrored detection ${mirrored.width}x${mirrored.height}, expected the photo's ${W}x${H}`);
  const m = mirrored.map;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    for (let x = 0; x < W; x++) map[row + x] = 0.5 * (map[row + x]! + m[row + W - 1 - x]!);
  }
  return plain;
}

/**
 * The mean of several networks' detections of one photo (a map ensemble; `transfer --real
 * --partner`'s "ensemble" row is this with two networks): map, cells and class softmax averaged per
 * pixel and per cell, so the Detection2D list follows the ensemble too. Every WireNet has 8-px
 * cells, so the detections of one photo share their grid.
 */
export function meanDetections(all: readonly NativeDetection[]): NativeDetection {
  const first = all[0];
  if (first === undefined) throw new RangeError("no detections to average, expected at least one");
  if (all.length === 1) return first;
  for (const d of all) if (d.width !== first.width || d.height !== first.height) throw new RangeError(`detections of ${d.width}x${d.height} and ${first.width}x${first.height}: not one photo`);
  const mean = (pick: (d: NativeDetection) => Float32Array): Float32Array => {
    const arrays = all.map(pick);
    const out = new Float32Array(arrays[0]!.length);
    for (let i = 0; i < out.length; i++) {
      let sum = 0;
      for (const a of arrays) sum += a[i]!;
      out[i] = sum / arrays.length;
    }
    return out;
  };
  return { ...first, map: mean((d) => d.map), cells: mean((d) => d.cells), cellProbs: mean((d) => d.cellProbs) };
}

/**
 * meanDetections of the networks' passes, one after the other in this thread (each flip-averaged
 * first with `flipAverage`); `detect --partner` runs the second network on a worker thread instead
 * (src/harness/data/node/wireNetThread.ts) and averages the same way.
 */
export function detectEnsemble(nets: readonly WireNet[], image: RgbImage, flipAverage = false): NativeDetection {
  if (nets.length === 0) throw new RangeError("nets.length=0, expected at least one network");
  return meanDetections(nets.map((net) => detectPass(net, image, flipAverage)));
}

/** One network's detection of a photo: detectNative, or detectNativeFlipAveraged with `flipAverage` (--tta flip). */
export function detectPass(net: WireNet, image: RgbImage, flipAverage: boolean): NativeDetection {
  return flipAverage ? detectNativeFlipAveraged(net, image) : detectNative(net, image);
}

/**
 * The detection with its wire cells rewritten by the line-support operator (lineSupport.ts) and
 * the per-pixel map interpolated again from them; `cellProbs` keeps the network's softmax.
 */
export function withLineSupport(d: NativeDetection, spec: LineSupportSpec): NativeDetection {
  const cells = lineSupportScore(d.cells, d.rows, d.cols, spec);
  return { ...d, cells, map: cellsToPixels(cells, d.rows, d.cols, d.width, d.height) };
}
