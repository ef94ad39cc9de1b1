/**
 * The harness as a stochastic policy, for the PPO ablation of issue 13 ("PPO remains an option for
 * an ablation row"; SPEC "Harness method": PPO stays an option for ablation, not the default).
 *
 * In flight the correction of region k is delta_k = -lambda r_k sum_j S[free, j] |ds_j/dt|
 * (spatialCorrection.ts). As a policy, each region draws a_k ~ Bernoulli(r_k) and the correction
 * uses a_k in place of r_k, so the expected correction is the flown one (E[a_k] = r_k) and
 * log pi(a | s) = sum_k [a_k log r_k + (1 - a_k) log(1 - r_k)] is defined. The draw is made on
 * the recorded decisions and held until the next one (the policy acts every `recordEvery`
 * control steps), so every action that shaped the flight has its probability on record.
 *
 * The return of a recorded decision at control step t of a flight that ended at step T with the
 * environment's own terminal reward R (EnvironmentReward.ts: -1 collision, +1 goal, 0 timeout,
 * 0 on every other step) is G_t = gamma^(T - t) R: with gamma 0.9 per control step a collision
 * weighs on the decisions of its last 2 to 3 s (the SPEC's 8 to 12-step rollouts) and hardly on
 * those of the cruise before.
 * Pure: the random stream comes from the caller.
 */
import { Rng } from "../../util/Rng";

export type RiskPolicyOptions = {
  /** Seed of the draws; a flight's stream is this seed combined with the flight's seed. */
  seed: number;
  /** Discount per control step of the terminal reward. Default 0.9. */
  gamma?: number;
};

/** What one recorded decision of a sampled flight adds to its sample. */
export type PolicyRecord = {
  /** r_k the draws were made from (the behaviour policy's probabilities). */
  risk: Float32Array;
  /** a_k in {0, 1}. */
  action: Uint8Array;
  /** G_t, filled when the flight ends. */
  ret: number;
};

/** Draws and holds the per-region actions of one flight (SpatialHarnessOptions.riskPolicy). */
export class RiskSampler {
  private readonly rng: Rng;
  private held: Uint8Array | undefined;
  /** Set before a decision that draws afresh (the recorded ones); cleared by the draw. */
  drawNext = false;
  /** The record of the last draw. */
  last: PolicyRecord | undefined;

  constructor(options: RiskPolicyOptions, flightSeed: number) {
    if (!Number.isInteger(options.seed) || !Number.isInteger(flightSeed)) throw new RangeError(`risk policy seed=${options.seed}, flight seed=${flightSeed}: expected integers`);
    // Mixed so that neighbouring flight seeds do not give overlapping streams (Rng seeds via splitmix32).
    this.rng = new Rng(((options.seed * 0x9e3779b1) ^ flightSeed) >>> 0);
  }

  /** The hook: draws when asked (or when nothing is held yet) and writes the held actions over `risk`. */
  readonly apply = (risk: Float32Array): void => {
    if (this.drawNext || this.held === undefined || this.held.length !== risk.length) {
      const action = new Uint8Array(risk.length);
      const r = Float32Array.from(risk);
      for (let k = 0; k < risk.length; k++) {
        const p = risk[k]!;
        if (!(p >= 0 && p <= 1)) throw new RangeError(`risk policy: region ${k} risk ${p}, expected a probability`);
        action[k] = this.rng.next() < p ? 1 : 0;
      }
      this.held = action;
      this.last = { risk: r, action, ret: 0 };
      this.drawNext = false;
    }
    const a = this.held;
    for (let k = 0; k < risk.length; k++) risk[k] = a[k]!;
  };
}

/** G_t = gamma^(endStep - step) * terminalReward for each record (in place). */
export function assignReturns(records: readonly { step: number; policy?: PolicyRecord }[], endStep: number, terminalReward: number, gamma = 0.9): void {
  if (!(gamma > 0 && gamma <= 1)) throw new RangeError(`gamma=${gamma}, expected in (0, 1]`);
  for (const r of records) {
    if (r.policy === undefined) continue;
    if (r.step > endStep) throw new RangeError(`record at step ${r.step} after the flight's end ${endStep}`);
    r.policy.ret = Math.pow(gamma, endStep - r.step) * terminalReward;
  }
}
