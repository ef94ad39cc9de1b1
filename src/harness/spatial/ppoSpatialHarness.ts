/**
 * One PPO update of the spatial harness on sampled flights (the ablation of issue 13: "PPO
 * remains an option for an ablation row"). The policy is the harness's region risk read as
 * per-region Bernoulli probabilities (riskSampling.ts); the student is frozen and never enters.
 *
 * Per recorded decision n with return G_n (riskSampling.ts: gamma^(T - t) times the terminal
 * environment reward) the advantage is A_n = (G_n - mean G) / std G over the batch of flights
 * (no learned critic, as the project's earlier PPO reading, training/advantage.ts). Each region k
 * is one factor of the policy with its own ratio, clipped as in Schulman et al. 2017 eq. 7:
 *   p_k(theta) = a_k r_k + (1 - a_k)(1 - r_k),   rho_k = p_k(theta) / p_k(theta_old)
 *   L = -mean_{n,k} min(rho_k A_n, clip(rho_k, 1 - eps, 1 + eps) A_n) + HARNESS_ALPHA mean ((S - S_gt)/sScale)^2
 * The S term is the supervised one of trainSpatialHarness.ts (S_gt is measured, not a reward), so
 * the only change from the supervised harness phase is where the risk's training signal comes
 * from: the environment's reward instead of the contact / collision targets.
 */
import * as tf from "@tensorflow/tfjs";
import { HARNESS_ALPHA } from "../diagnostics/constants";
import { Rng } from "../../util/Rng";
import { PPO_CLIP } from "../training/advantage";
import { REGION_CELLS, type SpatialHarness } from "./SpatialHarness";
import type { SpatialSample } from "./spatialRollouts";
import { stackSamples } from "./trainSpatialHarness";

export type PpoHarnessOptions = {
  rows: number;
  cols: number;
  /** Passes over the samples. Default 4. */
  epochs?: number;
  /** Decisions per minibatch. Default 16. */
  batch?: number;
  learningRate: number;
  seed: number;
  /** PPO clip epsilon. Default PPO_CLIP (0.2). */
  clip?: number;
};

export type PpoHarnessStats = {
  samples: number;
  steps: number;
  /** Mean and standard deviation of the returns the advantages were normalised with. */
  meanReturn: number;
  stdReturn: number;
  /** Of the last epoch: mean clipped surrogate, S term, share of region factors outside the clip. */
  surrogate: number;
  sTerm: number;
  clipFraction: number;
};

/** Normalised advantages of the samples' returns; undefined when every return is the same (nothing to learn). */
export function normalisedAdvantages(returns: readonly number[]): { advantages: Float32Array; mean: number; std: number } | undefined {
  const n = returns.length;
  if (n === 0) return undefined;
  const mean = returns.reduce((s, v) => s + v, 0) / n;
  const std = Math.sqrt(returns.reduce((s, v) => s + (v - mean) * (v - mean), 0) / n);
  if (!(std > 1e-8)) return undefined;
  return { advantages: Float32Array.from(returns, (v) => (v - mean) / std), mean, std };
}

/** Actions and behaviour probabilities of `samples` as [N, R, C] tensors (call inside tf.tidy). */
function policyTensors(samples: readonly SpatialSample[], regionsR: number, regionsC: number): { a: tf.Tensor3D; rOld: tf.Tensor3D } {
  const n = samples.length;
  const R = regionsR * regionsC;
  const a = new Float32Array(n * R);
  const r = new Float32Array(n * R);
  samples.forEach((s, i) => {
    const p = s.policy;
    if (p === undefined || p.action.length !== R || p.risk.length !== R) throw new RangeError(`ppoHarnessUpdate: sample ${i} (seed ${s.seed}, step ${s.step}) has no policy record of ${R} regions`);
    a.set(p.action, i * R);
    r.set(p.risk, i * R);
  });
  return { a: tf.tensor3d(a, [n, regionsR, regionsC]), rOld: tf.tensor3d(r, [n, regionsR, regionsC]) };
}

/** p(a | r) per region factor, r clipped away from 0 and 1. */
function factorProbability(a: tf.Tensor, r: tf.Tensor): tf.Tensor {
  const rc = tf.clipByValue(r, 1e-6, 1 - 1e-6);
  return tf.add(tf.mul(a, rc), tf.mul(tf.sub(1, a), tf.sub(1, rc)));
}

export function ppoHarnessUpdate(harness: SpatialHarness, samples: readonly SpatialSample[], o: PpoHarnessOptions): PpoHarnessStats | undefined {
  samples.forEach((s, i) => {
    if (!Number.isFinite(s.policy?.ret)) throw new RangeError(`ppoHarnessUpdate: sample ${i} (seed ${s.seed}, step ${s.step}) has no finite return: was it flown without a policy?`);
  });
  const adv = normalisedAdvantages(samples.map((s) => s.policy!.ret));
  if (adv === undefined) return undefined;
  const epochs = o.epochs ?? 4;
  const batch = o.batch ?? 16;
  const eps = o.clip ?? PPO_CLIP;
  for (const [k, v] of [["epochs", epochs], ["batch", batch]] as const) if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`ppoHarnessUpdate ${k}=${v}, expected an integer >= 1`);
  const regionsR = o.rows / REGION_CELLS;
  const regionsC = o.cols / REGION_CELLS;
  const optimizer = tf.train.adam(o.learningRate);
  const vars = harness.trainableVariables();
  const scale = tf.tensor1d(Array.from(harness.config.sScale));
  const rng = new Rng(o.seed);
  let steps = 0;
  let last = { surrogate: 0, sTerm: 0, clipFraction: 0, count: 0 };
  for (let e = 0; e < epochs; e++) {
    const order = rng.shuffle(Array.from(samples.keys()));
    last = { surrogate: 0, sTerm: 0, clipFraction: 0, count: 0 };
    for (let start = 0; start < order.length; start += batch) {
      const idx = order.slice(start, start + batch);
      const part = idx.map((i) => samples[i]!);
      const parts = tf.tidy(() => {
        const b = stackSamples(part, o.rows, o.cols);
        const p = policyTensors(part, regionsR, regionsC);
        const A = tf.reshape(tf.tensor1d(idx.map((i) => adv.advantages[i]!)), [-1, 1, 1]);
        const pOld = factorProbability(p.a, p.rOld);
        let surrogate: tf.Tensor = tf.scalar(0);
        let sTerm: tf.Tensor = tf.scalar(0);
        let clipped: tf.Tensor = tf.scalar(0);
        optimizer.minimize(() => {
          const out = harness.forwardTensors(b.x);
          const ratio = tf.div(factorProbability(p.a, out.risk), pOld);
          const un = tf.mul(ratio, A);
          const cl = tf.mul(tf.clipByValue(ratio, 1 - eps, 1 + eps), A);
          surrogate = tf.keep(tf.mean(tf.minimum(un, cl)));
          sTerm = tf.keep(tf.mean(tf.square(tf.div(tf.sub(out.sensitivity, b.s), scale))));
          clipped = tf.keep(tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), eps), "float32")));
          return tf.add<tf.Scalar>(tf.neg(surrogate), tf.mul(HARNESS_ALPHA, sTerm));
        }, false, vars);
        // tf.keep lets the three outlive minimize's own scope; read, then free them here.
        const kept = [surrogate, sTerm, clipped];
        const values = kept.map((t) => t.dataSync()[0]!);
        for (const t of kept) t.dispose();
        return values;
      });
      for (const v of parts) if (!Number.isFinite(v)) throw new Error(`PPO harness update became non-finite at step ${steps + 1}; lower the learning rate (${o.learningRate})`);
      last.surrogate += parts[0]! * part.length;
      last.sTerm += parts[1]! * part.length;
      last.clipFraction += parts[2]! * part.length;
      last.count += part.length;
      steps++;
    }
  }
  scale.dispose();
  optimizer.dispose();
  return { samples: samples.length, steps, meanReturn: adv.mean, stdReturn: adv.std, surrogate: last.surrogate / last.count, sTerm: last.sTerm / last.count, clipFraction: last.clipFraction / last.count };
}
