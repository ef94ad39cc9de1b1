/**
 * Batched tensor form of the Correction Generator (same formula and clip as correctionDelta.ts),
 * for training (the PPO advantage uses pi_corrected, SPEC "Co-evolution training") and for
 * applying the detection delta per cell. Call inside tf.tidy.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { SENSITIVITY_ROWS } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import { DELTA_NORM_MAX } from "./constants";

export type CorrectionDeltaTensors = {
  /** [N,7] */
  action: tf.Tensor2D;
  /** [N,4] */
  detection: tf.Tensor2D;
};

function clipRows(v: tf.Tensor2D, maxNorm: number): tf.Tensor2D {
  const norm = tf.sqrt(tf.sum(tf.square(v), 1, true));
  // scale = min(1, maxNorm / norm); norm = 0 gives scale 1.
  const scale = tf.minimum(1, tf.div(maxNorm, tf.maximum(norm, 1e-12)));
  return tf.mul(v, scale);
}

/** delta = clip(-lambda * r * (S |ds/dt|)) per sample; S [N,R,D], rates [N,D], risk [N]. */
export function correctionDeltaTensor(
  S: tf.Tensor3D,
  rates: tf.Tensor2D,
  risk: tf.Tensor1D,
  lambda: number,
  maxNorm: number = DELTA_NORM_MAX,
): CorrectionDeltaTensors {
  const [n, r, d] = S.shape;
  if (r !== SENSITIVITY_ROWS || d !== STATE_DIM) {
    throw new RangeError(`S [${S.shape.join(",")}], expected [N,${SENSITIVITY_ROWS},${STATE_DIM}]`);
  }
  if (rates.shape[0] !== n || rates.shape[1] !== d || risk.shape[0] !== n) {
    throw new RangeError(`rates [${rates.shape.join(",")}] / risk [${risk.shape.join(",")}], expected [${n},${d}] / [${n}]`);
  }
  const acc = tf.reshape(tf.matMul(S, tf.reshape(tf.abs(rates), [n, d, 1])), [n, r]);
  const delta = tf.mul<tf.Tensor2D>(acc, tf.reshape(tf.mul(risk, -lambda), [n, 1]));
  const action = tf.slice(delta, [0, 0], [n, NUM_ACTIONS]);
  const detection = tf.slice(delta, [0, NUM_ACTIONS], [n, NUM_DETECTION_CLASSES]);
  return { action: clipRows(action, maxNorm), detection: clipRows(detection, maxNorm) };
}

/**
 * Per-cell gate in [0,1]: the student's own uncertainty, g = (1 - max_c p_c) / (1 - 1/C), so the
 * detection delta acts where the student is unsure and leaves confident cells alone. Ours: the
 * seed applies delta to "the logits" without saying how a per-class delta maps onto a grid.
 */
export function detectionGate(detLogits: tf.Tensor4D): tf.Tensor4D {
  const c = detLogits.shape[3];
  const pmax = tf.max(tf.softmax(detLogits), 3, true);
  return tf.div<tf.Tensor4D>(tf.sub(1, pmax), 1 - 1 / c);
}

/** detLogits [N,h,w,C] + gate * delta [N,C] broadcast over cells: corrected logits. */
export function correctDetectionLogits(detLogits: tf.Tensor4D, detectionDelta: tf.Tensor2D): tf.Tensor4D {
  const [n, , , c] = detLogits.shape;
  if (detectionDelta.shape[0] !== n || detectionDelta.shape[1] !== c) {
    throw new RangeError(`detection delta [${detectionDelta.shape.join(",")}], expected [${n},${c}]`);
  }
  return tf.add(detLogits, tf.mul(detectionGate(detLogits), tf.reshape(detectionDelta, [n, 1, 1, c])));
}
