/**
 * Fixed-length rollouts with zero padding (SPEC "Rollouts" and "Deployment": 3 steps, static
 * shapes; seed 3.2, 5.3) and the state change rates |ds_j/dt| the Correction Generator needs.
 */
import { ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";

export type RolloutStep = {
  /** Action taken (index into ACTIONS). */
  action: number;
  /** The environment's own reward (no shaping). */
  reward: number;
  /** Normalised state s' after the step (length STATE_DIM). */
  nextState: Float32Array;
};

/** Static-shape rollout: arrays sized for ROLLOUT_STEPS whatever the number of valid steps. */
export type PaddedRollout = {
  /** Valid steps (<= ROLLOUT_STEPS); the rest are zeros. */
  length: number;
  /** [ROLLOUT_STEPS] actions, -1 where padded. */
  actions: Int32Array;
  /** [ROLLOUT_STEPS] rewards, 0 where padded. */
  rewards: Float32Array;
  /** [(ROLLOUT_STEPS + 1) * STATE_DIM]: s_0 then each s', zeros where padded. */
  states: Float32Array;
};

export function newPaddedRollout(): PaddedRollout {
  return { length: 0, actions: new Int32Array(ROLLOUT_STEPS), rewards: new Float32Array(ROLLOUT_STEPS), states: new Float32Array((ROLLOUT_STEPS + 1) * STATE_DIM) };
}

/** Writes s_0 and the first ROLLOUT_STEPS steps into `out`, zero-padding the rest. */
export function padRollout(s0: Float32Array, steps: readonly RolloutStep[], out: PaddedRollout): PaddedRollout {
  if (s0.length !== STATE_DIM) throw new RangeError(`s0 length=${s0.length}, expected ${STATE_DIM}`);
  out.states.fill(0);
  out.rewards.fill(0);
  out.actions.fill(-1);
  out.states.set(s0, 0);
  const n = Math.min(steps.length, ROLLOUT_STEPS);
  for (let k = 0; k < n; k++) {
    const st = steps[k];
    if (st === undefined) continue;
    if (st.nextState.length !== STATE_DIM) throw new RangeError(`step ${k} nextState length=${st.nextState.length}, expected ${STATE_DIM}`);
    out.actions[k] = st.action;
    out.rewards[k] = st.reward;
    out.states.set(st.nextState, (k + 1) * STATE_DIM);
  }
  out.length = n;
  return out;
}

/**
 * |ds_j/dt| averaged over the valid steps: (1/L) sum_k |s_{k+1,j} - s_{k,j}| / dt_s. Padded steps
 * are ignored; with no valid step the rates are 0 (no motion: no correction).
 */
export function stateRates(rollout: PaddedRollout, dt_s: number, out: Float32Array): Float32Array {
  if (!(dt_s > 0 && Number.isFinite(dt_s))) throw new RangeError(`dt_s=${dt_s}, expected a finite number > 0`);
  if (out.length !== STATE_DIM) throw new RangeError(`out length=${out.length}, expected ${STATE_DIM}`);
  out.fill(0);
  const L = rollout.length;
  if (L === 0) return out;
  for (let k = 0; k < L; k++) {
    for (let j = 0; j < STATE_DIM; j++) {
      const a = rollout.states[k * STATE_DIM + j]!;
      const b = rollout.states[(k + 1) * STATE_DIM + j]!;
      out[j] = out[j]! + Math.abs(b - a);
    }
  }
  for (let j = 0; j < STATE_DIM; j++) out[j] = out[j]! / (L * dt_s);
  return out;
}
