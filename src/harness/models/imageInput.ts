/**
 * Builds the networks' image inputs from RGB frames (values in [0, 1]); call inside tf.tidy.
 * Student/teacher input: RGB mapped to [-1, 1] plus a Sobel gradient-magnitude texture channel
 * (SPEC: "RGB + Sobel texture"; all inputs in [-1, 1]). Harness image input: the same 4 channels
 * average-pooled to HARNESS_IMAGE_SIZE plus the K imagined rollout frames (grey), zero-padded to K.
 */
import * as tf from "@tensorflow/tfjs";
import { concatChannels, type ZeroChannels } from "../layers/concatChannels";
import { avgPoolToGrid } from "../layers/pooling";
import { GREY_OF_SUM } from "../../vision/greyLevels";
import { ROLLOUT_STEPS } from "./rolloutSteps";

export { ROLLOUT_STEPS };

export const IMAGE_CHANNELS = 4;
/** Side of the harness's downsampled image (256 / 4). */
export const HARNESS_IMAGE_SIZE = 64;
export const HARNESS_IMAGE_CHANNELS = IMAGE_CHANNELS + ROLLOUT_STEPS;

/**
 * Sobel magnitude of grey = (R+G+B)/3 in [0,1] is at most 4*sqrt(2); dividing by SOBEL_FULL_SCALE
 * and clipping to 1 keeps edges of contrast >= 0.5 at full scale (a dark wire on sky is ~0.3-0.6).
 */
export const SOBEL_FULL_SCALE = 2;

const SOBEL_X = [-1, 0, 1, -2, 0, 2, -1, 0, 1];
const SOBEL_Y = [-1, -2, -1, 0, 0, 0, 1, 2, 1];

function sobelKernel(): tf.Tensor4D {
  // [3,3,1,2]: output channel 0 = d/dx, channel 1 = d/dy (OpenCV Sobel ksize 3 coefficients).
  const v = new Float32Array(18);
  for (let i = 0; i < 9; i++) {
    v[2 * i] = SOBEL_X[i]!;
    v[2 * i + 1] = SOBEL_Y[i]!;
  }
  return tf.tensor4d(v, [3, 3, 1, 2]);
}

/** Grey level (mean of R, G, B) of [N,H,W,3] in [0,1] -> [N,H,W,1]. */
export function toGrey(rgb01: tf.Tensor4D): tf.Tensor4D {
  return tf.mean<tf.Tensor4D>(rgb01, 3, true);
}

/** [N,H,W,3] RGB in [0,1] -> [N,H,W,4] = (RGB, Sobel magnitude) in [-1,1]. */
export function buildImageInput(rgb01: tf.Tensor4D): tf.Tensor4D {
  if (rgb01.shape[3] !== 3) {
    throw new RangeError(`buildImageInput channels=${rgb01.shape[3]}, expected 3 (RGB in [0, 1])`);
  }
  const g = tf.conv2d(toGrey(rgb01), sobelKernel(), 1, "same");
  const mag = tf.sqrt(tf.sum(tf.square(g), 3, true));
  const tex = tf.sub<tf.Tensor4D>(tf.mul(tf.minimum(tf.div(mag, SOBEL_FULL_SCALE), 1), 2), 1);
  return concatChannels([tf.sub<tf.Tensor4D>(tf.mul(rgb01, 2), 1), tex]);
}

/**
 * Harness image: the 4-channel image input pooled to 64x64, plus up to ROLLOUT_STEPS imagined
 * frames ([N,H,W,3] RGB in [0,1], same H and W) as grey in [-1,1]; missing steps are zeros.
 */
export function buildHarnessImage(imageInput: tf.Tensor4D, rolloutRgb01: readonly tf.Tensor4D[]): tf.Tensor4D {
  if (rolloutRgb01.length > ROLLOUT_STEPS) {
    throw new RangeError(`rollout frames=${rolloutRgb01.length}, expected at most ${ROLLOUT_STEPS}`);
  }
  const [, h, w] = imageInput.shape;
  const gh = HARNESS_IMAGE_SIZE;
  const small = avgPoolToGrid(imageInput, gh, gh);
  const parts: (tf.Tensor4D | ZeroChannels)[] = [small];
  for (let k = 0; k < ROLLOUT_STEPS; k++) {
    const f = rolloutRgb01[k];
    if (f === undefined) {
      parts.push({ zeroChannels: 1 });
    } else {
      if (f.shape[1] !== h || f.shape[2] !== w) {
        throw new RangeError(`rollout frame ${k} is ${f.shape[1]}x${f.shape[2]}, expected ${h}x${w}`);
      }
      // Pooling, the grey mean and 2x-1 are all linear, so pool first (16x fewer pixels to convert).
      parts.push(tf.sub<tf.Tensor4D>(tf.mul(toGrey(avgPoolToGrid(f, gh, gh)), 2), 1));
    }
  }
  return concatChannels(parts);
}

/**
 * The detectors' 4-channel input of one rgb8 frame computed in plain JavaScript, one pass, into
 * `out` (width*height*4, HWC; no allocation): the same values as buildImageInput on rgb/255
 * (grey = channel mean, OpenCV ksize-3 Sobel with zero padding as tf.conv2d 'same', magnitude /
 * SOBEL_FULL_SCALE clipped to 1, everything mapped to [-1, 1]). At 256x256 this costs 1.5-2.1 ms
 * here (2.9-3.6 ms before the interior pixels skipped the bounds checks; same bits), where the
 * tensor version costs tens of ms on the wasm backend (bench pipeline).
 */
export function imageInputFromRgb8(rgb: Uint8Array | Float32Array, width: number, height: number, out: Float32Array, grey?: Float32Array, sobelGain = 1, greyLevels?: Float32Array): Float32Array {
  const n = width * height;
  if (rgb.length !== 3 * n) throw new RangeError(`rgb.length=${rgb.length}, expected ${3 * n} (${width}x${height}x3)`);
  if (out.length !== 4 * n) throw new RangeError(`out.length=${out.length}, expected ${4 * n} (${width}x${height}x4)`);
  if (greyLevels !== undefined && greyLevels.length !== n) throw new RangeError(`greyLevels.length=${greyLevels.length}, expected ${n} (${width}x${height})`);
  const g = grey !== undefined && grey.length === n ? grey : new Float32Array(n);
  const inv = 1 / (3 * 255);
  if (greyLevels === undefined) {
    for (let i = 0; i < n; i++) g[i] = (rgb[3 * i]! + rgb[3 * i + 1]! + rgb[3 * i + 2]!) * inv;
  } else if (rgb instanceof Uint8Array) {
    // The harness's grey levels from the same channel sum (greyFromRgb8's table: the same bits).
    for (let i = 0; i < n; i++) {
      const s = rgb[3 * i]! + rgb[3 * i + 1]! + rgb[3 * i + 2]!;
      g[i] = s * inv;
      greyLevels[i] = GREY_OF_SUM[s]!;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const s = rgb[3 * i]! + rgb[3 * i + 1]! + rgb[3 * i + 2]!;
      g[i] = s * inv;
      greyLevels[i] = s / 3;
    }
  }
  rgbChannels(rgb, n, out);
  for (let y = 0; y < height; y++) {
    if (y === 0 || y === height - 1 || width < 3) {
      for (let x = 0; x < width; x++) sobelBorder(g, width, height, x, y, out, sobelGain);
      continue;
    }
    sobelBorder(g, width, height, 0, y, out, sobelGain);
    sobelBorder(g, width, height, width - 1, y, out, sobelGain);
    // Interior: the 3x3 window slides one column per pixel, so each pixel reads 3 new values
    // instead of 8 and makes no bounds checks (issue 14; the same expressions, so the same bits).
    let i = y * width + 1;
    let a = g[i - width - 1]!, b = g[i - width]!, d = g[i - 1]!, e = g[i]!, h = g[i + width - 1]!, k = g[i + width]!;
    for (let x = 1; x < width - 1; x++, i++) {
      const c = g[i - width + 1]!, f = g[i + 1]!, l = g[i + width + 1]!;
      const gx = c + 2 * f + l - a - 2 * d - h;
      const gy = h + 2 * k + l - a - 2 * b - c;
      out[4 * i + 3] = sobelOut(gx, gy, sobelGain);
      a = b; b = c; d = e; e = f; h = k; k = l;
    }
  }
  return out;
}

/**
 * The Sobel channel of a border pixel (zero outside the image). A top-level function, not a
 * closure: a closure over `g` and `out` would make them context variables, and every read of them
 * in the interior loop a context load (measured: 5.4 ms instead of 3 ms at 544x360).
 */
function sobelBorder(g: Float32Array, width: number, height: number, x: number, y: number, out: Float32Array, sobelGain: number): void {
  const at = (u: number, v: number): number => (u < 0 || v < 0 || u >= width || v >= height ? 0 : g[v * width + u]!);
  const a = at(x - 1, y - 1), b = at(x, y - 1), c = at(x + 1, y - 1);
  const d = at(x - 1, y), f = at(x + 1, y);
  const h = at(x - 1, y + 1), k = at(x, y + 1), l = at(x + 1, y + 1);
  out[4 * (y * width + x) + 3] = sobelOut(c + 2 * f + l - a - 2 * d - h, h + 2 * k + l - a - 2 * b - c, sobelGain);
}

/** The Sobel channel of one pixel: magnitude * gain / SOBEL_FULL_SCALE, clipped to 1, to [-1, 1]. */
function sobelOut(gx: number, gy: number, sobelGain: number): number {
  const mag = (sobelGain * Math.sqrt(gx * gx + gy * gy)) / SOBEL_FULL_SCALE;
  return (mag < 1 ? mag : 1) * 2 - 1;
}

/** (v / 255) * 2 - 1 for each byte value: the RGB channels of an rgb8 frame by table look-up. */
const RGB8_TO_UNIT = Float64Array.from({ length: 256 }, (_, v) => (v / 255) * 2 - 1);

/** Channels 0-2 of `out` (4 per pixel): RGB / 255 mapped to [-1, 1]. */
function rgbChannels(rgb: Uint8Array | Float32Array, n: number, out: Float32Array): void {
  if (rgb instanceof Uint8Array) {
    for (let i = 0; i < n; i++) {
      out[4 * i] = RGB8_TO_UNIT[rgb[3 * i]!]!;
      out[4 * i + 1] = RGB8_TO_UNIT[rgb[3 * i + 1]!]!;
      out[4 * i + 2] = RGB8_TO_UNIT[rgb[3 * i + 2]!]!;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    out[4 * i] = (rgb[3 * i]! / 255) * 2 - 1;
    out[4 * i + 1] = (rgb[3 * i + 1]! / 255) * 2 - 1;
    out[4 * i + 2] = (rgb[3 * i + 2]! / 255) * 2 - 1;
  }
}
