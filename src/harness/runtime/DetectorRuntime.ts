/**
 * The per-frame detector step of the pipeline (issue 12 item 4, "one runtime"): an rgb8 camera
 * frame -> per-cell class probabilities (softmax of the 4 class logits {free, wire, branch,
 * pole/trunk}) and near-threat probabilities (sigmoid of the 5th logit). The perception node
 * (nodes/common/ThreatDetector.ts), the planner rows of `eval` (eval/PlannerPilot.ts), the
 * main job and training rollouts all run this class, so the same bytes give the same
 * probabilities everywhere. Buffers are allocated once per image size; every tensor is released.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import { imageInputFromRgb8 } from "../models/imageInput";
import { THREAT_CHANNEL, type Teacher } from "../models/Teacher";

/** Side of a detector cell, px (three 2x poolings). */
export const DETECTOR_CELL_PX = 8;

export class DetectorRuntime {
  readonly rows: number;
  readonly cols: number;
  /** Row-major, class fastest: classProbs[(row * cols + col) * 4 + class]. */
  readonly classProbs: Float32Array;
  /** Row-major near-threat probability per cell. */
  readonly threat: Float32Array;
  private readonly input: Float32Array;
  private readonly grey: Float32Array;

  constructor(
    readonly detector: Teacher,
    readonly width: number,
    readonly height: number,
  ) {
    if (!(Number.isInteger(width) && width > 0 && width % DETECTOR_CELL_PX === 0 && Number.isInteger(height) && height > 0 && height % DETECTOR_CELL_PX === 0)) {
      throw new RangeError(`detector image size ${width}x${height}, expected positive multiples of ${DETECTOR_CELL_PX}`);
    }
    if (detector.outputChannels <= THREAT_CHANNEL) {
      throw new RangeError(`the detector has ${detector.outputChannels} output channels, expected ${THREAT_CHANNEL + 1} (a near-threat logit: train it with drone-harness fit)`);
    }
    this.rows = height / DETECTOR_CELL_PX;
    this.cols = width / DETECTOR_CELL_PX;
    this.classProbs = new Float32Array(this.rows * this.cols * NUM_DETECTION_CLASSES);
    this.threat = new Float32Array(this.rows * this.cols);
    this.input = new Float32Array(4 * width * height);
    this.grey = new Float32Array(width * height);
  }

  /** Runs the detector on one rgb8 frame (width*height*3 bytes, row-major) into classProbs and threat. */
  infer(rgb8: Uint8Array): void {
    imageInputFromRgb8(rgb8, this.width, this.height, this.input, this.grey);
    tf.tidy(() => {
      const out = this.detector.forward(tf.tensor4d(this.input, [1, this.height, this.width, 4]));
      this.classProbs.set(tf.softmax(tf.slice(out, [0, 0, 0, 0], [1, -1, -1, NUM_DETECTION_CLASSES])).dataSync<"float32">());
      this.threat.set(tf.sigmoid(tf.slice(out, [0, 0, 0, THREAT_CHANNEL], [1, -1, -1, 1])).dataSync<"float32">());
    });
  }
}
