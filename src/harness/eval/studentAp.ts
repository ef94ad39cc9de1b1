/**
 * Thin-obstacle AP of a student's detection head, optionally corrected by a harness: the
 * validation numbers of the training pipeline (training.json) and the AP columns of `eval`.
 */
import * as tf from "@tensorflow/tfjs";
import { correctDetectionLogits, correctionDeltaTensor } from "../correction/correctionTensors";
import type { FrameDataset } from "../data/FrameDataset";
import type { HarnessNet } from "../models/HarnessNet";
import { buildHarnessImage, buildImageInput, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { detectorAp } from "./detectorAp";
import type { ThinObstacleApReport } from "./ThinObstacleAp";

/**
 * AP of student (+ harness) on recorded frames. The harness gets each frame's recorded backward
 * |ds/dt| (the motion of the flight before the frame), as it would when flying.
 */
export function studentAp(student: Student, harness: HarnessNet | undefined, lambda: number, frames: FrameDataset): ThinObstacleApReport {
  return detectorAp(frames, (rgb, state, indices) => {
    const image = buildImageInput(rgb);
    const out = student.forward({ image, state });
    if (harness === undefined) return out.detLogits;
    const n = rgb.shape[0];
    const r = new Float32Array(n * STATE_DIM);
    indices.forEach((fi, b) => {
      const fr = frames.frames[fi]?.rates;
      if (fr !== undefined) r.set(fr, b * STATE_DIM);
    });
    const rates = tf.tensor2d(r, [n, STATE_DIM]);
    const h = harness.forward({ image: buildHarnessImage(image, []), state, rolloutRewards: tf.zeros([n, ROLLOUT_STEPS]), stateRates: rates });
    const delta = correctionDeltaTensor(h.sensitivity, rates, h.risk, lambda);
    return correctDetectionLogits(out.detLogits, delta.detection);
  });
}
