/**
 * What any correction of the SPEC's form can do to the student's action choice (SPEC "Correction
 * Generator": delta_i = -lambda * r * sum_j S[i,j] |ds_j/dt|, ||delta||_2 <= 0.5).
 *
 * Every factor of that formula is non-negative (lambda > 0, r in [0,1], S = |d pi / d s| >= 0,
 * |ds/dt| >= 0), so delta <= 0 componentwise: a correction can only push logits down. For the
 * action t to become the argmax of z + delta, every action i with z_i >= z_t must be pushed below
 * z_t, and the cheapest such delta (smallest L2 norm) is
 *   delta_i = -(z_i - z_t + m)   for i != t with z_i - z_t + m > 0,   delta_i = 0 otherwise,
 * with m > 0 the margin by which t must win (a tie is not a win). Raising z_t is not available
 * (delta_t <= 0), and lowering any other action only costs norm. So t is reachable under the clip
 * exactly when that norm is <= DELTA_NORM_MAX; in particular never when the student's top-1 vs t
 * margin is >= DELTA_NORM_MAX.
 */
import { DELTA_NORM_MAX } from "../correction/constants";

/** Default winning margin (logit units): small against the 0.5 clip, large against float noise. */
export const ADMISSIBLE_WIN_MARGIN = 1e-3;

/**
 * Writes the minimum-norm non-positive delta that makes `target` the strict argmax of
 * `logits + delta` into `out` and returns its L2 norm (0 when `target` already wins by `margin`).
 */
export function minimalAdmissibleDelta(logits: Float32Array, target: number, out: Float32Array, margin: number = ADMISSIBLE_WIN_MARGIN): number {
  if (out.length !== logits.length) throw new RangeError(`out length=${out.length}, expected ${logits.length}`);
  if (!Number.isInteger(target) || target < 0 || target >= logits.length) {
    throw new RangeError(`target=${target}, expected an integer in [0, ${logits.length - 1}]`);
  }
  if (!(margin > 0)) throw new RangeError(`margin=${margin}, expected > 0`);
  const zt = logits[target]!;
  let sq = 0;
  for (let i = 0; i < logits.length; i++) {
    const need = i === target ? 0 : logits[i]! - zt + margin;
    const d = need > 0 ? -need : 0;
    out[i] = d;
    sq += d * d;
  }
  return Math.sqrt(sq);
}

/** True when `target` can be made the argmax by a delta of the SPEC's sign within `maxNorm`. */
export function isReachable(logits: Float32Array, target: number, scratch: Float32Array, maxNorm: number = DELTA_NORM_MAX): boolean {
  return minimalAdmissibleDelta(logits, target, scratch) <= maxNorm;
}
