/**
 * The seed's texture rule (scenario 4.2): in the warped wire regions of the imagined rollout,
 * compute the pixel-gradient variance; where it is > 5 and the altitude is < 15 m, the correction
 * strengthens the high-frequency (Sobel) texture channel. Here it sets the student's per-sample
 * texture gain: gain = 1 + TEXTURE_MAX_BOOST * r * f, where f is the fraction of wire cells
 * (student wire probability >= 0.5) whose variance exceeds the threshold (f = 0 at or above 15 m).
 *
 * How it combines with delta: the logit delta corrects the current frame; the gain is computed
 * from the current frame's rollout and multiplies the Sobel channel of the student's input on the
 * next frame (the rollout only exists after this frame's perception), so the two never compound
 * within one frame and the gain is bounded by 1 + TEXTURE_MAX_BOOST.
 *
 * Units: grey levels 0-255 (8-bit image), gradient by central differences
 * g = sqrt(((I[x+1]-I[x-1])/2)^2 + ((I[y+1]-I[y-1])/2)^2); the variance is of g over a cell's
 * pixels. The seed gives the threshold 5 without units; this is our reading of it.
 */
import { TEXTURE_MAX_ALTITUDE_M, TEXTURE_MAX_BOOST, TEXTURE_VARIANCE_THRESHOLD } from "./constants";

/**
 * Per-cell variance of the gradient magnitude of a grey image (row-major, width x height, values
 * 0-255) over cellPx x cellPx cells, into `out` (length (height/cellPx) * (width/cellPx)).
 * Border pixels use one-sided neighbours clamped to the image. `meanOut` (same length), when
 * given, receives the per-cell mean gradient magnitude.
 */
export function cellGradientVariance(grey: Float32Array | Uint8Array, width: number, height: number, cellPx: number, out: Float32Array, meanOut?: Float32Array): Float32Array {
  if (grey.length !== width * height) {
    throw new RangeError(`grey length=${grey.length}, expected width*height=${width * height}`);
  }
  if (width % cellPx !== 0 || height % cellPx !== 0) {
    throw new RangeError(`image ${width}x${height} is not a multiple of cellPx=${cellPx}`);
  }
  const gw = width / cellPx;
  const gh = height / cellPx;
  if (out.length !== gw * gh) {
    throw new RangeError(`out length=${out.length}, expected ${gw * gh}`);
  }
  const n = cellPx * cellPx;
  for (let cy = 0; cy < gh; cy++) {
    for (let cx = 0; cx < gw; cx++) {
      let s = 0;
      let ss = 0;
      for (let y = cy * cellPx; y < (cy + 1) * cellPx; y++) {
        const ym = y > 0 ? y - 1 : 0;
        const yp = y < height - 1 ? y + 1 : height - 1;
        for (let x = cx * cellPx; x < (cx + 1) * cellPx; x++) {
          const xm = x > 0 ? x - 1 : 0;
          const xp = x < width - 1 ? x + 1 : width - 1;
          const gx = (grey[y * width + xp]! - grey[y * width + xm]!) / 2;
          const gy = (grey[yp * width + x]! - grey[ym * width + x]!) / 2;
          const g = Math.sqrt(gx * gx + gy * gy);
          s += g;
          ss += g * g;
        }
      }
      const mean = s / n;
      out[cy * gw + cx] = Math.max(0, ss / n - mean * mean);
      if (meanOut !== undefined) meanOut[cy * gw + cx] = mean;
    }
  }
  return out;
}

export type TextureGainInputs = {
  /** Per-cell gradient variance in the warped frame (cellGradientVariance). */
  cellVariance: Float32Array;
  /** Per-cell wire probability of the student (same grid). */
  wireProb: Float32Array;
  altitude_m: number;
  /** Harness risk r in [0,1]. */
  risk: number;
};

/** The student's texture gain for the next frame, in [1, 1 + TEXTURE_MAX_BOOST]. */
export function textureGain(inp: TextureGainInputs): number {
  if (inp.cellVariance.length !== inp.wireProb.length) {
    throw new RangeError(`cellVariance length=${inp.cellVariance.length}, wireProb length=${inp.wireProb.length}: expected equal`);
  }
  if (!(inp.altitude_m < TEXTURE_MAX_ALTITUDE_M) || !(inp.risk > 0)) return 1;
  let wire = 0;
  let textured = 0;
  for (let i = 0; i < inp.wireProb.length; i++) {
    if (inp.wireProb[i]! >= 0.5) {
      wire++;
      if (inp.cellVariance[i]! > TEXTURE_VARIANCE_THRESHOLD) textured++;
    }
  }
  if (wire === 0) return 1;
  const r = Math.min(1, inp.risk);
  return 1 + TEXTURE_MAX_BOOST * r * (textured / wire);
}
