/**
 * The per-cell inputs of the spatial harness (SpatialHarness.ts), written cell-major with
 * HARNESS_CELL_CHANNELS values per cell, all roughly in [-2, 2]:
 *  0-3  the student's class log-probabilities {free, wire, branch, pole/trunk}, floored at -10, / 5
 *  4    the student's near-threat logit, clamped to [-10, 10], / 5
 *  5    mean gradient magnitude of the current frame in the cell (grey levels per px) / 32
 *  6    log(1 + gradient variance) of the imagined frame one metre ahead in the cell / 6
 *       (the seed's texture measure of 4.2, textureGain.ts)
 *  7    the cell's image row, -1 (top) to 1 (bottom): where the horizon and the ground are
 */
import { cellGradientStats } from "../correction/textureGain";
import { HARNESS_CELL_CHANNELS } from "./SpatialHarness";

/** Detector outputs per cell (DetectorRuntime.logits): 4 class logits then the near-threat logit. */
export const DETECTOR_OUTPUTS_PER_CELL = 5;

export type FeatureWorkspace = { gradMean: Float32Array; gradVar: Float32Array };

export function featureWorkspace(cells: number): FeatureWorkspace {
  return { gradMean: new Float32Array(cells), gradVar: new Float32Array(cells) };
}

/**
 * The image side of the features (channels 5 and 6): the gradient mean of the current frame and
 * the gradient variance of the imagined frame per cell, into ws.gradMean and ws.gradVar. They do
 * not depend on the detector, so a harness node can compute them while the detector runs
 * (SpatialHarnessRuntime.prepare).
 */
export function imageFeatures(grey: Float32Array, imaginedGrey: Float32Array, width: number, height: number, cellPx: number, ws: FeatureWorkspace): void {
  if (ws.gradMean.length !== (width / cellPx) * (height / cellPx)) throw new RangeError(`imageFeatures: workspace of ${ws.gradMean.length} cells for a ${width}x${height} frame of ${cellPx} px cells`);
  cellGradientStats(grey, width, height, cellPx, ws.gradMean, undefined);
  cellGradientStats(imaginedGrey, width, height, cellPx, undefined, ws.gradVar);
}

/** Every channel per cell, from the detector's logits and the image side already in `ws` (imageFeatures). */
export function spatialFeatures(logits: Float32Array, width: number, height: number, cellPx: number, ws: FeatureWorkspace, out: Float32Array): Float32Array {
  const rows = height / cellPx;
  const cols = width / cellPx;
  const cells = rows * cols;
  if (logits.length !== cells * DETECTOR_OUTPUTS_PER_CELL || out.length !== cells * HARNESS_CELL_CHANNELS || ws.gradMean.length !== cells) {
    throw new RangeError(`spatialFeatures: logits ${logits.length}, out ${out.length}, workspace ${ws.gradMean.length} for ${cells} cells`);
  }
  for (let c = 0; c < cells; c++) {
    const l = c * DETECTOR_OUTPUTS_PER_CELL;
    let m = -Infinity;
    for (let k = 0; k < 4; k++) m = Math.max(m, logits[l + k]!);
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += Math.exp(logits[l + k]! - m);
    const lse = m + Math.log(sum);
    const o = c * HARNESS_CELL_CHANNELS;
    for (let k = 0; k < 4; k++) {
      const lp = logits[l + k]! - lse;
      out[o + k] = (Number.isFinite(lp) ? Math.max(-10, lp) : -10) / 5;
    }
    const t = logits[l + 4]!;
    out[o + 4] = (Number.isFinite(t) ? Math.max(-10, Math.min(10, t)) : 10) / 5;
    out[o + 5] = ws.gradMean[c]! / 32;
    out[o + 6] = Math.log1p(ws.gradVar[c]!) / 6;
    out[o + 7] = (2 * (Math.floor(c / cols) + 0.5)) / rows - 1;
  }
  return out;
}
