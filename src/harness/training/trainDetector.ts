/**
 * Supervised training of a thin-obstacle detector with a near-threat output (issue 12 item 2):
 *  - class logits (channels 0..3): class-weighted softmax cross-entropy against per-cell targets
 *    from the visible-only masks (FrameSample.visibleMask; the old all-pixel mask where absent);
 *  - near-threat logit (channel 4): binary cross-entropy against FrameSample.near, positives
 *    weighted by sqrt(negatives / positives) (clamped to [1, 20]; near cells are a few percent);
 * on cell-aligned crops, most of them centred on a visible thin-structure pixel or a near cell
 * (SPEC "Known facts": train fully convolutional detectors on crops, run them on 256x256).
 * Adam with a cosine learning-rate decay to 10 % over the step budget; a wall-clock budget stops
 * early. Pure tfjs: no file access (checkpoints and validation go through callbacks).
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import { cellTargets, classWeightsOfTargets, cropMask, cropRgb01, cropTargets, type Crop, type FrameDataset } from "../data/FrameDataset";
import { gridCells } from "../eval/CellLabels";
import { buildImageInput } from "../models/imageInput";
import { Rng } from "../../util/Rng";
import { applyCameraEffects, drawCameraEffects, type CameraEffectRanges } from "../../vision/cameraEffects";
import { applyGroundClutter, drawGroundClutter, type GroundClutterRanges } from "../../vision/groundClutter";
import { applyFoliageClutter, drawFoliageClutter, type FoliageClutterRanges } from "../../vision/foliageClutter";
import { distillationLoss, weightedCellCrossEntropy } from "./supervisedLosses";
import type { TrainableDetector } from "./trainTeacher";
import { cosineRate } from "./learningRate";

export type DetectorTrainOptions = {
  steps: number;
  batch: number;
  /** Crop side, px (multiple of 32). */
  crop: number;
  learningRate: number;
  seed: number;
  /** Weight of the near-threat BCE against the class CE. Default 1. */
  threatWeight?: number;
  /** Share of crops centred on a visible thin-structure pixel or near cell. Default 0.7. */
  focus?: number;
  /** Stop after this many seconds of wall clock (a stage budget). Default Infinity. */
  budget_s?: number;
  /** First step (resume). Default 1. */
  startStep?: number;
  /**
   * Behaviour cloning of a teacher (issue 12 item 5: the BC student imitates the teacher): the
   * teacher runs on the same crops (no gradient) and its cell logits replace the labels:
   * KL(softmax(t/T) || softmax(s/T)) T^2 on the class logits (Hinton et al. 2015) and BCE against
   * sigmoid(t) on the near-threat logit. Default: train on the simulator's labels.
   */
  teacher?: { model: TrainableDetector; temperature: number };
  /**
   * Camera effects drawn per crop (src/vision/cameraEffects.ts: vignetting, blur, exposure,
   * colour cast, noise, gamma, sharpening, JPEG), issue 14 item 2. Default: none.
   */
  augment?: CameraEffectRanges;
  /**
   * Man-made ground clutter (src/vision/groundClutter.ts: paving and facade tiles, kerbs) painted
   * behind the objects of each crop before the camera effects, drawn from its own random stream
   * (seed + 1), so the crops, their order and the camera effects are those of the same run
   * without it. Default: none.
   */
  clutter?: GroundClutterRanges;
  /**
   * Leaf-scale foliage (src/vision/foliageClutter.ts) painted behind the objects of each crop, after
   * the ground clutter and before the camera effects, from its own random stream (seed + 2). Default: none.
   */
  foliage?: FoliageClutterRanges;
  /** After every step; return false to stop. */
  onStep?: (step: number, loss: { total: number; cls: number; threat: number }) => boolean | void;
};

/** A crop centred (with probability `focus`) on a random visible wire/branch pixel's cell or near cell. */
function focusedCrop(dataset: FrameDataset, frame: number, targets: Int32Array, size: number, rng: Rng, focus: number): Crop {
  const { width, height, cell_px } = dataset.grid;
  const { cols } = gridCells(dataset.grid);
  const f = dataset.frames[frame];
  if (f === undefined) throw new RangeError(`frame=${frame}, expected [0, ${dataset.frames.length - 1}]`);
  let cx = rng.next() * width;
  let cy = rng.next() * height;
  if (rng.next() < focus) {
    const near = f.near;
    const start = rng.int(targets.length);
    for (let i = 0; i < targets.length; i++) {
      const c = (start + i) % targets.length;
      const t = targets[c]!;
      if (t === 1 || t === 2 || (near !== undefined && near[c] === 1)) {
        cx = ((c % cols) + 0.5) * cell_px;
        cy = (Math.floor(c / cols) + 0.5) * cell_px;
        break;
      }
    }
  }
  const align = (v: number, max: number): number => Math.min(max, Math.max(0, Math.round((v - size / 2 + (rng.next() - 0.5) * size * 0.5) / cell_px) * cell_px));
  return { frame, x0: align(cx, width - size), y0: align(cy, height - size), size };
}

/** Per-frame class targets (visible labels) and near-threat cells, and the positive weight of the near-threat BCE. */
function detectorLabels(dataset: FrameDataset): { targets: Int32Array[]; nears: Uint8Array[]; posWeight: number } {
  const targets = dataset.frames.map((f) => cellTargets(f.visibleMask ?? f.mask, dataset.grid));
  const { rows, cols } = gridCells(dataset.grid);
  const zeroNear = new Uint8Array(rows * cols);
  const nears = dataset.frames.map((f) => f.near ?? zeroNear);
  let pos = 0;
  let tot = 0;
  for (const n of nears) for (const v of n) {
    pos += v;
    tot++;
  }
  const posWeight = pos === 0 ? 1 : Math.min(20, Math.max(1, Math.sqrt((tot - pos) / pos)));
  return { targets, nears, posWeight };
}

/** One batch of crops (inputs and per-cell targets), allocated once and refilled every step. */
type CropBatch = { size: number; cellsPerCrop: number; rgb: Float32Array; cls: Int32Array; near: Float32Array; nearInt: Int32Array; tmp: Int32Array };

function cropBatch(dataset: FrameDataset, batch: number, size: number): CropBatch {
  const { rows, cols } = gridCells(dataset.grid);
  const cellsPerCrop = (size / dataset.grid.cell_px) ** 2;
  return {
    size,
    cellsPerCrop,
    rgb: new Float32Array(batch * size * size * 3),
    cls: new Int32Array(batch * cellsPerCrop),
    near: new Float32Array(batch * cellsPerCrop),
    nearInt: new Int32Array(rows * cols),
    tmp: new Int32Array(cellsPerCrop),
  };
}

/** The crop augmentations of a run: camera effects (drawn from the crop stream) and ground clutter (its own stream). */
type CropAugment = {
  camera?: CameraEffectRanges;
  clutter?: { ranges: GroundClutterRanges; rng: Rng };
  foliage?: { ranges: FoliageClutterRanges; rng: Rng };
  /** The crop's class mask (filled when a clutter layer is drawn). */
  mask: Uint8Array;
};

/** Paints the drawn ground clutter and foliage of one crop behind its objects. */
function paintClutter(dataset: FrameDataset, crop: Crop, img: Float32Array, S: number, augment: CropAugment): void {
  const tiles = augment.clutter === undefined ? undefined : drawGroundClutter(augment.clutter.rng, S, augment.clutter.ranges);
  const leaves = augment.foliage === undefined ? undefined : drawFoliageClutter(augment.foliage.rng, S, augment.foliage.ranges);
  if (tiles === undefined && leaves === undefined) return;
  cropMask(dataset, crop, augment.mask);
  if (tiles !== undefined) applyGroundClutter(img, S, S, tiles, augment.mask);
  if (leaves !== undefined) applyFoliageClutter(img, S, S, leaves, augment.mask);
}

/** Fills `out` with `batch` focused crops of random frames. */
function fillCropBatch(dataset: FrameDataset, labels: { targets: Int32Array[]; nears: Uint8Array[] }, batch: number, rng: Rng, focus: number, out: CropBatch, augment: CropAugment): void {
  const { size: S, cellsPerCrop } = out;
  for (let b = 0; b < batch; b++) {
    const fi = rng.int(dataset.frames.length);
    const crop = focusedCrop(dataset, fi, labels.targets[fi] as Int32Array, S, rng, focus);
    cropRgb01(dataset, crop, out.rgb, b * S * S * 3);
    const img = out.rgb.subarray(b * S * S * 3, (b + 1) * S * S * 3);
    paintClutter(dataset, crop, img, S, augment);
    if (augment.camera !== undefined) applyCameraEffects(img, S, S, drawCameraEffects(rng, augment.camera), rng);
    cropTargets(dataset, crop, labels.targets[fi] as Int32Array, out.cls, b * cellsPerCrop);
    const near = labels.nears[fi] as Uint8Array;
    for (let i = 0; i < near.length; i++) out.nearInt[i] = near[i]!;
    cropTargets(dataset, crop, out.nearInt, out.tmp, 0);
    for (let i = 0; i < cellsPerCrop; i++) out.near[b * cellsPerCrop + i] = out.tmp[i]!;
  }
}

/** The step's targets: labels (class ids, near cells, class weights) or, with a teacher, its cell logits. */
type StepTargets = { cls: tf.Tensor1D; near: tf.Tensor1D; weights: tf.Tensor1D; posWeight: number; teacher?: { logits: tf.Tensor2D; temperature: number } };

/**
 * Class loss (weighted CE on the labels, or distillation from the teacher) + threatWeight x the
 * near-threat BCE; the two parts' values go to `parts`.
 */
function detectorLoss(out: tf.Tensor4D, t: StepTargets, threatWeight: number, parts: { cls: number; threat: number }): tf.Scalar {
  const k = out.shape[3];
  const flat = tf.reshape<tf.Rank.R2>(out, [-1, k]);
  const studentCls = tf.slice(flat, [0, 0], [-1, NUM_DETECTION_CLASSES]);
  const ce =
    t.teacher === undefined
      ? weightedCellCrossEntropy(studentCls, t.cls, t.weights)
      : distillationLoss(studentCls, tf.slice(t.teacher.logits, [0, 0], [-1, NUM_DETECTION_CLASSES]), t.teacher.temperature);
  parts.cls = ce.dataSync()[0]!;
  if (k <= NUM_DETECTION_CLASSES) return ce;
  const z = tf.reshape(tf.slice(flat, [0, NUM_DETECTION_CLASSES], [-1, 1]), [-1]);
  if (t.teacher !== undefined) {
    // Soft BCE against the teacher's threat probability (no positive weighting: the
    // teacher's calibrated probability is the target).
    const y = tf.sigmoid(tf.reshape(tf.slice(t.teacher.logits, [0, NUM_DETECTION_CLASSES], [-1, 1]), [-1]));
    const tl = tf.mean<tf.Scalar>(tf.add(tf.sub(tf.relu(z), tf.mul(z, y)), tf.log1p(tf.exp(tf.neg(tf.abs(z))))));
    parts.threat = tl.dataSync()[0]!;
    return tf.add<tf.Scalar>(ce, tf.mul(tl, threatWeight));
  }
  // Stable BCE with logits: max(z,0) - z*y + log(1 + exp(-|z|)), positives weighted.
  const bce = tf.add(tf.sub(tf.relu(z), tf.mul(z, t.near)), tf.log1p(tf.exp(tf.neg(tf.abs(z)))));
  const w = tf.add(1, tf.mul(t.near, t.posWeight - 1));
  const tl = tf.div<tf.Scalar>(tf.sum(tf.mul(bce, w)), tf.sum(w));
  parts.threat = tl.dataSync()[0]!;
  return tf.add<tf.Scalar>(ce, tf.mul(tl, threatWeight));
}

export function trainDetector(detector: TrainableDetector, dataset: FrameDataset, options: DetectorTrainOptions): { steps: number; finalLoss: number } {
  if (dataset.frames.length === 0) throw new RangeError("detector dataset has 0 frames, expected at least 1");
  const S = options.crop;
  const { width, height } = dataset.grid;
  if (S % 32 !== 0 || S > width || S > height) throw new RangeError(`crop=${S}, expected a multiple of 32 no larger than ${width}x${height}`);
  const rng = new Rng(options.seed);
  const focus = options.focus ?? 0.7;
  const threatWeight = options.threatWeight ?? 1;
  const labels = detectorLabels(dataset);
  const weights = tf.tensor1d(classWeightsOfTargets(labels.targets));
  const buf = cropBatch(dataset, options.batch, S);
  const augment: CropAugment = {
    ...(options.augment === undefined ? {} : { camera: options.augment }),
    ...(options.clutter === undefined ? {} : { clutter: { ranges: options.clutter, rng: new Rng(options.seed + 1) } }),
    ...(options.foliage === undefined ? {} : { foliage: { ranges: options.foliage, rng: new Rng(options.seed + 2) } }),
    mask: new Uint8Array(S * S),
  };
  const soft = options.teacher;
  const optimizer = tf.train.adam(options.learningRate);
  const t0 = performance.now();
  let finalLoss = NaN;
  let step = options.startStep ?? 1;
  try {
    for (; step <= options.steps; step++) {
      fillCropBatch(dataset, labels, options.batch, rng, focus, buf, augment);
      // Cosine decay to 10 % of the rate over the step budget.
      (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(options.learningRate, step, options.steps);
      const image = tf.tidy(() => buildImageInput(tf.tensor4d(buf.rgb, [options.batch, S, S, 3])));
      const cls = tf.tensor1d(buf.cls, "int32");
      const near = tf.tensor1d(buf.near);
      const teacherOut =
        soft === undefined
          ? undefined
          : tf.tidy(() => {
              const t = soft.model.forward(image);
              return tf.reshape<tf.Rank.R2>(t, [-1, t.shape[3]]);
            });
      const targets: StepTargets = { cls, near, weights, posWeight: labels.posWeight, ...(teacherOut === undefined || soft === undefined ? {} : { teacher: { logits: teacherOut, temperature: soft.temperature } }) };
      const parts = { cls: NaN, threat: NaN };
      const loss = optimizer.minimize(() => detectorLoss(detector.forward(image), targets, threatWeight, parts), true, detector.trainableVariables());
      finalLoss = loss === null ? NaN : loss.dataSync()[0]!;
      tf.dispose([loss ?? [], image, cls, near, teacherOut ?? []]);
      if (!Number.isFinite(finalLoss)) throw new Error(`detector loss became ${finalLoss} at step ${step}; lower the learning rate (${options.learningRate})`);
      if (options.onStep?.(step, { total: finalLoss, cls: parts.cls, threat: parts.threat }) === false) break;
      if ((performance.now() - t0) / 1000 > (options.budget_s ?? Infinity)) break;
    }
  } finally {
    weights.dispose();
    optimizer.dispose();
  }
  return { steps: Math.min(step, options.steps), finalLoss };
}
