/**
 * The student's PPO objective in the co-evolution phase (SPEC "Co-evolution training"; Schulman
 * et al. 2017, "Proximal Policy Optimization Algorithms", eq. 7, clip epsilon 0.2), plus the
 * entropy regulariser -beta * H(pi_corrected) with beta = 0.01 (seed section 5.1):
 *
 *   ratio_t = pi_theta(a_t|s_t) / pi_theta_old(a_t|s_t)
 *   L = -mean_t[ min(ratio_t A_t, clip(ratio_t, 1-eps, 1+eps) A_t) ] - beta * mean_t H(softmax(z_t + delta_t))
 *
 * z = student action logits (gradient flows into the student), delta = the frozen harness's
 * correction (a constant here). Means run over valid (non-padded) steps only.
 */
import * as tf from "@tensorflow/tfjs";
import { PPO_CLIP } from "./advantage";

export const ENTROPY_BETA = 0.01;

export type PpoBatch = {
  /** [N, A] student logits, computed inside the loss closure so gradients reach the student. */
  logits: tf.Tensor2D;
  /** [N, A] frozen correction delta. */
  delta: tf.Tensor2D;
  /** [N] int32 taken actions. */
  actions: tf.Tensor1D;
  /** [N] log pi_theta_old(a_t|s_t). */
  oldLogProbs: tf.Tensor1D;
  /** [N] advantages (correctedAdvantages). */
  advantages: tf.Tensor1D;
  /** [N] 1 for valid steps, 0 for padding. */
  valid: tf.Tensor1D;
};

export type PpoLossParts = { loss: tf.Scalar; surrogate: tf.Scalar; entropy: tf.Scalar };

export function ppoLoss(batch: PpoBatch, clip = PPO_CLIP, beta = ENTROPY_BETA): PpoLossParts {
  return tf.tidy(() => {
    const A = batch.logits.shape[1];
    const logp = tf.logSoftmax(batch.logits);
    const onehot = tf.oneHot(batch.actions, A).toFloat();
    const newLogProb = tf.sum(tf.mul(logp, onehot), 1);
    const ratio = tf.exp(tf.sub(newLogProb, batch.oldLogProbs));
    const unclipped = tf.mul(ratio, batch.advantages);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), batch.advantages);
    const count = tf.maximum(tf.sum(batch.valid), 1);
    const surrogate = tf.div(tf.sum(tf.mul(tf.minimum(unclipped, clipped), batch.valid)), count);
    const corrected = tf.logSoftmax(tf.add(batch.logits, batch.delta));
    const entropyPerStep = tf.neg(tf.sum(tf.mul(tf.exp(corrected), corrected), 1));
    const entropy = tf.div(tf.sum(tf.mul(entropyPerStep, batch.valid)), count);
    const loss = tf.sub(tf.neg(surrogate), tf.mul(beta, entropy));
    return { loss: loss as tf.Scalar, surrogate: surrogate as tf.Scalar, entropy: entropy as tf.Scalar };
  });
}
