/**
 * Training a harness on a fixed set of few samples (SPEC "Transfer"; seed 5.4), with the loss of
 * the co-evolution harness phase (coEvolve.ts runHarness): 0.15 * [risk term + alpha ||S - S_gt||^2]
 * (diagnostics/harnessLoss.ts), rollout-reward inputs zero and the imagined frames zero padding,
 * as when flying (HarnessedPolicy.ts). The student is not involved: S_gt was computed once per
 * sample when it was collected (transferSamples.ts).
 *
 * scope "transfer": only the 16-unit adapter and the Policy Diagnostics move; the moved State
 * Encoder is frozen (HarnessNet.trainableVariables). scope "all": the from-scratch baseline.
 */
import * as tf from "@tensorflow/tfjs";
import { HARNESS_LOSS_WEIGHT } from "../diagnostics/constants";
import { harnessLoss } from "../diagnostics/harnessLoss";
import { SENSITIVITY_ROWS, type HarnessNet, type HarnessScope } from "../models/HarnessNet";
import { buildHarnessImage, buildImageInput, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import { rgbTensor } from "../runtime/HarnessedPolicy";
import { Rng } from "../../util/Rng";
import type { TransferSample } from "./transferSamples";

export type FewSampleTrainingOptions = {
  scope: Extract<HarnessScope, "all" | "transfer">;
  /** Passes over the samples. */
  epochs: number;
  minibatch: number;
  learningRate: number;
  riskLoss: "hinge" | "bce";
  rngSeed: number;
};

export type FewSampleTrainingStats = { updates: number; firstLoss: number; lastLoss: number };

/** Harness inputs of `samples` (images built once; the encoder input does not change). */
export function harnessBatch(samples: readonly TransferSample[]): { images: tf.Tensor4D; state: tf.Tensor2D; rates: tf.Tensor2D; rTrue: tf.Tensor1D; sGt: tf.Tensor3D } {
  const n = samples.length;
  if (n === 0) throw new RangeError("samples.length=0, expected at least 1");
  return tf.tidy(() => {
    const images = tf.concat(samples.map((s) => buildHarnessImage(buildImageInput(rgbTensor(s.rgb, s.width, s.height)), [])), 0);
    const flat = (pick: (s: TransferSample) => Float32Array, width: number): Float32Array => {
      const out = new Float32Array(n * width);
      samples.forEach((s, i) => out.set(pick(s), i * width));
      return out;
    };
    return {
      images,
      state: tf.tensor2d(flat((s) => s.state, STATE_DIM), [n, STATE_DIM]),
      rates: tf.tensor2d(flat((s) => s.rates, STATE_DIM), [n, STATE_DIM]),
      rTrue: tf.tensor1d(samples.map((s) => s.rTrue)),
      sGt: tf.tensor3d(flat((s) => s.sGt, SENSITIVITY_ROWS * STATE_DIM), [n, SENSITIVITY_ROWS, STATE_DIM]),
    };
  });
}

/** Trains `harness` in place on `samples`; returns the loss of the first and last minibatch. */
export function trainOnSamples(harness: HarnessNet, samples: readonly TransferSample[], options: FewSampleTrainingOptions): FewSampleTrainingStats {
  for (const [k, v] of [["epochs", options.epochs], ["minibatch", options.minibatch]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k}=${v}, expected an integer >= 1`);
  }
  if (!(options.learningRate > 0)) throw new RangeError(`learningRate=${options.learningRate}, expected > 0`);
  const vars = harness.trainableVariables(options.scope);
  const optimizer = tf.train.adam(options.learningRate);
  const rng = new Rng(options.rngSeed);
  const data = harnessBatch(samples);
  const n = samples.length;
  const order = Array.from({ length: n }, (_, i) => i);
  const stats: FewSampleTrainingStats = { updates: 0, firstLoss: Number.NaN, lastLoss: Number.NaN };
  try {
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      rng.shuffle(order);
      for (let start = 0; start < n; start += options.minibatch) {
        const idx = tf.tensor1d(order.slice(start, start + options.minibatch), "int32");
        const b = idx.shape[0];
        const mb = tf.tidy(() => ({
          image: tf.gather(data.images, idx),
          state: tf.gather(data.state, idx),
          rates: tf.gather(data.rates, idx),
          rTrue: tf.gather(data.rTrue, idx),
          sGt: tf.gather(data.sGt, idx),
          rewards: tf.zeros<tf.Rank.R2>([b, ROLLOUT_STEPS]),
        }));
        const loss = optimizer.minimize(
          () => {
            const out = harness.forward({ image: mb.image, state: mb.state, rolloutRewards: mb.rewards, stateRates: mb.rates });
            return tf.mul<tf.Scalar>(harnessLoss(out.risk, mb.rTrue, out.sensitivity, mb.sGt, { riskLoss: options.riskLoss }).total, HARNESS_LOSS_WEIGHT);
          },
          true,
          vars,
        );
        const value = loss === null ? Number.NaN : loss.dataSync()[0]!;
        if (stats.updates === 0) stats.firstLoss = value;
        stats.lastLoss = value;
        stats.updates++;
        tf.dispose([loss ?? [], idx, mb.image, mb.state, mb.rates, mb.rTrue, mb.sGt, mb.rewards]);
      }
    }
  } finally {
    optimizer.dispose();
    tf.dispose([data.images, data.state, data.rates, data.rTrue, data.sGt]);
  }
  return stats;
}
