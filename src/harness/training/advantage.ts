/**
 * Advantages for the student's PPO update (SPEC "Co-evolution training": sample actions with
 * pi_theta and compute the advantage with pi_corrected; seed section 5.2, which prefers this to
 * re-weighting the PPO ratio because "the correction then only affects the critic, not the
 * actor's sampling").
 *
 * Our reading, stated so it can be checked: there is no learned critic. For step t of a rollout
 * with return-to-go G_t (undiscounted, environment reward only) and the batch baseline b = mean
 * of G over all valid steps of the batch,
 *     A_t = w_t * (G_t - b),   w_t = clip(pi_corrected(a_t|s_t) / pi_theta(a_t|s_t), 1 - c, 1 + c)
 * with c = the PPO clip 0.2. The advantage is thereby evaluated under the corrected policy's
 * distribution (an importance weight on the advantage, clipped like PPO's ratio so a large
 * correction cannot blow it up), while the PPO ratio itself stays pi_theta_new / pi_theta_old of
 * the sampling policy. Padded steps get A = 0.
 */
export const PPO_CLIP = 0.2;

export type AdvantageInput = {
  /** Return-to-go per step, [N]. */
  returns: ArrayLike<number>;
  /** 1 for real steps, 0 for padding, [N]. */
  valid: ArrayLike<number>;
  /** pi_theta(a_t | s_t) of the taken action at collection time, [N]. */
  piTheta: ArrayLike<number>;
  /** pi_corrected(a_t | s_t) = softmax(logits + delta)[a_t] at collection time, [N]. */
  piCorrected: ArrayLike<number>;
  /** Default PPO_CLIP. */
  clip?: number;
};

/** Writes A_t into `out` ([N]) and returns it. */
export function correctedAdvantages(input: AdvantageInput, out: Float32Array): Float32Array {
  const n = input.returns.length;
  for (const [name, arr] of [["valid", input.valid], ["piTheta", input.piTheta], ["piCorrected", input.piCorrected]] as const) {
    if (arr.length !== n) throw new RangeError(`${name}.length=${arr.length}, expected returns.length=${n}`);
  }
  if (out.length !== n) throw new RangeError(`out.length=${out.length}, expected ${n}`);
  const c = input.clip ?? PPO_CLIP;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (input.valid[i]! !== 0) {
      sum += input.returns[i]!;
      count++;
    }
  }
  const b = count > 0 ? sum / count : 0;
  for (let i = 0; i < n; i++) {
    if (input.valid[i]! === 0) {
      out[i] = 0;
      continue;
    }
    const pt = input.piTheta[i]!;
    const pc = input.piCorrected[i]!;
    if (!(pt > 0) || !(pc >= 0)) throw new RangeError(`piTheta[${i}]=${pt}, piCorrected[${i}]=${pc}; expected probabilities with piTheta > 0`);
    const w = Math.min(1 + c, Math.max(1 - c, pc / pt));
    out[i] = w * (input.returns[i]! - b);
  }
  return out;
}
