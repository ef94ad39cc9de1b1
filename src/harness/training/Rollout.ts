/**
 * Fixed-length on-policy rollouts (SPEC "Rollouts"; seed section 3.2): K = 3 steps for robot
 * control; the first step takes the argmax action of pi_theta, the later steps sample from
 * softmax(logits / 1.2). Each step stores (s, a, r, s') with the environment's own reward
 * (EnvironmentReward.ts). When the episode ends before K steps the remaining slots are zero
 * (static shapes, SPEC "Deployment") and `valid` marks the real ones.
 */
import { argmax, sampleWithTemperature, softmaxWithTemperature, ROLLOUT_TEMPERATURE } from "./sampleAction";
import type { Rng } from "../../util/Rng";

export const ROLLOUT_LENGTH = 3;

/** What a rollout needs from the world: observations, state features and one step. */
export interface RolloutEnvironment<Obs> {
  /** The current observation; must be a fresh object (the rollout keeps it). */
  observe(): Obs;
  /** Writes the harness state features s (D values) of `obs` into `out`. */
  stateFeatures(obs: Obs, out: Float32Array): void;
  /** Applies `action` for one control period; reward from environmentReward(). */
  step(action: number): { reward: number; done: boolean };
}

/** The acting policy pi_theta: writes the A action logits of `obs` into `out`. */
export interface RolloutPolicy<Obs> {
  logits(obs: Obs, out: Float32Array): void;
}

export type RolloutShape = { length: number; actions: number; features: number };

export type Rollout<Obs> = {
  shape: RolloutShape;
  /** observations[t] = s_t for valid steps, undefined in padded slots. */
  observations: (Obs | undefined)[];
  /** Observation after the last valid step (s' of that step). */
  finalObservation: Obs | undefined;
  actions: Int32Array;
  rewards: Float32Array;
  /** 1 for steps that were taken, 0 for padding. */
  valid: Uint8Array;
  /** pi_theta logits at collection time, [length, actions], zero padded. */
  logits: Float32Array;
  /** log pi_theta(a_t | s_t) at temperature 1 (the PPO "old" policy), zero padded. */
  logProbs: Float32Array;
  /** State features s_0..s_K, [length + 1, features]; s_{t+1} after the episode ends stays 0. */
  features: Float32Array;
  /** Number of valid steps (1..length). */
  steps: number;
  /** 1 when any step's reward is negative: the risk target r_true of SPEC "Policy Diagnostics". */
  negativeWithinRollout: number;
  /** 1 when the episode ended inside the rollout. */
  terminated: number;
};

export function createRollout<Obs>(shape: RolloutShape): Rollout<Obs> {
  for (const [k, v] of Object.entries(shape)) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k}=${v}, expected a positive integer`);
  }
  return {
    shape,
    observations: new Array<Obs | undefined>(shape.length).fill(undefined),
    finalObservation: undefined,
    actions: new Int32Array(shape.length),
    rewards: new Float32Array(shape.length),
    valid: new Uint8Array(shape.length),
    logits: new Float32Array(shape.length * shape.actions),
    logProbs: new Float32Array(shape.length),
    features: new Float32Array((shape.length + 1) * shape.features),
    steps: 0,
    negativeWithinRollout: 0,
    terminated: 0,
  };
}

export type RolloutOptions = {
  rng: Rng;
  /** Temperature of steps 2..K. Default 1.2 (SPEC). */
  temperature?: number;
};

/** Runs one rollout from the environment's current state, writing into (and returning) `out`. */
export function collectRollout<Obs>(
  env: RolloutEnvironment<Obs>,
  policy: RolloutPolicy<Obs>,
  out: Rollout<Obs>,
  options: RolloutOptions,
): Rollout<Obs> {
  const { length, actions: A, features: D } = out.shape;
  const temperature = options.temperature ?? ROLLOUT_TEMPERATURE;
  out.observations.fill(undefined);
  out.actions.fill(0);
  out.rewards.fill(0);
  out.valid.fill(0);
  out.logits.fill(0);
  out.logProbs.fill(0);
  out.features.fill(0);
  out.steps = 0;
  out.negativeWithinRollout = 0;
  out.terminated = 0;
  const scratch = new Float64Array(A);
  let obs = env.observe();
  env.stateFeatures(obs, out.features.subarray(0, D));
  for (let t = 0; t < length; t++) {
    const logits = out.logits.subarray(t * A, (t + 1) * A);
    policy.logits(obs, logits);
    const action = t === 0 ? argmax(logits) : sampleWithTemperature(logits, temperature, options.rng, scratch);
    const p = softmaxWithTemperature(logits, 1, scratch);
    out.logProbs[t] = Math.log(Math.max(p[action]!, 1e-12));
    out.observations[t] = obs;
    out.actions[t] = action;
    const { reward, done } = env.step(action);
    out.rewards[t] = reward;
    out.valid[t] = 1;
    out.steps = t + 1;
    if (reward < 0) out.negativeWithinRollout = 1;
    obs = env.observe();
    env.stateFeatures(obs, out.features.subarray((t + 1) * D, (t + 2) * D));
    if (done) {
      out.terminated = 1;
      break;
    }
  }
  out.finalObservation = obs;
  return out;
}

/**
 * |ds_j/dt| averaged over the valid steps of the rollout (SPEC "Correction Generator": ds_j/dt
 * from the rollout), written into `out` (D values). dt is the control period in seconds.
 */
export function stateChangeRates<Obs>(rollout: Rollout<Obs>, dt_s: number, out: Float32Array): Float32Array {
  const D = rollout.shape.features;
  if (!(dt_s > 0)) throw new RangeError(`dt_s=${dt_s}, expected > 0`);
  if (out.length !== D) throw new RangeError(`out.length=${out.length}, expected ${D}`);
  out.fill(0);
  const n = rollout.steps;
  if (n === 0) return out;
  for (let t = 0; t < n; t++) {
    for (let j = 0; j < D; j++) {
      const d = rollout.features[(t + 1) * D + j]! - rollout.features[t * D + j]!;
      out[j] = out[j]! + Math.abs(d) / dt_s;
    }
  }
  for (let j = 0; j < D; j++) out[j] = out[j]! / n;
  return out;
}

/** Undiscounted return-to-go G_t = sum_{k >= t} r_k over the rollout, zero in padded slots. */
export function returnsToGo<Obs>(rollout: Rollout<Obs>, out: Float32Array): Float32Array {
  if (out.length !== rollout.shape.length) throw new RangeError(`out.length=${out.length}, expected ${rollout.shape.length}`);
  out.fill(0);
  let g = 0;
  for (let t = rollout.steps - 1; t >= 0; t--) {
    g += rollout.rewards[t]!;
    out[t] = g;
  }
  return out;
}
