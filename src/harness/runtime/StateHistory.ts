/**
 * The backward |ds/dt| of a flight's sensor state, differenced over a sliding window (SPEC: IMU
 * "sliding-window differenced"). Pure (no tfjs), so the frame recorder's worker threads start
 * without loading the tensor library.
 */
import { ROLLOUT_STEPS } from "../models/rolloutSteps";
import { STATE_DIM } from "../models/stateVector";

/** Ring of the last ROLLOUT_STEPS + 1 sensor states of one flight, giving backward |ds/dt|. */
export class StateHistory {
  private readonly states = new Float32Array((ROLLOUT_STEPS + 1) * STATE_DIM);
  private count = 0;

  reset(): void {
    this.count = 0;
    this.states.fill(0);
  }

  push(state: Float32Array): void {
    if (state.length !== STATE_DIM) throw new RangeError(`state.length=${state.length}, expected ${STATE_DIM}`);
    this.states.copyWithin(0, STATE_DIM);
    this.states.set(state, ROLLOUT_STEPS * STATE_DIM);
    this.count = Math.min(this.count + 1, ROLLOUT_STEPS + 1);
  }

  /** Mean |s_{k+1} - s_k| / dt over the stored differences (0 before two states exist). */
  rates(dt_s: number, out: Float32Array): Float32Array {
    if (!(dt_s > 0)) throw new RangeError(`dt_s=${dt_s}, expected > 0`);
    out.fill(0);
    const diffs = this.count - 1;
    if (diffs <= 0) return out;
    for (let k = ROLLOUT_STEPS + 1 - this.count; k < ROLLOUT_STEPS; k++) {
      for (let j = 0; j < STATE_DIM; j++) {
        out[j] = out[j]! + Math.abs(this.states[(k + 1) * STATE_DIM + j]! - this.states[k * STATE_DIM + j]!);
      }
    }
    for (let j = 0; j < STATE_DIM; j++) out[j] = out[j]! / (diffs * dt_s);
    return out;
  }
}

