/**
 * Few-shot adaptation of a simulator-trained detector to real photographs (issue 14 item 3,
 * seed 5.4): a few photos with wire masks fine-tune chosen parameter groups of a Teacher-class
 * detector (models/pipeline/*), everything else frozen.
 *
 * Targets: a cell (8 px, from the crop's top-left corner) is "wire" (class 1) where the mask has a
 * wire pixel in it, else background (class 0); branch and pole classes get no real labels and keep
 * only what the background target pushes away. Loss: class-weighted softmax cross-entropy
 * (supervisedLosses.ts), the wire weight sqrt(background / wire cells) of the batch clamped to
 * [1, 20], as trainDetector weighs the near-threat positives. Cell-aligned random crops of the
 * photos, `focus` of them centred on a wire pixel. Adam. Pure tfjs: photos in, no files.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import type { RgbImage } from "../data/imageCodec";
import { imageInputFromRgb8 } from "../models/imageInput";
import type { Teacher } from "../models/Teacher";
import { Rng } from "../../util/Rng";
import { applyCameraEffects, drawCameraEffects, type CameraEffectRanges } from "../../vision/cameraEffects";
import { cosineRate } from "../training/learningRate";
import { weightedCellCrossEntropy } from "../training/supervisedLosses";

export type LabelledPhoto = {
  image: RgbImage;
  /** 1 at wire pixels */
  wire: Uint8Array;
  /** The photo's set (e.g. PLDU, PLDM), for balanceGroups. */
  group?: string;
};

/**
 * Parameter groups: "adapter" = the detection head (the 16-unit 1x1 hidden layer + the output
 * layer, head/*); "context" = also the dilated context convs (context*) and the last backbone
 * conv; "all" = every weight.
 */
export type FineTuneScope = "adapter" | "context" | "all";

export type FineTuneOptions = {
  steps: number;
  /** Crops per step. Default 8. */
  batch?: number;
  /** Crop side in px, a multiple of 8. Default 96. */
  crop?: number;
  /** Adam learning rate. Default 3e-3. */
  learningRate?: number;
  scope?: FineTuneScope;
  /** Share of crops centred on a wire pixel. Default 0.6. */
  focus?: number;
  /**
   * Draw each crop's photo from a uniformly drawn group (LabelledPhoto.group), so a set with
   * fewer photos (25 mountain against 60 urban) weighs as much as the larger one. Default false:
   * photos uniformly.
   */
  balanceGroups?: boolean;
  /**
   * Mirror each crop left-right with probability 0.5 (pixels and cell targets together): a wire
   * seen in a mirror is still a wire. Default false.
   */
  flip?: boolean;
  /**
   * Learning-rate schedule over the steps: "constant", or "cosine" decay to 10 % of the rate at
   * the last step (as trainDetector does). Default "constant".
   */
  schedule?: "constant" | "cosine";
  /**
   * Stochastic weight averaging (Izmailov et al. 2018, "Averaging Weights Leads to Wider Optima
   * and Better Generalization", UAI): the trained weights end as the mean of their values after
   * every step from step ceil(averageFrom x steps) on, so 0.5 averages the second half of the
   * run. The network has no batch statistics, so the mean needs no recalibration. Default
   * undefined: the last step's weights. Measured with 0.5 on the dev photos (docs/real.md): under the
   * cosine schedule urban AP 0.005 lower; at a constant rate mountain AP 0.020 higher, urban unchanged.
   */
  averageFrom?: number;
  /**
   * Camera effects drawn per crop (src/vision/cameraEffects.ts: vignetting, blur, exposure and
   * colour cast, noise, gamma, sharpening, JPEG), as the simulator stage's `fit --augment camera`
   * draws them, applied to the crop's pixels before its Sobel channel is built. They come from
   * their own random stream, so the crops, their order and their mirroring are those of the run
   * without them (a paired comparison). Default undefined: none. Measured with the defaults
   * (docs/real.md, five seeds, k-fold): the soup photo model 0.855 / 0.867 urban / mountain AP in
   * one pass against 0.866 / 0.832 without (the recipe of models/photo/adapted); the row-D model
   * 0.840 / 0.864 against 0.844 / 0.850.
   */
  camera?: CameraEffectRanges;
  seed?: number;
  onStep?: (step: number, loss: number) => void;
};

/** Names of the detector's weights a scope trains, in the detector's order. */
export function fineTuneParameterNames(detector: Teacher, scope: FineTuneScope): string[] {
  const names = detector.params.names();
  const lastConv = `backbone/conv${detector.config.channels.length - 1}/`;
  switch (scope) {
    case "adapter":
      return names.filter((n) => n.startsWith("head/"));
    case "context":
      return names.filter((n) => n.startsWith("head/") || n.startsWith("context") || n.startsWith(lastConv));
    case "all":
      return names;
  }
}

/**
 * One crop's 4-channel input (written into `input` at `offset`) and its cell targets (into
 * `targets`); `mirror` flips both left-right (size is a multiple of 8, so cells map onto cells).
 */
export function cropSample(p: LabelledPhoto, x0: number, y0: number, size: number, input: Float32Array, offset: number, targets: Int32Array, tOffset: number, rgb: Uint8Array, mirror: boolean, effects?: (rgb: Uint8Array, size: number) => void): void {
  const { width: W, height: H } = p.image;
  for (let y = 0; y < size; y++) {
    const sy = Math.min(H - 1, y0 + y);
    for (let x = 0; x < size; x++) {
      const s = 3 * (sy * W + Math.min(W - 1, x0 + x));
      const o = 3 * (y * size + (mirror ? size - 1 - x : x));
      rgb[o] = p.image.rgb[s]!;
      rgb[o + 1] = p.image.rgb[s + 1]!;
      rgb[o + 2] = p.image.rgb[s + 2]!;
    }
  }
  effects?.(rgb, size);
  imageInputFromRgb8(rgb, size, size, input.subarray(offset, offset + size * size * 4));
  const cells = size / 8;
  for (let r = 0; r < cells; r++) {
    for (let c = 0; c < cells; c++) {
      let wire = 0;
      for (let y = y0 + 8 * r; y < Math.min(H, y0 + 8 * r + 8) && wire === 0; y++) for (let x = x0 + 8 * c; x < Math.min(W, x0 + 8 * c + 8); x++) if (p.wire[y * W + x]! > 0) wire = 1;
      targets[tOffset + r * cells + (mirror ? cells - 1 - c : c)] = wire;
    }
  }
}

/** Indices of the photos of each group (photos without a group form one group), in first-seen order. */
export function photoGroups(photos: readonly LabelledPhoto[]): number[][] {
  const byGroup = new Map<string, number[]>();
  photos.forEach((p, i) => {
    const g = p.group ?? "";
    if (!byGroup.has(g)) byGroup.set(g, []);
    byGroup.get(g)!.push(i);
  });
  return [...byGroup.values()];
}

/** Draws the index of each crop's photo: uniformly, or a uniform group then a photo in it. */
export function photoSampler(photos: readonly LabelledPhoto[], balanceGroups: boolean, rng: Rng): () => number {
  if (!balanceGroups) return () => rng.int(photos.length);
  const groups = photoGroups(photos);
  return () => {
    const g = groups[rng.int(groups.length)]!;
    return g[rng.int(g.length)]!;
  };
}

/** The running mean of some variables' values (stochastic weight averaging), in float64. */
export class WeightMean {
  private readonly sums: Float64Array[];
  private count = 0;

  constructor(private readonly vars: readonly tf.Variable[]) {
    this.sums = vars.map((v) => new Float64Array(v.size));
  }

  /** Adds the variables' current values. */
  add(): void {
    this.vars.forEach((v, k) => {
      const sum = this.sums[k]!;
      const values = v.dataSync();
      for (let i = 0; i < sum.length; i++) sum[i]! += values[i]!;
    });
    this.count++;
  }

  /** Sets every variable to its mean over the values added (nothing when none was). */
  assignTo(): void {
    if (this.count === 0) return;
    this.vars.forEach((v, k) => tf.tidy(() => v.assign(tf.tensor(Float32Array.from(this.sums[k]!, (x) => x / this.count), v.shape))));
  }
}

/** Offset of the camera effects' random stream from the run's seed (any constant apart from the crops' stream). */
const CAMERA_STREAM = 7_919;

/**
 * Applies camera effects drawn from `ranges` to an 8-bit RGB crop in place (through floats in
 * [0, 1], rounded back), each call a new draw from the stream seeded with `seed`.
 */
export function cameraEffectsOnCrops(ranges: CameraEffectRanges, seed: number): (rgb: Uint8Array, size: number) => void {
  const rng = new Rng(seed);
  let img = new Float32Array(0);
  return (rgb, size) => {
    if (img.length !== rgb.length) img = new Float32Array(rgb.length);
    for (let i = 0; i < rgb.length; i++) img[i] = rgb[i]! / 255;
    applyCameraEffects(img, size, size, drawCameraEffects(rng, ranges), rng);
    for (let i = 0; i < rgb.length; i++) rgb[i] = Math.round(255 * Math.min(1, Math.max(0, img[i]!)));
  };
}

/** Fine-tunes `detector` in place; returns the final loss and the names of the weights that changed. */
export function fineTuneOnPhotos(detector: Teacher, photos: readonly LabelledPhoto[], options: FineTuneOptions): { finalLoss: number; trained: string[] } {
  if (photos.length === 0) throw new RangeError("photos.length=0, expected at least one labelled photo");
  const batch = options.batch ?? 8;
  const size = options.crop ?? 96;
  if (!Number.isInteger(size) || size % 8 !== 0 || size < 16) throw new RangeError(`crop=${size}, expected a multiple of 8 >= 16`);
  const focus = options.focus ?? 0.6;
  const rng = new Rng(options.seed ?? 1);
  const trained = fineTuneParameterNames(detector, options.scope ?? "adapter");
  const vars = trained.map((n) => detector.params.get(n));
  const learningRate = options.learningRate ?? 3e-3;
  const averageFrom = options.averageFrom;
  if (averageFrom !== undefined && !(averageFrom >= 0 && averageFrom < 1)) throw new RangeError(`averageFrom=${averageFrom}, expected a fraction of the steps in [0, 1)`);
  const firstAveraged = averageFrom === undefined ? Infinity : Math.max(1, Math.ceil(averageFrom * options.steps));
  const mean = averageFrom === undefined ? undefined : new WeightMean(vars);
  const optimizer = tf.train.adam(learningRate);
  const wirePixels = photos.map((p) => {
    const idx: number[] = [];
    for (let i = 0; i < p.wire.length; i++) if (p.wire[i]! > 0) idx.push(i);
    return idx;
  });
  const nextPhoto = photoSampler(photos, options.balanceGroups === true, rng);
  const cellsPerCrop = (size / 8) ** 2;
  const input = new Float32Array(batch * size * size * 4);
  const targets = new Int32Array(batch * cellsPerCrop);
  const rgb = new Uint8Array(size * size * 3);
  const effects = options.camera === undefined ? undefined : cameraEffectsOnCrops(options.camera, (options.seed ?? 1) + CAMERA_STREAM);
  let finalLoss = Number.NaN;
  for (let step = 1; step <= options.steps; step++) {
    for (let b = 0; b < batch; b++) {
      const i = nextPhoto();
      const p = photos[i] as LabelledPhoto;
      const { width: W, height: H } = p.image;
      const wp = wirePixels[i] as number[];
      let cx = rng.next() * W;
      let cy = rng.next() * H;
      if (wp.length > 0 && rng.next() < focus) {
        const px = wp[rng.int(wp.length)]!;
        cx = px % W;
        cy = Math.floor(px / W);
      }
      const x0 = Math.max(0, Math.min(W - size, Math.round(cx - size / 2)));
      const y0 = Math.max(0, Math.min(H - size, Math.round(cy - size / 2)));
      cropSample(p, x0, y0, size, input, b * size * size * 4, targets, b * cellsPerCrop, rgb, options.flip === true && rng.next() < 0.5, effects);
    }
    if (options.schedule === "cosine") (optimizer as unknown as { learningRate: number }).learningRate = cosineRate(learningRate, step, options.steps);
    let wire = 0;
    for (const t of targets) wire += t;
    const wWire = Math.min(20, Math.max(1, Math.sqrt((targets.length - wire) / Math.max(1, wire))));
    const loss = tf.tidy(() => {
      const x = tf.tensor4d(input, [batch, size, size, 4]);
      const t = tf.tensor1d(targets, "int32");
      const weights = tf.tensor1d([1, wWire, 1, 1].slice(0, NUM_DETECTION_CLASSES));
      const cost = optimizer.minimize(() => {
        const out = detector.forward(x);
        return weightedCellCrossEntropy(tf.slice(out, [0, 0, 0, 0], [-1, -1, -1, NUM_DETECTION_CLASSES]), t, weights);
      }, true, vars);
      return cost?.dataSync()[0] ?? Number.NaN;
    });
    finalLoss = loss;
    if (step >= firstAveraged) mean?.add();
    options.onStep?.(step, loss);
  }
  optimizer.dispose();
  mean?.assignTo();
  return { finalLoss, trained };
}
