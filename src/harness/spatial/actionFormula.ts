/**
 * The seed's literal Correction Generator on the planner's action logits (SPEC "Harness method":
 * "the literal seed formula on the planner's action logits is computed and reported as its own
 * row"; issue 13 item 2):
 *   delta_i = -lambda * r * sum_j S[i, j] * |ds_j/dt|,   ||delta||_2 <= maxNorm (0.5) by rescaling,
 * for the manoeuvres i of the local planner and the state dimensions j of the spatial harness
 * (yaw rad, pitch rad, forward m: SENSITIVITY_DIMS). S[i, j] = |pi_i(s + eps e_j) - pi_i(s)| / eps
 * by finite differences (PlannerPilot flies the detector and the planner on the frame warped by
 * eps along j, with the navigation moved the same way); r is the harness's largest region risk.
 * S >= 0 and the rates are >= 0, so every delta_i <= 0: the manoeuvres whose score changes most
 * with the motion now under way lose the most. Pure, no allocation.
 */
import { allFinite, clipNorm } from "../correction/correctionDelta";
import { NUM_SENSITIVITY_DIMS } from "./SpatialHarness";

export type ActionFormulaStats = {
  /** ||delta||_2 before the clip (0 when the input was rejected). */
  normRaw: number;
  /** max |delta_i| after the clip. */
  maxAbs: number;
  /** False when S, the rates or r held a non-finite value: delta is then zero. */
  finite: boolean;
};

/**
 * S: NUM_SENSITIVITY_DIMS values per action (action-major), rates: |ds_j/dt| per dimension,
 * risk r in [0, 1], lambda >= 0 -> `out` (one value per action).
 */
export function actionFormulaDelta(S: Float32Array, rates: ArrayLike<number>, risk: number, lambda: number, out: Float32Array, maxNorm: number): ActionFormulaStats {
  const J = NUM_SENSITIVITY_DIMS;
  if (S.length !== out.length * J) throw new RangeError(`S length=${S.length}, expected ${out.length} actions x ${J} state dimensions`);
  if (rates.length !== J) throw new RangeError(`rates length=${rates.length}, expected ${J}`);
  if (!(lambda >= 0 && Number.isFinite(lambda))) throw new RangeError(`lambda=${lambda}, expected a finite number >= 0`);
  if (!(maxNorm > 0)) throw new RangeError(`maxNorm=${maxNorm}, expected > 0`);
  let finiteRates = true;
  for (let j = 0; j < J; j++) if (!Number.isFinite(rates[j]!)) finiteRates = false;
  if (!(risk >= 0 && risk <= 1) || !finiteRates || !allFinite(S)) {
    out.fill(0);
    return { normRaw: 0, maxAbs: 0, finite: false };
  }
  for (let i = 0; i < out.length; i++) {
    let acc = 0;
    for (let j = 0; j < J; j++) acc += Math.abs(S[i * J + j]!) * Math.abs(rates[j]!);
    out[i] = -lambda * risk * acc;
  }
  const normRaw = clipNorm(out, maxNorm);
  let maxAbs = 0;
  for (const d of out) maxAbs = Math.max(maxAbs, Math.abs(d));
  return { normRaw, maxAbs, finite: true };
}
