/**
 * The Correction Generator made spatial (SPEC "Harness method"; issue 13 item 2):
 *
 *   delta_c = -lambda * r_region(c) * sum_j S_c[free, j] |ds_j/dt|
 *
 * on the free (background) logit of every cell c, with r the harness's risk of the cell's region,
 * S_c[free, j] >= 0 the predicted sensitivity of that cell's free logit to state dimension j
 * (yaw, pitch, forward move) and |ds_j/dt| the current rates (yaw rate, pitch rate, forward
 * speed). Every region's delta vector is clipped to ||delta_region||_2 <= regionClip (default
 * DELTA_NORM_MAX = 0.5). delta <= 0: a risky region's free logit falls, so its obstacle
 * probabilities rise. The near-threat logit is a binary logit whose negative side is "free", so
 * the same delta enters it with the opposite sign (threat' = threat - delta): that is the output
 * the planner reads. S is taken non-negative (a magnitude) so the correction can only strengthen
 * the evidence of an obstacle, never erase it: our reading of the seed's formula.
 */
import { DELTA_NORM_MAX } from "../correction/constants";
import { NUM_SENSITIVITY_DIMS, REGION_CELLS, regionOfCell } from "./SpatialHarness";
import { DETECTOR_OUTPUTS_PER_CELL } from "./spatialFeatures";

export { DELTA_NORM_MAX };

export type SpatialDeltaStats = {
  /** Largest ||delta_region||_2 after clipping. */
  maxRegionNorm: number;
  /** Largest |delta_c|. */
  maxAbs: number;
  /** Regions whose norm was clipped. */
  clippedRegions: number;
  /** Regions with a non-zero delta. */
  activeRegions: number;
  /** True when a non-finite value was found; delta is then all zeros (no correction). */
  rejected: boolean;
};

/** Writes delta (one value per cell, row-major) and returns its statistics. */
export function spatialDelta(
  risk: Float32Array,
  sensitivity: Float32Array,
  rates: ArrayLike<number>,
  lambda: number,
  rows: number,
  cols: number,
  regionClip: number,
  delta: Float32Array,
): SpatialDeltaStats {
  const cells = rows * cols;
  const regionsC = cols / REGION_CELLS;
  if (delta.length !== cells || sensitivity.length !== cells * NUM_SENSITIVITY_DIMS || risk.length !== (rows / REGION_CELLS) * regionsC || rates.length !== NUM_SENSITIVITY_DIMS) {
    throw new RangeError(`spatialDelta: delta ${delta.length}, sensitivity ${sensitivity.length}, risk ${risk.length}, rates ${rates.length} for a ${rows}x${cols} grid`);
  }
  if (!(regionClip > 0)) throw new RangeError(`regionClip=${regionClip}, expected > 0`);
  const stats: SpatialDeltaStats = { maxRegionNorm: 0, maxAbs: 0, clippedRegions: 0, activeRegions: 0, rejected: false };
  for (let c = 0; c < cells; c++) {
    const region = regionOfCell(c, cols);
    let s = 0;
    for (let j = 0; j < NUM_SENSITIVITY_DIMS; j++) s += sensitivity[c * NUM_SENSITIVITY_DIMS + j]! * Math.abs(rates[j]!);
    delta[c] = 0 - lambda * risk[region]! * s; // 0 - x: no negative zero where r or s is 0
  }
  for (let gr = 0; gr < rows / REGION_CELLS; gr++) {
    for (let gq = 0; gq < regionsC; gq++) {
      let ss = 0;
      for (let dr = 0; dr < REGION_CELLS; dr++) for (let dq = 0; dq < REGION_CELLS; dq++) ss += delta[(gr * REGION_CELLS + dr) * cols + gq * REGION_CELLS + dq]! ** 2;
      const norm = Math.sqrt(ss);
      if (!Number.isFinite(norm)) {
        delta.fill(0);
        return { maxRegionNorm: 0, maxAbs: 0, clippedRegions: 0, activeRegions: 0, rejected: true };
      }
      let scale = 1;
      if (norm > regionClip) {
        scale = regionClip / norm;
        stats.clippedRegions++;
      }
      if (norm > 0) stats.activeRegions++;
      for (let dr = 0; dr < REGION_CELLS; dr++) {
        for (let dq = 0; dq < REGION_CELLS; dq++) {
          const i = (gr * REGION_CELLS + dr) * cols + gq * REGION_CELLS + dq;
          const d = delta[i]! * scale;
          delta[i] = d;
          stats.maxAbs = Math.max(stats.maxAbs, Math.abs(d));
        }
      }
      stats.maxRegionNorm = Math.max(stats.maxRegionNorm, norm * scale);
    }
  }
  return stats;
}

/** corrected = logits with free += delta and near-threat -= delta per cell (DETECTOR_OUTPUTS_PER_CELL values per cell). */
export function applySpatialDelta(logits: Float32Array, delta: Float32Array, corrected: Float32Array): Float32Array {
  const cells = delta.length;
  if (logits.length !== cells * DETECTOR_OUTPUTS_PER_CELL || corrected.length !== logits.length) {
    throw new RangeError(`applySpatialDelta: logits ${logits.length}, corrected ${corrected.length}, delta ${delta.length}`);
  }
  corrected.set(logits);
  for (let c = 0; c < cells; c++) {
    const o = c * DETECTOR_OUTPUTS_PER_CELL;
    corrected[o] = logits[o]! + delta[c]!;
    corrected[o + 4] = logits[o + 4]! - delta[c]!;
  }
  return corrected;
}

/** The cells an aimed correction is spent on: uncorrected near-threat probability in [low, high). */
export type CorrectionAim = { low: number; high: number };

/** Throws unless 0 <= low < high <= 1. */
export function checkCorrectionAim(aim: CorrectionAim): void {
  if (!(aim.low >= 0 && aim.low < aim.high && aim.high <= 1)) throw new RangeError(`aim [${aim.low}, ${aim.high}), expected 0 <= low < high <= 1`);
}

/**
 * The aimed correction (seventeenth session, off by default; docs/results/aimed-correction-decision-rule.txt):
 * moves each region's delta (spatialDelta's output, already clipped) onto its aimed cells, those whose
 * uncorrected near-threat probability sigmoid(logits[c][4]) lies in [aim.low, aim.high). Aimed cells are
 * scaled by ||delta_region||_2 / ||delta_aimed||_2 and the others set to 0, so every region keeps its L2
 * norm (still <= the clip) and a region without an aimed cell, or whose aimed cells carry no delta, gets
 * none. Rewrites `delta` in place and returns its statistics (clippedRegions and rejected as given).
 */
export function aimSpatialDelta(delta: Float32Array, logits: Float32Array, rows: number, cols: number, aim: CorrectionAim, given: SpatialDeltaStats): SpatialDeltaStats {
  checkCorrectionAim(aim);
  if (delta.length !== rows * cols || logits.length !== delta.length * DETECTOR_OUTPUTS_PER_CELL || rows % REGION_CELLS !== 0 || cols % REGION_CELLS !== 0) {
    throw new RangeError(`aimSpatialDelta: delta ${delta.length}, logits ${logits.length} for a ${rows}x${cols} grid`);
  }
  const logit = (p: number): number => (p <= 0 ? -Infinity : p >= 1 ? Infinity : Math.log(p / (1 - p)));
  const lo = logit(aim.low);
  const hi = logit(aim.high);
  const aimed = (i: number): boolean => {
    const l = logits[i * DETECTOR_OUTPUTS_PER_CELL + 4]!;
    return l >= lo && l < hi;
  };
  const stats: SpatialDeltaStats = { ...given, maxRegionNorm: 0, maxAbs: 0, activeRegions: 0 };
  const cellOf = (gr: number, gq: number, k: number): number => (gr * REGION_CELLS + Math.floor(k / REGION_CELLS)) * cols + gq * REGION_CELLS + (k % REGION_CELLS);
  const n = REGION_CELLS * REGION_CELLS;
  for (let gr = 0; gr < rows / REGION_CELLS; gr++) {
    for (let gq = 0; gq < cols / REGION_CELLS; gq++) {
      let all = 0;
      let onAimed = 0;
      for (let k = 0; k < n; k++) {
        const i = cellOf(gr, gq, k);
        all += delta[i]! ** 2;
        if (aimed(i)) onAimed += delta[i]! ** 2;
      }
      const scale = onAimed > 0 ? Math.sqrt(all / onAimed) : 0;
      for (let k = 0; k < n; k++) {
        const i = cellOf(gr, gq, k);
        const d = scale > 0 && aimed(i) ? delta[i]! * scale : 0; // scale > 0: no negative zero from delta x 0
        delta[i] = d;
        stats.maxAbs = Math.max(stats.maxAbs, Math.abs(d));
      }
      if (scale > 0) {
        stats.activeRegions++;
        stats.maxRegionNorm = Math.max(stats.maxRegionNorm, Math.sqrt(all));
      }
    }
  }
  return stats;
}
