/**
 * The training target of the sensitivity matrix (SPEC "Policy Diagnostics"; seed 3.1):
 *   S_gt[i,j] = |pi(a_i | s + eps e_j) - pi(a_i | s - eps e_j)| / (2 eps),   eps = 0.01,
 * computed once per sample when it enters the replay buffer. All 2D perturbed states go through
 * the policy in one batch. For the student the image part is computed once (Student.perceive)
 * and only the heads see the perturbed states; the detection rows are the per-cell class
 * probabilities averaged over the cells.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import type { Student, StudentPerception } from "../models/Student";
import { SENSITIVITY_ROWS } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import { SGT_EPSILON } from "./constants";

/** Maps a batch of states [B,D] to probabilities [B,R] (R rows of S). */
export type BatchedPolicy = (states: tf.Tensor2D) => tf.Tensor2D;

/**
 * S_gt [R*D] row-major for `policy` at `state` (length D) into `out`. Central differences have
 * truncation error O(eps^2 * |d^3 pi / d s^3|).
 */
export function finiteDifferenceSensitivity(policy: BatchedPolicy, state: Float32Array, rows: number, out: Float32Array, eps: number = SGT_EPSILON): Float32Array {
  const d = state.length;
  if (out.length !== rows * d) {
    throw new RangeError(`out length=${out.length}, expected rows*D=${rows * d}`);
  }
  if (!(eps > 0)) throw new RangeError(`eps=${eps}, expected > 0`);
  const probs = tf.tidy(() => {
    // Rows 2j and 2j+1 are s + eps e_j and s - eps e_j.
    const batch = new Float32Array(2 * d * d);
    for (let j = 0; j < d; j++) {
      batch.set(state, 2 * j * d);
      batch.set(state, (2 * j + 1) * d);
      batch[2 * j * d + j] = state[j]! + eps;
      batch[(2 * j + 1) * d + j] = state[j]! - eps;
    }
    const p = policy(tf.tensor2d(batch, [2 * d, d]));
    if (p.shape[0] !== 2 * d || p.shape[1] !== rows) {
      throw new RangeError(`policy output [${p.shape.join(",")}], expected [${2 * d},${rows}]`);
    }
    return p.dataSync<"float32">().slice();
  });
  for (let j = 0; j < d; j++) {
    for (let i = 0; i < rows; i++) {
      const plus = probs[2 * j * rows + i]!;
      const minus = probs[(2 * j + 1) * rows + i]!;
      out[i * d + j] = Math.abs(plus - minus) / (2 * eps);
    }
  }
  return out;
}

/**
 * The student as a BatchedPolicy over its state input, for one perceived frame (batch 1):
 * columns 0..6 = pi(a|s) over the actions, 7..10 = the cell-averaged class probabilities.
 * Call inside tf.tidy.
 */
export function studentSensitivityPolicy(student: Student, perception: StudentPerception): BatchedPolicy {
  return (states: tf.Tensor2D) => {
    const out = student.heads(perception, states);
    const pa = tf.softmax(out.actionLogits);
    const pd = tf.mean<tf.Tensor2D>(tf.softmax(out.detLogits), [1, 2]);
    return tf.concat([pa, pd], 1);
  };
}

/**
 * S_gt for one sample of the student: image [1,H,W,4], state (length STATE_DIM), optional texture
 * gain. Returns a new Float32Array [SENSITIVITY_ROWS * STATE_DIM] (stored in the replay buffer).
 */
export function studentSgt(student: Student, image: tf.Tensor4D, state: Float32Array, textureGain = 1, eps: number = SGT_EPSILON): Float32Array {
  if (image.shape[0] !== 1) throw new RangeError(`studentSgt image batch=${image.shape[0]}, expected 1`);
  if (state.length !== STATE_DIM) throw new RangeError(`state length=${state.length}, expected ${STATE_DIM}`);
  const out = new Float32Array(SENSITIVITY_ROWS * STATE_DIM);
  tf.tidy(() => {
    const perception = student.perceive(image, tf.tensor1d([textureGain]));
    finiteDifferenceSensitivity(studentSensitivityPolicy(student, perception), state, NUM_ACTIONS + NUM_DETECTION_CLASSES, out, eps);
  });
  return out;
}
