/**
 * Supervised training of the teacher detector on the simulator's privileged ground truth
 * (issue 5 item 2): per-cell targets from the class masks (cellTargets), class-weighted softmax
 * cross-entropy, Adam, on cell-aligned crops biased toward thin structures (SPEC "Known facts":
 * train fully convolutional detectors on crops, run them on 256x256).
 */
import * as tf from "@tensorflow/tfjs";
import { cellTargets, classWeights, cropRgb01, cropTargets, randomCrop, type FrameDataset } from "../data/FrameDataset";
import { buildImageInput } from "../models/imageInput";
import { weightedCellCrossEntropy } from "./supervisedLosses";
import { Rng } from "../../util/Rng";

/** What the trainer needs from a detector: image [N,H,W,4] -> cell logits, and its variables. */
export type TrainableDetector = {
  forward(image: tf.Tensor4D): tf.Tensor4D;
  trainableVariables(): tf.Variable[];
};

export type SupervisedOptions = {
  steps: number;
  batch: number;
  /** Crop side in px, multiple of 32. */
  crop: number;
  learningRate: number;
  seed: number;
  /** First step number (resume from a checkpoint: the steps before it are skipped). Default 1. */
  startStep?: number;
  /** Called after every step with the loss; return false to stop early. */
  onStep?: (step: number, loss: number) => boolean | void;
};

export function trainTeacher(teacher: TrainableDetector, dataset: FrameDataset, options: SupervisedOptions): { finalLoss: number } {
  if (dataset.frames.length === 0) throw new RangeError("teacher dataset has 0 frames, expected at least 1");
  const rng = new Rng(options.seed);
  const weights = tf.tensor1d(classWeights(dataset));
  const targetsByFrame = dataset.frames.map((f) => cellTargets(f.mask, dataset.grid));
  const S = options.crop;
  const cellsPerCrop = (S / dataset.grid.cell_px) ** 2;
  const rgbBuf = new Float32Array(options.batch * S * S * 3);
  const tBuf = new Int32Array(options.batch * cellsPerCrop);
  const optimizer = tf.train.adam(options.learningRate);
  let finalLoss = Number.NaN;
  try {
    for (let step = options.startStep ?? 1; step <= options.steps; step++) {
      for (let b = 0; b < options.batch; b++) {
        const crop = randomCrop(dataset, rng.int(dataset.frames.length), S, rng);
        cropRgb01(dataset, crop, rgbBuf, b * S * S * 3);
        cropTargets(dataset, crop, targetsByFrame[crop.frame] as Int32Array, tBuf, b * cellsPerCrop);
      }
      const image = tf.tidy(() => buildImageInput(tf.tensor4d(rgbBuf, [options.batch, S, S, 3])));
      const targets = tf.tensor1d(tBuf, "int32");
      const loss = optimizer.minimize(() => weightedCellCrossEntropy(teacher.forward(image), targets, weights), true, teacher.trainableVariables());
      finalLoss = loss === null ? Number.NaN : loss.dataSync()[0]!;
      loss?.dispose();
      image.dispose();
      targets.dispose();
      if (!Number.isFinite(finalLoss)) throw new Error(`teacher loss became ${finalLoss} at step ${step}; lower the learning rate (${options.learningRate})`);
      if (options.onStep?.(step, finalLoss) === false) break;
    }
  } finally {
    weights.dispose();
    optimizer.dispose();
  }
  return { finalLoss };
}
