/**
 * Runs a detector (the Teacher architecture at either size) over recorded frames and builds the
 * detector report of detectorReport.ts: class softmax and near-threat sigmoid per cell.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import type { FrameDataset } from "../data/FrameDataset";
import { buildImageInput } from "../models/imageInput";
import type { Teacher } from "../models/Teacher";
import { DetectorReportBuilder, type DetectorReport, type DetectorReportOptions } from "./detectorReport";

/** Per-cell class softmax and threat sigmoid of `detector` on every frame of `dataset`, into a report. */
export function evaluateDetector(detector: Teacher, dataset: FrameDataset, frames?: readonly number[], batch = 4, options: DetectorReportOptions = {}): DetectorReport {
  const builder = new DetectorReportBuilder(dataset, options);
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
      builder.add(fi, cls.subarray(b * cells * NUM_DETECTION_CLASSES, (b + 1) * cells * NUM_DETECTION_CLASSES), thr?.subarray(b * cells, (b + 1) * cells));
    });
  }
  return builder.report();
}

