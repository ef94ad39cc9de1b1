/**
 * The harness loss (SPEC "Co-evolution training"; seed 3.3):
 *   L = max(0, r_true - r_pred) + alpha * ||S - S_gt||^2,   alpha = 0.05,
 * averaged over the batch (||.||^2 is the squared Frobenius norm of one sample's A x D matrix).
 *
 * Caveat (documented in docs/harness.md): the hinge term alone is minimised by r_pred = 1 for
 * every sample (it never penalises over-prediction), so a harness trained only on it learns to
 * say "risky" always. Seed section 3.1 instead names a binary cross-entropy for r; `riskLoss:
 * "bce"` selects that. The default follows SPEC.
 */
import * as tf from "@tensorflow/tfjs";
import { HARNESS_ALPHA } from "./constants";

export type HarnessLossOptions = {
  /** Default HARNESS_ALPHA = 0.05. */
  alpha?: number;
  /** "hinge" (SPEC, seed 3.3; default) or "bce" (seed 3.1). */
  riskLoss?: "hinge" | "bce";
};

export type HarnessLossTerms = { total: tf.Scalar; risk: tf.Scalar; sensitivity: tf.Scalar };

/** riskPred, riskTrue: [N] (riskTrue in {0,1}); S, Sgt: [N,R,D]. Call inside tf.tidy / optimizer.minimize. */
export function harnessLoss(riskPred: tf.Tensor1D, riskTrue: tf.Tensor1D, S: tf.Tensor3D, Sgt: tf.Tensor3D, options: HarnessLossOptions = {}): HarnessLossTerms {
  const alpha = options.alpha ?? HARNESS_ALPHA;
  const n = riskPred.shape[0];
  if (riskTrue.shape[0] !== n || S.shape[0] !== n || Sgt.shape[0] !== n) {
    throw new RangeError(`harnessLoss batch sizes riskPred=${n}, riskTrue=${riskTrue.shape[0]}, S=${S.shape[0]}, Sgt=${Sgt.shape[0]}: expected equal`);
  }
  if (S.shape[1] !== Sgt.shape[1] || S.shape[2] !== Sgt.shape[2]) {
    throw new RangeError(`S [${S.shape.join(",")}] and Sgt [${Sgt.shape.join(",")}] differ`);
  }
  let risk: tf.Scalar;
  const kind = options.riskLoss ?? "hinge";
  switch (kind) {
    case "hinge":
      risk = tf.mean<tf.Scalar>(tf.relu(tf.sub(riskTrue, riskPred)));
      break;
    case "bce": {
      const p = tf.clipByValue(riskPred, 1e-7, 1 - 1e-7);
      risk = tf.neg(tf.mean<tf.Scalar>(tf.add(tf.mul(riskTrue, tf.log(p)), tf.mul(tf.sub(1, riskTrue), tf.log(tf.sub(1, p))))));
      break;
    }
  }
  const sensitivity = tf.mean<tf.Scalar>(tf.sum(tf.square(tf.sub(S, Sgt)), [1, 2]));
  return { total: tf.add<tf.Scalar>(risk, tf.mul<tf.Scalar>(sensitivity, alpha)), risk, sensitivity };
}

/** Plain-number form of the same loss for one sample (for tests and logging). */
export function harnessLossValue(riskPred: number, riskTrue: number, S: Float32Array, Sgt: Float32Array, alpha: number = HARNESS_ALPHA): number {
  if (S.length !== Sgt.length) throw new RangeError(`S length=${S.length}, Sgt length=${Sgt.length}: expected equal`);
  let ss = 0;
  for (let i = 0; i < S.length; i++) {
    const d = S[i]! - Sgt[i]!;
    ss += d * d;
  }
  return Math.max(0, riskTrue - riskPred) + alpha * ss;
}
