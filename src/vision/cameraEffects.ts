/**
 * Camera effects of a real drone camera, drawn at random per image (issue 14 item 2: "camera
 * effects: blur, noise, JPEG, exposure, vignetting"), as a training-time augmentation of the
 * simulator's crops. Real UAV photos differ from our renderer in how the sensor and its image
 * signal processor treat a 1-2 px line: optics soften it, the ISP sharpens it back with a halo,
 * JPEG rings around it and smears its colour, exposure and tone curves move its contrast.
 *
 * The chain follows the order of a camera (Brown, "Understanding the in-camera image processing
 * pipeline", ICCV 2019 tutorial): lens vignetting and blur, exposure gain and colour cast, sensor
 * noise, tone curve (gamma), sharpening (unsharp mask), JPEG compression. Images are interleaved
 * RGB floats in [0, 1], changed in place. The labels do not move: every effect keeps geometry.
 */
import { jpegArtefacts } from "./jpegArtefacts";
import type { Rng } from "../util/Rng";

/** [min, max] drawn uniformly per image. */
export type EffectRange = readonly [number, number];

export type CameraEffectRanges = {
  /** Radial fall-off: brightness x (1 - k r^2), r = 1 at the image corner. */
  vignette: EffectRange;
  /** Gaussian blur sigma, px (0 = off). */
  blurSigma: EffectRange;
  /** Exposure gain. */
  gain: EffectRange;
  /** Per-channel gain spread around 1 (white balance error): each channel x uniform(1 - c, 1 + c). */
  colourCast: number;
  /** Additive Gaussian noise std, 8-bit units. */
  noiseStd: EffectRange;
  /** Tone curve exponent: v^gamma. */
  gamma: EffectRange;
  /** Unsharp mask amount (sigma 1 px): v + a (v - blur(v)). */
  sharpen: EffectRange;
  /** JPEG quality (1..100, IJG scaling; jpegArtefacts.ts, 4:2:0), applied with probability `jpegChance`. */
  jpegQuality: EffectRange;
  jpegChance: number;
};

/** Defaults: roughly what consumer drone cameras show (mild vignetting, light blur, JPEG 40-90). */
export const DEFAULT_CAMERA_EFFECTS: CameraEffectRanges = {
  vignette: [0, 0.35],
  blurSigma: [0, 1.0],
  gain: [0.65, 1.4],
  colourCast: 0.08,
  noiseStd: [0, 4],
  gamma: [0.8, 1.25],
  sharpen: [0, 1.0],
  jpegQuality: [40, 90],
  jpegChance: 0.7,
};

/** One draw of the effects for one image. */
export type CameraEffects = {
  vignette: number;
  blurSigma: number;
  gain: [number, number, number];
  noiseStd: number;
  gamma: number;
  sharpen: number;
  /** 0 = no JPEG. */
  jpegQuality: number;
};

function draw(rng: Rng, r: EffectRange): number {
  return rng.uniform(r[0], r[1]);
}

export function drawCameraEffects(rng: Rng, ranges: CameraEffectRanges = DEFAULT_CAMERA_EFFECTS): CameraEffects {
  const g = draw(rng, ranges.gain);
  const c = ranges.colourCast;
  return {
    vignette: draw(rng, ranges.vignette),
    blurSigma: draw(rng, ranges.blurSigma),
    gain: [g * rng.uniform(1 - c, 1 + c), g * rng.uniform(1 - c, 1 + c), g * rng.uniform(1 - c, 1 + c)],
    noiseStd: draw(rng, ranges.noiseStd),
    gamma: draw(rng, ranges.gamma),
    sharpen: draw(rng, ranges.sharpen),
    jpegQuality: rng.chance(ranges.jpegChance) ? Math.round(draw(rng, ranges.jpegQuality)) : 0,
  };
}

/** Applies `fx` to an interleaved RGB image in [0, 1] (width x height x 3), in place; `rng` draws the noise. */
export function applyCameraEffects(img: Float32Array, width: number, height: number, fx: CameraEffects, rng: Rng): void {
  if (img.length !== width * height * 3) throw new RangeError(`image length ${img.length}, expected ${width}x${height}x3 = ${width * height * 3}`);
  const scratch = new Float32Array(img.length);
  if (fx.vignette > 0) vignette(img, width, height, fx.vignette);
  if (fx.blurSigma > 0.05) gaussianBlur(img, width, height, fx.blurSigma, scratch);
  const noise = fx.noiseStd / 255;
  const [gr, gg, gb] = fx.gain;
  for (let i = 0; i < img.length; i += 3) {
    img[i] = clamp01(img[i]! * gr + (noise > 0 ? noise * rng.normal() : 0)) ** fx.gamma;
    img[i + 1] = clamp01(img[i + 1]! * gg + (noise > 0 ? noise * rng.normal() : 0)) ** fx.gamma;
    img[i + 2] = clamp01(img[i + 2]! * gb + (noise > 0 ? noise * rng.normal() : 0)) ** fx.gamma;
  }
  if (fx.sharpen > 0) unsharpMask(img, width, height, fx.sharpen, scratch);
  if (fx.jpegQuality > 0) jpegArtefacts(img, width, height, fx.jpegQuality);
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}

function vignette(img: Float32Array, w: number, h: number, k: number): void {
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  const r2max = cx * cx + cy * cy || 1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const f = 1 - (k * ((x - cx) ** 2 + (y - cy) ** 2)) / r2max;
      const o = 3 * (y * w + x);
      img[o] = img[o]! * f;
      img[o + 1] = img[o + 1]! * f;
      img[o + 2] = img[o + 2]! * f;
    }
  }
}

/** Normalised 1-D Gaussian taps, radius ceil(2.5 sigma). */
export function gaussianTaps(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(2.5 * sigma));
  const taps = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += taps[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < taps.length; i++) taps[i] = taps[i]! / sum;
  return taps;
}

/** Separable Gaussian blur with clamped borders, `out` = blurred `img` (out may be a scratch buffer; img unchanged). */
function blurInto(img: Float32Array, w: number, h: number, sigma: number, out: Float32Array): void {
  const taps = gaussianTaps(sigma);
  const r = (taps.length - 1) / 2;
  const tmp = new Float32Array(img.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += taps[k + r]! * img[3 * (y * w + Math.min(w - 1, Math.max(0, x + k))) + c]!;
        tmp[3 * (y * w + x) + c] = s;
      }
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = -r; k <= r; k++) s += taps[k + r]! * tmp[3 * (Math.min(h - 1, Math.max(0, y + k)) * w + x) + c]!;
        out[3 * (y * w + x) + c] = s;
      }
    }
  }
}

function gaussianBlur(img: Float32Array, w: number, h: number, sigma: number, scratch: Float32Array): void {
  blurInto(img, w, h, sigma, scratch);
  img.set(scratch);
}

function unsharpMask(img: Float32Array, w: number, h: number, amount: number, scratch: Float32Array): void {
  blurInto(img, w, h, 1, scratch);
  for (let i = 0; i < img.length; i++) img[i] = clamp01(img[i]! + amount * (img[i]! - scratch[i]!));
}
