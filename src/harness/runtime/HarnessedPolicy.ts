/**
 * Student + harness inference for one frame, shared by the co-evolution rollouts and the
 * closed-loop evaluation so both compute pi_theta and pi_corrected the same way:
 *   student: image (RGB + Sobel) and state s -> action logits z, cell logits
 *   harness: 64x64 image (+ K imagined frames, zero when absent), s, rollout rewards, |ds/dt|
 *            -> S, r;  delta = clip(-lambda r S |ds/dt|)  (correction/)
 *   pi_theta = softmax(z), pi_corrected = softmax(z + delta_action),
 *   corrected cells = cell logits + gate * delta_detection (correction/correctionTensors.ts).
 *
 * Inputs the harness gets, identical in training and deployment (so what it learns is what it
 * sees when flying):
 *  - |ds/dt| is the backward rate over the last ROLLOUT_STEPS control steps (StateHistory): when
 *    flying, the future sensor states are unknown (the imagined rollout carries images only).
 *  - The rollout reward inputs are zero: a rollout's rewards are the risk head's training target
 *    r_true, so feeding them in would let the head read the answer; when flying there are none.
 *  - The imagined frames are zero padding (static shapes, SPEC "Deployment").
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { correctDetectionLogits, correctionDeltaTensor } from "../correction/correctionTensors";
import type { HarnessNet } from "../models/HarnessNet";
import { buildHarnessImage, buildImageInput, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";

export type FrameDecision = {
  /** Student action logits z (pi_theta = softmax(z)). */
  actionLogits: Float32Array;
  /** delta on the action logits (zeros without a harness). */
  actionDelta: Float32Array;
  /** delta per detection class before the per-cell gate. */
  detectionDelta: Float32Array;
  /** Cell logits, corrected when a harness is used, [rows*cols*4]. */
  cellLogits: Float32Array;
  risk: number;
  maxAbsDelta: number;
};

export function newFrameDecision(cells: number): FrameDecision {
  return {
    actionLogits: new Float32Array(NUM_ACTIONS),
    actionDelta: new Float32Array(NUM_ACTIONS),
    detectionDelta: new Float32Array(NUM_DETECTION_CLASSES),
    cellLogits: new Float32Array(cells * NUM_DETECTION_CLASSES),
    risk: 0,
    maxAbsDelta: 0,
  };
}

/** rgb8 [H*W*3] -> [1,H,W,3] float in [0,1]. Call inside tf.tidy. */
export function rgbTensor(rgb: Uint8Array, width: number, height: number): tf.Tensor4D {
  return tf.div<tf.Tensor4D>(tf.tensor4d(rgb, [1, height, width, 3], "int32"), 255);
}

/**
 * Runs the student (and the harness when given) on one frame, writing into `out`. `lambda` is
 * the current correction strength. All tensors are released before returning.
 */
export function decideFrame(
  student: Student,
  harness: HarnessNet | undefined,
  lambda: number,
  frame: { rgb: Uint8Array; width: number; height: number; state: Float32Array; rates: Float32Array },
  out: FrameDecision,
): FrameDecision {
  tf.tidy(() => {
    const image = buildImageInput(rgbTensor(frame.rgb, frame.width, frame.height));
    const state = tf.tensor2d(frame.state, [1, STATE_DIM]);
    const s = student.forward({ image, state });
    let cells = s.detLogits;
    if (harness === undefined) {
      out.actionDelta.fill(0);
      out.detectionDelta.fill(0);
      out.risk = 0;
      out.maxAbsDelta = 0;
    } else {
      const h = harness.forward({
        image: buildHarnessImage(image, []),
        state,
        rolloutRewards: tf.zeros([1, ROLLOUT_STEPS]),
        stateRates: tf.tensor2d(frame.rates, [1, STATE_DIM]),
      });
      const delta = correctionDeltaTensor(h.sensitivity, tf.tensor2d(frame.rates, [1, STATE_DIM]), h.risk, lambda);
      cells = correctDetectionLogits(s.detLogits, delta.detection);
      out.actionDelta.set(delta.action.dataSync());
      out.detectionDelta.set(delta.detection.dataSync());
      out.risk = h.risk.dataSync()[0]!;
      let m = 0;
      for (const v of out.actionDelta) m = Math.max(m, Math.abs(v));
      for (const v of out.detectionDelta) m = Math.max(m, Math.abs(v));
      out.maxAbsDelta = m;
    }
    out.actionLogits.set(s.actionLogits.dataSync());
    out.cellLogits.set(cells.dataSync());
  });
  return out;
}
