/**
 * The per-frame detector step of the pipeline (issue 12 item 4, "one runtime"): an rgb8 camera
 * frame -> per-cell class probabilities (softmax of the 4 class logits {free, wire, branch,
 * pole/trunk}) and near-threat probabilities (sigmoid of the 5th logit). The perception node
 * (nodes/common/models/ThreatDetector.ts), the planner rows of `eval` (eval/PlannerPilot.ts), the
 * main job and training rollouts all run this class, so the same bytes give the same
 * probabilities everywhere. Buffers are allocated once per image size; every tensor is released.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import { imageInputFromRgb8 } from "../models/imageInput";
import { THREAT_CHANNEL, type Teacher } from "../models/Teacher";

/**
 * NUM_DETECTION_CLASSES bound once: actions.ts re-exports it (`export *`), and in the CommonJS
 * output every read of a re-exported name calls a getter, which the per-cell loops below showed
 * in CPU profiles.
 */
const CLASSES = NUM_DETECTION_CLASSES;

/** Side of a detector cell, px (three 2x poolings). */
export const DETECTOR_CELL_PX = 8;

export class DetectorRuntime {
  readonly rows: number;
  readonly cols: number;
  private readonly probs: Float32Array;
  private readonly threatProbs: Float32Array;
  /** True when `logits` changed since the probabilities were last computed from them. */
  private probsStale = false;
  /** The raw outputs, cell-major: logits[(row * cols + col) * 5 + k], k < 4 the class logits, k = 4 the near-threat logit. */
  readonly logits: Float32Array;
  /**
   * Gain on the Sobel channel of the input (the seed's texture rule, 4.2: the harness strengthens
   * the high-frequency channel of the next frame; SpatialHarnessRuntime computes it). Default 1.
   */
  sobelGain = 1;
  /** The Sobel gain the last infer() used. */
  lastSobelGain = 1;
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
    this.probs = new Float32Array(this.rows * this.cols * NUM_DETECTION_CLASSES);
    this.threatProbs = new Float32Array(this.rows * this.cols);
    this.logits = new Float32Array(this.rows * this.cols * (THREAT_CHANNEL + 1));
    this.input = new Float32Array(4 * width * height);
    this.grey = new Float32Array(width * height);
  }

  /**
   * When true, infer() leaves classProbs and threat to be computed from `logits` on their first
   * read (a pipeline whose harness corrects the logits never reads the uncorrected ones: 0.1 ms a
   * frame at 256x256, eval/PlannerPilot.ts). Default false: the arrays are filled by infer(), so a
   * holder of the arrays themselves (nodes/common/models/ThreatDetector.ts) sees every frame.
   */
  deferProbabilities = false;

  /** Row-major, class fastest: classProbs[(row * cols + col) * 4 + class]. */
  get classProbs(): Float32Array {
    if (this.probsStale) this.computeProbabilities();
    return this.probs;
  }

  /** Row-major near-threat probability per cell. */
  get threat(): Float32Array {
    if (this.probsStale) this.computeProbabilities();
    return this.threatProbs;
  }

  /**
   * Runs the detector on one rgb8 frame (width*height*3 values 0-255, row-major; a Float32Array
   * is accepted for warped views, unrounded) into logits, classProbs and threat (see
   * deferProbabilities). `greyLevels` (width*height), when given, receives the
   * frame's grey levels 0-255 as greyFromRgb8 computes them, from the same pass over the bytes
   * (the spatial harness's image side: SpatialHarnessRuntime.prepareFromGrey).
   */
  infer(rgb8: Uint8Array | Float32Array, greyLevels?: Float32Array): void {
    this.lastSobelGain = this.sobelGain;
    imageInputFromRgb8(rgb8, this.width, this.height, this.input, this.grey, this.sobelGain, greyLevels);
    tf.tidy(() => {
      // Teacher.infer: convs fused with bias and ReLU (inference only; equal to forward up to float32 rounding).
      const out = this.detector.infer(tf.tensor4d(this.input, [1, this.height, this.width, 4]));
      const k = THREAT_CHANNEL + 1;
      this.logits.set((out.shape[3] === k ? out : tf.slice(out, [0, 0, 0, 0], [1, -1, -1, k])).dataSync<"float32">());
    });
    this.probsStale = true;
    if (!this.deferProbabilities) this.computeProbabilities();
  }

  private computeProbabilities(): void {
    probabilitiesFromLogits(this.logits, this.probs, this.threatProbs);
    this.probsStale = false;
  }
}

/**
 * Softmax of the 4 class logits and sigmoid of the near-threat logit per cell (cell-major logits
 * with 5 values per cell, as DetectorRuntime.logits) into classProbs (4 per cell) and threat.
 */
export function probabilitiesFromLogits(logits: Float32Array, classProbs: Float32Array, threat: Float32Array): void {
  const k = THREAT_CHANNEL + 1;
  const cells = threat.length;
  if (logits.length !== cells * k || classProbs.length !== cells * CLASSES) {
    throw new RangeError(`logits ${logits.length}, classProbs ${classProbs.length}, threat ${threat.length}: expected ${k} and ${CLASSES} per cell`);
  }
  for (let c = 0; c < cells; c++) cellSoftmax(logits, c, classProbs);
  threatFromLogits(logits, threat);
}

/** The near-threat half of probabilitiesFromLogits alone (the same bits). */
export function threatFromLogits(logits: Float32Array, threat: Float32Array): void {
  const k = THREAT_CHANNEL + 1;
  if (logits.length !== threat.length * k) throw new RangeError(`logits ${logits.length}, threat ${threat.length}: expected ${k} logits per cell`);
  for (let c = 0; c < threat.length; c++) threat[c] = 1 / (1 + Math.exp(-logits[c * k + THREAT_CHANNEL]!));
}

/** The class softmax of cell `c` (probabilitiesFromLogits' arithmetic) into classProbs[4c .. 4c + 3]. */
export function cellSoftmax(logits: Float32Array, c: number, classProbs: Float32Array): void {
  const o = c * (THREAT_CHANNEL + 1);
  let m = -Infinity;
  for (let j = 0; j < CLASSES; j++) m = Math.max(m, logits[o + j]!);
  let sum = 0;
  for (let j = 0; j < CLASSES; j++) {
    const e = Math.exp(logits[o + j]! - m);
    classProbs[c * CLASSES + j] = e;
    sum += e;
  }
  for (let j = 0; j < CLASSES; j++) classProbs[c * CLASSES + j] = classProbs[c * CLASSES + j]! / sum;
}
