/**
 * The detector on an ordinary photograph (issue 5 item 7, `drone-harness detect`): the image is
 * resized to the model input (area averaging when shrinking, bilinear when growing), the student
 * runs (with its harness if given), the per-cell class probabilities become (a) a per-pixel wire
 * probability map at the photograph's original size (bilinear between cell centres, 8-bit) and
 * (b) Detection2D records in original-image pixels (src/control/cellsToDetections.ts: connected
 * cells above the threshold, per class).
 *
 * A photograph has no sensors and no motion: the state vector is all zeros (the centre of every
 * normalised range) and |ds/dt| = 0. Because delta_i = -lambda r sum_j S[i,j] |ds_j/dt| (SPEC
 * "Correction Generator"), the harness then contributes exactly zero: --harness on and off give
 * the same map on single images. That is the formula, not a bug; the harness acts in flight.
 */
import { DETECTION_CLASSES, NUM_DETECTION_CLASSES } from "../actions";
import { CellsToDetections } from "../../control/cellsToDetections";
import type { Detection2D } from "../../control/visionTypes";
import type { RgbImage } from "../data/imageCodec";
import { resizeRgb } from "../data/resizeImage";
import type { HarnessNet } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { decideFrame, newFrameDecision } from "../training/HarnessedPolicy";
import { probabilityMap } from "./probabilityMap";

export type DetectOptions = {
  /** Model input side, px (multiple of 64). Default 256 (the camera size the models were trained on). */
  inputSize?: number;
  /** Cell probability threshold for the detections. Default 0.5. */
  threshold?: number;
  lambda?: number;
};

export type DetectResult = {
  /** Per-pixel wire probability, 0-255, original size. */
  wireMap: Uint8Array;
  width: number;
  height: number;
  /** Softmax probabilities per cell, cell-major, 4 per cell. */
  cellProbs: Float32Array;
  rows: number;
  cols: number;
  detections: Detection2D[];
  maxAbsDelta: number;
};

export function detectImage(student: Student, harness: HarnessNet | undefined, image: RgbImage, options: DetectOptions = {}): DetectResult {
  const size = options.inputSize ?? 256;
  if (!Number.isInteger(size) || size % 64 !== 0 || size < 64) throw new RangeError(`inputSize=${size}, expected a multiple of 64`);
  const input = resizeRgb(image, size, size);
  const rows = size / 8;
  const cols = size / 8;
  const decision = decideFrame(
    student,
    harness,
    options.lambda ?? 0.3,
    { rgb: input.rgb, width: size, height: size, state: new Float32Array(STATE_DIM), rates: new Float32Array(STATE_DIM) },
    newFrameDecision(rows * cols),
  );
  const k = NUM_DETECTION_CLASSES;
  const probs = new Float32Array(rows * cols * k);
  for (let cell = 0; cell < rows * cols; cell++) {
    let m = -Infinity;
    for (let c = 0; c < k; c++) m = Math.max(m, decision.cellLogits[cell * k + c] as number);
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const e = Math.exp((decision.cellLogits[cell * k + c] as number) - m);
      probs[cell * k + c] = e;
      sum += e;
    }
    for (let c = 0; c < k; c++) probs[cell * k + c] = (probs[cell * k + c] as number) / sum;
  }
  const wireMap = probabilityMap({ probs, rows, cols, numClasses: k, classIndex: 1, modelWidth: size, modelHeight: size, width: image.width, height: image.height });
  const labeller = new CellsToDetections({ rows, cols, numClasses: k, classNames: DETECTION_CLASSES, scoreThreshold: options.threshold ?? 0.5 });
  const detections = labeller.run(probs, image.width, image.height, { stamp: { sec: 0, nanosec: 0 }, frame_id: "image" });
  return { wireMap, width: image.width, height: image.height, cellProbs: probs, rows, cols, detections, maxAbsDelta: decision.maxAbsDelta };
}
