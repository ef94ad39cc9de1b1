/**
 * Training the spatial harness with the student frozen (issue 13 item 3: "train the harness on the
 * new rollouts with the student frozen"). The student never enters this function: only the
 * recorded harness inputs, S_gt and the risk targets do, and the optimizer is given the harness's
 * variables alone.
 *
 * Loss (SPEC: hinge + 0.05 ||S - S_gt||^2, weight 0.15), per batch:
 *   0.15 * [ BCE_w(r, r_true) + mean max(0, r_true - r) + 0.05 * mean ((S - S_gt) / sScale)^2 ]
 * The seed's hinge alone only punishes a risk below the target, so its minimum is r = 1
 * everywhere (every region always risky, and the correction always on); the class-weighted
 * binary cross-entropy (positives weighted by negatives / positives, at most 50) makes r a
 * calibrated probability and the hinge stays as the seed's term. S is compared in units of
 * sScale so yaw, pitch and forward weigh alike.
 */
import * as tf from "@tensorflow/tfjs";
import { averagePrecision } from "../eval/AveragePrecision";
import { HARNESS_ALPHA, HARNESS_LOSS_WEIGHT } from "../diagnostics/constants";
import { Rng } from "../../util/Rng";
import { HARNESS_CELL_CHANNELS, NUM_SENSITIVITY_DIMS, REGION_CELLS, type SpatialHarness } from "./SpatialHarness";
import type { SpatialSample } from "./spatialRollouts";

export type SpatialTrainOptions = {
  rows: number;
  cols: number;
  steps: number;
  batch: number;
  learningRate: number;
  seed: number;
  /** Progress every this many steps (with the validation measures when val samples are given). Default 100. */
  reportEvery?: number;
  progress?: (line: string) => void;
};

export type SpatialValidation = {
  samples: number;
  positiveRegions: number;
  /** AP of the region risk against the targets (NaN without a positive). */
  riskAp: number;
  /** Mean squared error of S against S_gt in sScale units. */
  sMse: number;
};

export type SpatialTrainResult = { steps: number; finalLoss: number; curve: { step: number; loss: number; val?: SpatialValidation }[] };

/** Features, risk targets and S_gt of `samples` as tensors (call inside tf.tidy). */
export function stackSamples(samples: readonly SpatialSample[], rows: number, cols: number): { x: tf.Tensor4D; r: tf.Tensor3D; s: tf.Tensor4D } {
  const n = samples.length;
  const cells = rows * cols;
  const x = new Float32Array(n * cells * HARNESS_CELL_CHANNELS);
  const s = new Float32Array(n * cells * NUM_SENSITIVITY_DIMS);
  const r = new Float32Array(n * (cells / (REGION_CELLS * REGION_CELLS)));
  samples.forEach((smp, i) => {
    x.set(smp.features, i * cells * HARNESS_CELL_CHANNELS);
    s.set(smp.sgt, i * cells * NUM_SENSITIVITY_DIMS);
    r.set(smp.riskTarget, i * smp.riskTarget.length);
  });
  return {
    x: tf.tensor4d(x, [n, rows, cols, HARNESS_CELL_CHANNELS]),
    r: tf.tensor3d(r, [n, rows / REGION_CELLS, cols / REGION_CELLS]),
    s: tf.tensor4d(s, [n, rows, cols, NUM_SENSITIVITY_DIMS]),
  };
}

/** Risk AP and S error of `harness` on `samples`. */
export function validateSpatialHarness(harness: SpatialHarness, samples: readonly SpatialSample[], rows: number, cols: number): SpatialValidation {
  const scores: number[] = [];
  const labels: number[] = [];
  let se = 0;
  let n = 0;
  const scale = tf.tensor1d(Array.from(harness.config.sScale));
  for (let i = 0; i < samples.length; i += 64) {
    const part = samples.slice(i, i + 64);
    const [risk, err] = tf.tidy(() => {
      const b = stackSamples(part, rows, cols);
      const o = harness.forwardTensors(b.x);
      const e = tf.sum(tf.square(tf.div(tf.sub(o.sensitivity, b.s), scale)));
      return [o.risk.dataSync() as Float32Array, e.dataSync()[0]!];
    });
    se += err;
    n += part.length * rows * cols * NUM_SENSITIVITY_DIMS;
    part.forEach((smp, k) => {
      for (let j = 0; j < smp.riskTarget.length; j++) {
        scores.push(risk[k * smp.riskTarget.length + j]!);
        labels.push(smp.riskTarget[j] === 1 ? 1 : 0);
      }
    });
  }
  scale.dispose();
  return { samples: samples.length, positiveRegions: labels.filter((l) => l === 1).length, riskAp: averagePrecision({ scores, labels }), sMse: n === 0 ? NaN : se / n };
}

/** The harness's predicted S for every sample (NUM_SENSITIVITY_DIMS per cell), in batches of 64. */
export function predictSensitivities(harness: SpatialHarness, samples: readonly SpatialSample[], rows: number, cols: number): Float32Array[] {
  const out: Float32Array[] = [];
  const per = rows * cols * NUM_SENSITIVITY_DIMS;
  for (let i = 0; i < samples.length; i += 64) {
    const part = samples.slice(i, i + 64);
    const s = tf.tidy(() => harness.forwardTensors(stackSamples(part, rows, cols).x).sensitivity.dataSync() as Float32Array);
    for (let k = 0; k < part.length; k++) out.push(s.slice(k * per, (k + 1) * per));
  }
  return out;
}

export function trainSpatialHarness(harness: SpatialHarness, train: readonly SpatialSample[], val: readonly SpatialSample[], o: SpatialTrainOptions): SpatialTrainResult {
  if (train.length === 0) throw new RangeError("trainSpatialHarness: no training samples");
  let pos = 0;
  let total = 0;
  for (const s of train) {
    for (const v of s.riskTarget) pos += v;
    total += s.riskTarget.length;
  }
  const posWeight = pos === 0 ? 1 : Math.min(50, (total - pos) / pos);
  const optimizer = tf.train.adam(o.learningRate);
  const vars = harness.trainableVariables();
  const rng = new Rng(o.seed);
  const scale = tf.tensor1d(Array.from(harness.config.sScale));
  const curve: SpatialTrainResult["curve"] = [];
  let avg = NaN;
  const every = o.reportEvery ?? 100;
  for (let step = 1; step <= o.steps; step++) {
    const batch: SpatialSample[] = [];
    for (let k = 0; k < o.batch; k++) batch.push(train[rng.int(train.length)] as SpatialSample);
    const loss = tf.tidy(() => {
      const b = stackSamples(batch, o.rows, o.cols);
      const cost = optimizer.minimize(() => {
        const out = harness.forwardTensors(b.x);
        const r = tf.clipByValue(out.risk, 1e-6, 1 - 1e-6);
        const bce = tf.neg(tf.mean(tf.add(tf.mul(tf.mul(b.r, posWeight), tf.log(r)), tf.mul(tf.sub(1, b.r), tf.log(tf.sub(1, r))))));
        const hinge = tf.mean(tf.relu(tf.sub(b.r, out.risk)));
        const sTerm = tf.mean(tf.square(tf.div(tf.sub(out.sensitivity, b.s), scale)));
        return tf.mul<tf.Scalar>(HARNESS_LOSS_WEIGHT, tf.add(tf.add(bce, hinge), tf.mul(HARNESS_ALPHA, sTerm)));
      }, true, vars);
      return (cost as tf.Scalar).dataSync()[0]!;
    });
    if (!Number.isFinite(loss)) throw new Error(`spatial harness loss became ${loss} at step ${step}; lower the learning rate (${o.learningRate})`);
    avg = Number.isNaN(avg) ? loss : 0.95 * avg + 0.05 * loss;
    if (step % every === 0 || step === o.steps) {
      const v = val.length > 0 ? validateSpatialHarness(harness, val, o.rows, o.cols) : undefined;
      curve.push({ step, loss: avg, ...(v === undefined ? {} : { val: v }) });
      o.progress?.(`fit-harness: step ${step}/${o.steps}, loss ${avg.toFixed(5)}${v === undefined ? "" : `, val risk AP ${v.riskAp.toFixed(3)} (${v.positiveRegions} positive regions), S mse ${v.sMse.toFixed(4)}`}`);
    }
  }
  scale.dispose();
  optimizer.dispose();
  return { steps: o.steps, finalLoss: avg, curve };
}
