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
  cellGradientStats(grey, width, height, cellPx, meanOut, out);
  return out;
}

/**
 * The per-cell mean (`meanOut`) and variance (`varOut`) of the gradient magnitude, either or both:
 * cellGradientVariance's arithmetic, bit for bit (each cell sums its pixels row by row in the same
 * order), with the clamps only in cells on the image border, and without the sum of squares when
 * only the mean is asked for (the harness's current frame).
 */
export function cellGradientStats(grey: Float32Array | Uint8Array, width: number, height: number, cellPx: number, meanOut: Float32Array | undefined, varOut: Float32Array | undefined): void {
  if (grey.length !== width * height) {
    throw new RangeError(`grey length=${grey.length}, expected width*height=${width * height}`);
  }
  if (width % cellPx !== 0 || height % cellPx !== 0) {
    throw new RangeError(`image ${width}x${height} is not a multiple of cellPx=${cellPx}`);
  }
  const gw = width / cellPx;
  const gh = height / cellPx;
  for (const [name, a] of [["meanOut", meanOut], ["out", varOut]] as const) {
    if (a !== undefined && a.length !== gw * gh) throw new RangeError(`${name} length=${a.length}, expected ${gw * gh}`);
  }
  const n = cellPx * cellPx;
  const sums = CELL_SUMS;
  const squares = varOut !== undefined;
  for (let cy = 0; cy < gh; cy++) {
    for (let cx = 0; cx < gw; cx++) {
      if (cy > 0 && cy < gh - 1 && cx > 0 && cx < gw - 1) innerCellSums(grey, width, cx * cellPx, cy * cellPx, cellPx, squares, sums);
      else borderCellSums(grey, width, height, cx * cellPx, cy * cellPx, cellPx, sums);
      const mean = sums[0]! / n;
      if (varOut !== undefined) varOut[cy * gw + cx] = Math.max(0, sums[1]! / n - mean * mean);
      if (meanOut !== undefined) meanOut[cy * gw + cx] = mean;
    }
  }
}

/** The per-cell sum and sum of squares of cellGradientStats (one buffer, no allocation per frame). */
const CELL_SUMS = new Float64Array(2);

/** Sum and sum of squares (when `squares`) of g over a cell with no pixel on the image border. */
function innerCellSums(grey: Float32Array | Uint8Array, width: number, x0: number, y0: number, cellPx: number, squares: boolean, sums: Float64Array): void {
  let s = 0;
  let ss = 0;
  for (let y = y0; y < y0 + cellPx; y++) {
    const row = y * width;
    const up = row - width;
    const down = row + width;
    for (let x = x0; x < x0 + cellPx; x++) {
      const gx = (grey[row + x + 1]! - grey[row + x - 1]!) / 2;
      const gy = (grey[down + x]! - grey[up + x]!) / 2;
      const g = Math.sqrt(gx * gx + gy * gy);
      s += g;
      if (squares) ss += g * g;
    }
  }
  sums[0] = s;
  sums[1] = ss;
}

/** Sum and sum of squares of g over a cell on the image border (neighbours clamped to the image). */
function borderCellSums(grey: Float32Array | Uint8Array, width: number, height: number, x0: number, y0: number, cellPx: number, sums: Float64Array): void {
  let s = 0;
  let ss = 0;
  for (let y = y0; y < y0 + cellPx; y++) {
    const ym = y > 0 ? y - 1 : 0;
    const yp = y < height - 1 ? y + 1 : height - 1;
    for (let x = x0; x < x0 + cellPx; x++) {
      const xm = x > 0 ? x - 1 : 0;
      const xp = x < width - 1 ? x + 1 : width - 1;
      const gx = (grey[y * width + xp]! - grey[y * width + xm]!) / 2;
      const gy = (grey[yp * width + x]! - grey[ym * width + x]!) / 2;
      const g = Math.sqrt(gx * gx + gy * gy);
      s += g;
      ss += g * g;
    }
  }
  sums[0] = s;
  sums[1] = ss;
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
