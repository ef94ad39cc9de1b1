/**
 * Losses of the supervised phases (teacher on ground truth, BC student by imitation).
 *  - weightedCellCrossEntropy: softmax cross-entropy per cell with class weights, normalised by
 *    the sum of the weights of the cells (the weighted mean).
 *  - distillationLoss: KL(softmax(t / T) || softmax(s / T)) * T^2 per cell, mean over cells
 *    (Hinton, Vinyals & Dean 2015, "Distilling the Knowledge in a Neural Network", section 2: the
 *    T^2 factor keeps gradient magnitudes comparable across temperatures). T = 2 by default.
 *  - actionCrossEntropy: softmax cross-entropy of action logits against the expert's actions.
 * All are computed with logSoftmax (max-subtracted, stable).
 */
import * as tf from "@tensorflow/tfjs";

export const DISTILLATION_TEMPERATURE = 2;

/** logits [..., K] (any rank), targets int32 with the leading shape flattened, weights [K]. */
export function weightedCellCrossEntropy(logits: tf.Tensor, targets: tf.Tensor1D, classWeights: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => {
    const k = logits.shape[logits.shape.length - 1] ?? 1;
    const flat = tf.reshape<tf.Rank.R2>(logits, [-1, k]);
    if (flat.shape[0] !== targets.shape[0]) {
      throw new RangeError(`cells=${flat.shape[0]}, targets.length=${targets.shape[0]}; expected equal`);
    }
    const logp = tf.logSoftmax(flat);
    const onehot = tf.oneHot(targets, k).toFloat();
    const nll = tf.neg(tf.sum(tf.mul(logp, onehot), 1));
    const w = tf.gather(classWeights, targets);
    return tf.div<tf.Scalar>(tf.sum(tf.mul(nll, w)), tf.sum(w));
  });
}

export function distillationLoss(studentLogits: tf.Tensor, teacherLogits: tf.Tensor, temperature = DISTILLATION_TEMPERATURE): tf.Scalar {
  return tf.tidy(() => {
    const k = studentLogits.shape[studentLogits.shape.length - 1] ?? 1;
    const s = tf.logSoftmax(tf.div(tf.reshape(studentLogits, [-1, k]), temperature));
    const t = tf.logSoftmax(tf.div(tf.reshape(teacherLogits, [-1, k]), temperature));
    const kl = tf.sum(tf.mul(tf.exp(t), tf.sub(t, s)), 1);
    return tf.mul<tf.Scalar>(tf.mean(kl), temperature * temperature);
  });
}

export function actionCrossEntropy(actionLogits: tf.Tensor2D, actions: tf.Tensor1D): tf.Scalar {
  return tf.tidy(() => {
    const k = actionLogits.shape[1];
    const logp = tf.logSoftmax(actionLogits);
    return tf.neg(tf.mean<tf.Scalar>(tf.sum(tf.mul(logp, tf.oneHot(actions, k).toFloat()), 1)));
  });
}
