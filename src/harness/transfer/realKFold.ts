/**
 * k-fold cross-validation of few-shot adaptation on real photographs (issue 14 item 3): the
 * photos are split into k folds stratified by set (photo i of a set goes to fold i mod k); for
 * each fold the detector starts from the same simulator-trained weights, is fine-tuned on the
 * first n photos of a seeded shuffle of the other folds (the learning curve's n), and maps the
 * held-out fold, which it never trained on. Held-out maps of all folds are pooled per (n, set)
 * into one RealSetScore (cross-validated predictions), next to the zero-shot (n = 0) maps.
 */
import * as tf from "@tensorflow/tfjs";
import type { Teacher } from "../models/Teacher";
import { detectNative, detectNativeFlipAveraged } from "../eval/detectNative";
import { RealSetScore, nearWire, photoSamples } from "../eval/realPhotoMetrics";
import { teacherWireNet } from "../eval/WireNet";
import { fineTuneOnPhotos, type FineTuneOptions, type LabelledPhoto } from "./fineTuneOnPhotos";
import { Rng } from "../../util/Rng";

export type SetPhoto = LabelledPhoto & { set: string; name: string };

export type KFoldOptions = {
  folds: number;
  /** Training-set sizes of the learning curve; Infinity = all training photos of the fold. */
  curve: readonly number[];
  fineTune: Omit<FineTuneOptions, "seed" | "onStep">;
  seed: number;
  /** Test-time flip averaging of every held-out map (detectNativeFlipAveraged). Default false. */
  flipAverage?: boolean;
  /**
   * WiSE-FT (Wortsman et al. 2022, "Robust fine-tuning of zero-shot models"): for each a here the
   * held-out fold is also mapped with theta = (1 - a) theta_start + a theta_adapted, rows labelled
   * "<n> wise <a>". Each a in [0, 1]. Default none.
   */
  wise?: readonly number[];
  onProgress?: (text: string) => void;
};

export type KFoldRow = { trainPhotos: string; set: string; photos: number; ap: number; f1: number; chance: number };

export type KFoldReport = { folds: number; rows: KFoldRow[]; trained: string[]; trainedParameters: number; totalParameters: number; seconds: number };

/** Fold of each photo: stratified by set, round robin in the given order. */
export function foldsOf(photos: readonly { set: string }[], k: number): number[] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`folds=${k}, expected an integer >= 2`);
  const seen = new Map<string, number>();
  return photos.map((p) => {
    const i = seen.get(p.set) ?? 0;
    seen.set(p.set, i + 1);
    return i % k;
  });
}

function curveLabel(n: number): string {
  return Number.isFinite(n) ? String(n) : "all";
}

export function crossValidate(detector: Teacher, photos: readonly SetPhoto[], options: KFoldOptions): KFoldReport {
  const t0 = performance.now();
  const fold = foldsOf(photos, options.folds);
  const names = detector.params.names();
  const base = names.map((n) => detector.params.get(n).dataSync().slice());
  const restore = (): void => tf.tidy(() => names.forEach((n, i) => detector.params.get(n).assign(tf.tensor(base[i] as Float32Array, detector.params.get(n).shape))));
  const net = teacherWireNet(detector, "fold");
  const detect = options.flipAverage === true ? detectNativeFlipAveraged : detectNative;
  const near = photos.map((p) => nearWire(p.wire, p.image.width, p.image.height));
  const scores = new Map<string, RealSetScore>();
  const score = (label: string, i: number, map: Float32Array): void => {
    const p = photos[i] as SetPhoto;
    const s = photoSamples(map, p.wire, p.image.width, p.image.height, { near: near[i] as Float32Array });
    for (const set of [p.set, "all"]) {
      const k = `${label}\u0000${set}`;
      if (!scores.has(k)) scores.set(k, new RealSetScore());
      scores.get(k)?.addSamples(s);
    }
  };
  let trained: string[] = [];
  const wise = options.wise ?? [];
  for (const a of wise) if (!(a >= 0 && a <= 1)) throw new RangeError(`wise=${a}, expected interpolation weights in [0, 1]`);
  const wiseLabel = (n: number, a: number): string => `${curveLabel(n)} wise ${a}`;
  const labels = ["0 (zero-shot)", ...options.curve.flatMap((n) => [curveLabel(n), ...wise.map((a) => wiseLabel(n, a))])];
  const interpolate = (adapted: readonly Float32Array[], a: number): void =>
    tf.tidy(() => names.forEach((n, i) => {
      const b = base[i] as Float32Array;
      const t = adapted[i] as Float32Array;
      detector.params.get(n).assign(tf.tensor(b.map((v, k) => (1 - a) * v + a * t[k]!), detector.params.get(n).shape));
    }));
  for (let f = 0; f < options.folds; f++) {
    const test = photos.map((_, i) => i).filter((i) => fold[i] === f);
    const pool = new Rng(options.seed * 1000 + f).shuffle(photos.map((_, i) => i).filter((i) => fold[i] !== f));
    restore();
    for (const i of test) score(labels[0] as string, i, detect(net, (photos[i] as SetPhoto).image).map);
    for (const n of options.curve) {
      restore();
      // Each photo's set is its group (used when fineTune.balanceGroups is on).
      const train = pool.slice(0, Math.min(pool.length, n)).map((i) => ({ ...(photos[i] as SetPhoto), group: (photos[i] as SetPhoto).set }));
      const r = fineTuneOnPhotos(detector, train, { ...options.fineTune, seed: options.seed * 1000 + f });
      trained = r.trained;
      for (const i of test) score(curveLabel(n), i, detect(net, (photos[i] as SetPhoto).image).map);
      if (wise.length > 0) {
        const adapted = names.map((name) => detector.params.get(name).dataSync().slice() as Float32Array);
        for (const a of wise) {
          interpolate(adapted, a);
          for (const i of test) score(wiseLabel(n, a), i, detect(net, (photos[i] as SetPhoto).image).map);
        }
      }
      options.onProgress?.(`fold ${f + 1}/${options.folds}: ${train.length} training photos, final loss ${r.finalLoss.toFixed(3)}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  restore();
  const sets = [...new Set(photos.map((p) => p.set)), "all"];
  const rows: KFoldRow[] = [];
  for (const label of labels) {
    for (const set of sets) {
      const r = scores.get(`${label}\u0000${set}`)?.result();
      if (r !== undefined) rows.push({ trainPhotos: label, set, photos: r.photos, ap: r.ap, f1: r.f1, chance: r.chance });
    }
  }
  const trainedParameters = trained.reduce((s, n) => s + detector.params.get(n).size, 0);
  return { folds: options.folds, rows, trained, trainedParameters, totalParameters: detector.parameterCount(), seconds: (performance.now() - t0) / 1000 };
}
