/**
 * Thin-obstacle AP of a detector over recorded frames (SPEC "How results are measured"): runs the
 * detector on full frames in small batches, converts the cell logits to softmax probabilities and
 * accumulates them with the ground-truth cell labels of each frame.
 */
import * as tf from "@tensorflow/tfjs";
import type { FrameDataset } from "../data/FrameDataset";
import { cellLabelsFromMask } from "./CellLabels";
import { ThinObstacleAp, type ThinObstacleApReport } from "./ThinObstacleAp";

/**
 * Detector under test: RGB [N,H,W,3] in [0,1] plus the frames' states -> cell logits
 * [N,rows,cols,4]. Called inside tf.tidy.
 */
export type CellPredictor = (rgb01: tf.Tensor4D, state: tf.Tensor2D, frameIndices: readonly number[]) => tf.Tensor4D;

export function detectorAp(dataset: FrameDataset, predict: CellPredictor, batch = 4): ThinObstacleApReport {
  const ap = new ThinObstacleAp();
  const { width: W, height: H } = dataset.grid;
  const px = W * H * 3;
  const d = dataset.frames[0]?.state.length ?? 0;
  for (let start = 0; start < dataset.frames.length; start += batch) {
    const idx: number[] = [];
    for (let i = start; i < Math.min(dataset.frames.length, start + batch); i++) idx.push(i);
    const rgb = new Float32Array(idx.length * px);
    const state = new Float32Array(idx.length * d);
    idx.forEach((fi, b) => {
      const f = dataset.frames[fi];
      if (f === undefined) return;
      for (let i = 0; i < px; i++) rgb[b * px + i] = f.rgb[i]! / 255;
      state.set(f.state, b * d);
    });
    const probs = tf.tidy(() => {
      const logits = predict(tf.tensor4d(rgb, [idx.length, H, W, 3]), tf.tensor2d(state, [idx.length, d]), idx);
      return tf.softmax(logits).dataSync<"float32">();
    });
    const perFrame = probs.length / idx.length;
    idx.forEach((fi, b) => {
      const f = dataset.frames[fi];
      if (f === undefined) return;
      ap.add(probs.subarray(b * perFrame, (b + 1) * perFrame), cellLabelsFromMask(f.mask, dataset.grid));
    });
  }
  return ap.report();
}
