/**
 * The behaviour-cloning baseline (issue 5 item 2; SPEC: "The BC student is trained only by
 * imitation of teacher and expert, frame by frame"): on full recorded frames, the detection head
 * is distilled from the teacher's soft targets (supervisedLosses.distillationLoss; the student
 * never sees the ground-truth masks) and the policy head imitates the expert's action
 * (cross-entropy). Each frame is an independent sample: nothing of the rollout or of the
 * student's own mistakes enters, which is exactly the weakness the harness targets.
 */
import * as tf from "@tensorflow/tfjs";
import type { FrameDataset } from "../data/FrameDataset";
import { buildImageInput } from "../models/imageInput";
import { actionCrossEntropy, distillationLoss } from "./supervisedLosses";
import { Rng } from "../../util/Rng";

export type TrainableStudent = {
  forward(inputs: { image: tf.Tensor4D; state: tf.Tensor2D; textureGain?: tf.Tensor1D }): { detLogits: tf.Tensor4D; actionLogits: tf.Tensor2D };
  trainableVariables(): tf.Variable[];
};

export type BcOptions = {
  steps: number;
  batch: number;
  learningRate: number;
  seed: number;
  /** First step number (resume from a checkpoint). Default 1. */
  startStep?: number;
  /** Weight of the action cross-entropy relative to the distillation loss. Default 1. */
  actionWeight?: number;
  /**
   * Share of each batch drawn from the frames flagged `threat` (the expert reacting to an
   * obstacle), when there are any; the rest is drawn uniformly from all frames. Default 0 (plain
   * uniform sampling). Without it the rare avoidance frames are a few percent of the data and a
   * cross-entropy-trained policy learns to ignore obstacles (measured: docs/training.md).
   */
  threatFraction?: number;
  onStep?: (step: number, loss: { total: number; distill: number; action: number }) => boolean | void;
};

/** Fills [batch,H,W,3] RGB in [0,1], [batch,D] states and [batch] expert actions for the given frames. */
export function frameBatch(dataset: FrameDataset, indices: readonly number[]): { rgb: Float32Array; state: Float32Array; actions: Int32Array } {
  const { width, height } = dataset.grid;
  const px = width * height * 3;
  const d = dataset.frames[0]?.state.length ?? 0;
  const rgb = new Float32Array(indices.length * px);
  const state = new Float32Array(indices.length * d);
  const actions = new Int32Array(indices.length);
  indices.forEach((fi, b) => {
    const f = dataset.frames[fi];
    if (f === undefined) throw new RangeError(`frame index=${fi}, expected [0, ${dataset.frames.length - 1}]`);
    for (let i = 0; i < px; i++) rgb[b * px + i] = f.rgb[i]! / 255;
    state.set(f.state, b * d);
    actions[b] = f.expertAction;
  });
  return { rgb, state, actions };
}

export function trainBcStudent(
  student: TrainableStudent,
  dataset: FrameDataset,
  teacherLogits: readonly Float32Array[],
  options: BcOptions,
): { finalLoss: number } {
  const n = dataset.frames.length;
  if (n === 0) throw new RangeError("BC dataset has 0 frames, expected at least 1");
  if (teacherLogits.length !== n) throw new RangeError(`teacherLogits.length=${teacherLogits.length}, expected one per frame (${n})`);
  const { width: W, height: H, cell_px } = dataset.grid;
  const rows = H / cell_px;
  const cols = W / cell_px;
  const k = (teacherLogits[0]?.length ?? 0) / (rows * cols);
  const rng = new Rng(options.seed);
  const optimizer = tf.train.adam(options.learningRate);
  const actionWeight = options.actionWeight ?? 1;
  const threatFraction = options.threatFraction ?? 0;
  if (!(threatFraction >= 0 && threatFraction <= 1)) throw new RangeError(`threatFraction=${threatFraction}, expected a number in [0, 1]`);
  const threatFrames: number[] = [];
  dataset.frames.forEach((f, i) => {
    if (f.threat === true) threatFrames.push(i);
  });
  const d = dataset.frames[0]?.state.length ?? 0;
  let finalLoss = Number.NaN;
  try {
    for (let step = options.startStep ?? 1; step <= options.steps; step++) {
      const idx: number[] = [];
      for (let b = 0; b < options.batch; b++) {
        idx.push(threatFrames.length > 0 && rng.next() < threatFraction ? threatFrames[rng.int(threatFrames.length)]! : rng.int(n));
      }
      const batch = frameBatch(dataset, idx);
      const tl = new Float32Array(options.batch * rows * cols * k);
      idx.forEach((fi, b) => tl.set(teacherLogits[fi] as Float32Array, b * rows * cols * k));
      const image = tf.tidy(() => buildImageInput(tf.tensor4d(batch.rgb, [options.batch, H, W, 3])));
      const state = tf.tensor2d(batch.state, [options.batch, d]);
      const actions = tf.tensor1d(batch.actions, "int32");
      const teacher = tf.tensor4d(tl, [options.batch, rows, cols, k]);
      let distill = 0;
      let act = 0;
      const loss = optimizer.minimize(
        () => {
          const out = student.forward({ image, state });
          const l1 = distillationLoss(out.detLogits, teacher);
          const l2 = actionCrossEntropy(out.actionLogits, actions);
          distill = l1.dataSync()[0]!;
          act = l2.dataSync()[0]!;
          return tf.add<tf.Scalar>(l1, tf.mul(l2, actionWeight));
        },
        true,
        student.trainableVariables(),
      );
      finalLoss = loss === null ? Number.NaN : loss.dataSync()[0]!;
      tf.dispose([loss ?? [], image, state, actions, teacher]);
      if (!Number.isFinite(finalLoss)) throw new Error(`BC loss became ${finalLoss} at step ${step}; lower the learning rate (${options.learningRate})`);
      if (options.onStep?.(step, { total: finalLoss, distill, action: act }) === false) break;
    }
  } finally {
    optimizer.dispose();
  }
  return { finalLoss };
}

/** The teacher's cell logits for every frame (the BC student's soft targets), in small batches. */
export function teacherCellLogits(teacher: { forward(image: tf.Tensor4D): tf.Tensor4D }, dataset: FrameDataset, batch = 4): Float32Array[] {
  const { width: W, height: H } = dataset.grid;
  const out: Float32Array[] = [];
  for (let start = 0; start < dataset.frames.length; start += batch) {
    const idx: number[] = [];
    for (let i = start; i < Math.min(dataset.frames.length, start + batch); i++) idx.push(i);
    const { rgb } = frameBatch(dataset, idx);
    const logits = tf.tidy(() => teacher.forward(buildImageInput(tf.tensor4d(rgb, [idx.length, H, W, 3]))).dataSync<"float32">());
    const per = logits.length / idx.length;
    for (let b = 0; b < idx.length; b++) out.push(logits.slice(b * per, (b + 1) * per));
  }
  return out;
}
