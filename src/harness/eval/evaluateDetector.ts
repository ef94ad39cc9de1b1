/**
 * Runs a detector (the Teacher architecture at either size) over recorded frames and builds the
 * detector report of detectorReport.ts: class softmax and near-threat sigmoid per cell.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import type { FrameDataset } from "../data/FrameDataset";
import { buildImageInput } from "../models/imageInput";
import type { Teacher } from "../models/Teacher";
import { WIRE_CLASS } from "./detectNative";
import { DetectorReportBuilder, type DetectorReport, type DetectorReportOptions } from "./detectorReport";

/** A per-frame rewrite of the wire probability of the cells (rows x cols, row-major), e.g. lineSupport.ts. */
export type WireMapTransform = (wire: Float32Array, rows: number, cols: number) => Float32Array;

export type EvaluateDetectorOptions = DetectorReportOptions & {
  /** Applied to each frame's wire-class probabilities before they are scored; the other classes are left as they are. */
  wireTransform?: WireMapTransform;
};

/** The wire channel of one frame's cell-major class probabilities rewritten by `transform` (a copy). */
function transformWire(probs: Float32Array, rows: number, cols: number, transform: WireMapTransform): Float32Array {
  const cells = rows * cols;
  const wire = new Float32Array(cells);
  for (let c = 0; c < cells; c++) wire[c] = probs[c * NUM_DETECTION_CLASSES + WIRE_CLASS]!;
  const t = transform(wire, rows, cols);
  if (t.length !== cells) throw new RangeError(`wire transform returned ${t.length} values, expected ${cells}`);
  const out = Float32Array.from(probs);
  for (let c = 0; c < cells; c++) out[c * NUM_DETECTION_CLASSES + WIRE_CLASS] = t[c]!;
  return out;
}

/** Per-cell class softmax and threat sigmoid of `detector` on every frame of `dataset`, into a report. */
export function evaluateDetector(detector: Teacher, dataset: FrameDataset, frames?: readonly number[], batch = 4, options: EvaluateDetectorOptions = {}): DetectorReport {
  const builder = new DetectorReportBuilder(dataset, options);
  const rows = dataset.grid.height / dataset.grid.cell_px;
  const cols = dataset.grid.width / dataset.grid.cell_px;
  const { width: W, height: H } = dataset.grid;
  const idx = frames ?? dataset.frames.map((_, i) => i);
  const px = W * H * 3;
  const rgb = new Float32Array(batch * px);
  for (let start = 0; start < idx.length; start += batch) {
    const chunk = idx.slice(start, start + batch);
    chunk.forEach((fi, b) => {
      const f = dataset.frames[fi];
      if (f === undefined) return;
      for (let i = 0; i < px; i++) rgb[b * px + i] = f.rgb[i]! / 255;
    });
    const [cls, thr] = tf.tidy(() => {
      const out = detector.forward(buildImageInput(tf.tensor4d(rgb.subarray(0, chunk.length * px), [chunk.length, H, W, 3])));
      const k = out.shape[3];
      const c = tf.softmax(tf.slice(out, [0, 0, 0, 0], [-1, -1, -1, NUM_DETECTION_CLASSES])).dataSync<"float32">();
      const t = k > NUM_DETECTION_CLASSES ? tf.sigmoid(tf.slice(out, [0, 0, 0, NUM_DETECTION_CLASSES], [-1, -1, -1, 1])).dataSync<"float32">() : undefined;
      return [c, t] as const;
    });
    const cells = cls.length / chunk.length / NUM_DETECTION_CLASSES;
    chunk.forEach((fi, b) => {
      const probs = cls.subarray(b * cells * NUM_DETECTION_CLASSES, (b + 1) * cells * NUM_DETECTION_CLASSES);
      builder.add(fi, options.wireTransform === undefined ? probs : transformWire(probs, rows, cols, options.wireTransform), thr?.subarray(b * cells, (b + 1) * cells));
    });
  }
  return builder.report();
}

