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
import { kernelCellSums } from "./gradientKernel";

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

export type CellGradientStatsOptions = {
  /** "auto" (default): the WebAssembly kernel for a float32 image where it runs; "js": the JavaScript loop always (tests compare the two). */
  impl?: "auto" | "js";
};

/**
 * The per-cell mean (`meanOut`) and variance (`varOut`) of the gradient magnitude, either or both;
 * the sum of squares is skipped when only the mean is asked for (the harness's current frame).
 * Each cell adds its pixels row by row, left to right (cellGradientVariance's order), but the
 * image is walked one row at a time across a whole row of cells (one accumulator pair per cell
 * column), the clamps only in the first and last cell column, and of G = sqrt(dx^2 + dy^2) with
 * dx, dy the undivided differences: G = 2 g exactly (power-of-two scaling commutes with every
 * rounding here), so 0.5 * sum(G) and 0.25 * sum(G^2) are the bits of sum(g) and sum(g^2).
 * The sums of a float32 image come from the WebAssembly kernel (gradientKernel.ts, two pixels per
 * instruction, the same bits) where it runs.
 */
export function cellGradientStats(grey: Float32Array | Uint8Array, width: number, height: number, cellPx: number, meanOut: Float32Array | undefined, varOut: Float32Array | undefined, options: CellGradientStatsOptions = {}): void {
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
  const sums = ((options.impl ?? "auto") === "auto" && grey instanceof Float32Array ? kernelCellSums(grey, width, height, cellPx, { squares: varOut !== undefined }) : undefined) ?? jsCellSums(grey, width, height, cellPx, varOut !== undefined);
  for (let c = 0; c < gw * gh; c++) {
    const mean = (0.5 * sums[2 * c]!) / n;
    if (varOut !== undefined) varOut[c] = Math.max(0, (0.25 * sums[2 * c + 1]!) / n - mean * mean);
    if (meanOut !== undefined) meanOut[c] = mean;
  }
}

/** kernelCellSums' result computed in JavaScript: per cell c, the sum of G and (with `squares`) of G^2 at 2c and 2c + 1. */
function jsCellSums(grey: Float32Array | Uint8Array, width: number, height: number, cellPx: number, squares: boolean): Float64Array {
  const gw = width / cellPx;
  const gh = height / cellPx;
  if (cellSums.length !== 2 * gw * gh) cellSums = new Float64Array(2 * gw * gh);
  cellSums.fill(0);
  for (let cy = 0; cy < gh; cy++) cellRowSums(grey, width, height, cy * cellPx, cellPx, squares, cellSums, 2 * cy * gw);
  return cellSums;
}

/** jsCellSums' per-cell sums (reallocated when the grid size changes). */
let cellSums = new Float64Array(0);

/**
 * Sums of G (and of G^2 when `squares`) over the cells of the cell row whose first image row is
 * y0, into acc[at + 2 cx] and acc[at + 2 cx + 1]. Rows outside the image are clamped by choosing the row
 * above and below once per image row; columns only in the first and last cell.
 */
function cellRowSums(grey: Float32Array | Uint8Array, width: number, height: number, y0: number, cellPx: number, squares: boolean, acc: Float64Array, at: number): void {
  const gw = width / cellPx;
  for (let y = y0; y < y0 + cellPx; y++) {
    const row = y * width;
    const up = (y > 0 ? y - 1 : 0) * width;
    const down = (y < height - 1 ? y + 1 : height - 1) * width;
    for (let cx = 0; cx < gw; cx++) {
      let s = acc[at + 2 * cx]!;
      let ss = acc[at + 2 * cx + 1]!;
      const x0 = cx * cellPx;
      if (cx === 0 || cx === gw - 1) {
        for (let x = x0; x < x0 + cellPx; x++) {
          const dx = grey[row + (x < width - 1 ? x + 1 : width - 1)]! - grey[row + (x > 0 ? x - 1 : 0)]!;
          const dy = grey[down + x]! - grey[up + x]!;
          const g = Math.sqrt(dx * dx + dy * dy);
          s += g;
          if (squares) ss += g * g;
        }
      } else {
        // The left and right neighbours slide along the row: one new read per pixel for dx.
        let left = grey[row + x0 - 1]!;
        let centre = grey[row + x0]!;
        for (let x = x0; x < x0 + cellPx; x++) {
          const right = grey[row + x + 1]!;
          const dx = right - left;
          const dy = grey[down + x]! - grey[up + x]!;
          const g = Math.sqrt(dx * dx + dy * dy);
          s += g;
          if (squares) ss += g * g;
          left = centre;
          centre = right;
        }
      }
      acc[at + 2 * cx] = s;
      acc[at + 2 * cx + 1] = ss;
    }
  }
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
