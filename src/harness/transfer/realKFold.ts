/**
 * k-fold cross-validation of few-shot adaptation on real photographs (issue 14 item 3): the
 * photos are split into k folds stratified by set (photo i of a set goes to fold i mod k); for
 * each fold the detector starts from the same simulator-trained weights, is fine-tuned on the
 * first n photos of a seeded shuffle of the other folds (the learning curve's n), and maps the
 * held-out fold, which it never trained on. Held-out maps of all folds are pooled per (n, set)
 * into one RealSetScore (cross-validated predictions), next to the zero-shot (n = 0) maps.
 */
import type { Teacher } from "../models/Teacher";
import type { RgbImage } from "../data/imageCodec";
import { detectPass, meanDetections, type NativeDetection } from "../eval/detectNative";
import { RealSetScore, nearWire, photoSamples } from "../eval/realPhotoMetrics";
import { teacherWireNet, type WireNet } from "../eval/WireNet";
import { fineTuneOnPhotos, type FineTuneOptions, type LabelledPhoto } from "./fineTuneOnPhotos";
import { Rng } from "../../util/Rng";
import { averageWeights } from "../layers/averageWeights";
import type { NamedWeight } from "../layers/ParamStore";

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
  /**
   * A second detector of the same architecture (e.g. another photo model fine-tuned from the same
   * initialisation). Per fold and curve point it is adapted on the same photos with the same seed,
   * and three more rows are scored: "<n> partner" (its own adapted maps), "<n> soup" (the uniform
   * average of the two adapted weight sets: one network, the inference cost of one; Wortsman et
   * al. 2022) and "<n> ensemble" (the mean of the two adapted maps: two networks). Its weights are
   * restored at the end, as the detector's are. Default none.
   */
  partner?: Teacher;
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

type PartnerRun = { net: WireNet; base: NamedWeight[]; detector: Teacher };

function startPartner(detector: Teacher, partner: Teacher | undefined): PartnerRun | undefined {
  if (partner === undefined) return undefined;
  const own = detector.params.snapshot();
  const base = partner.params.snapshot();
  // Throws, naming the weights, when the two are not one architecture.
  averageWeights([own, base]);
  return { net: teacherWireNet(partner, "partner"), base, detector: partner };
}

export function crossValidate(detector: Teacher, photos: readonly SetPhoto[], options: KFoldOptions): KFoldReport {
  const t0 = performance.now();
  const fold = foldsOf(photos, options.folds);
  const base = detector.params.snapshot();
  const restore = (): void => detector.params.load(base);
  const net = teacherWireNet(detector, "fold");
  const partner = startPartner(detector, options.partner);
  const detect = (n: WireNet, image: RgbImage): NativeDetection => detectPass(n, image, options.flipAverage === true);
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
  const partnerLabels = (n: number): string[] => (partner === undefined ? [] : ["partner", "soup", "ensemble"].map((k) => `${curveLabel(n)} ${k}`));
  const labels = ["0 (zero-shot)", ...options.curve.flatMap((n) => [curveLabel(n), ...wise.map((a) => wiseLabel(n, a)), ...partnerLabels(n)])];
  const interpolate = (adapted: readonly NamedWeight[], a: number): void =>
    detector.params.load(adapted.map((w, k) => ({ ...w, values: (base[k] as NamedWeight).values.map((v, j) => (1 - a) * v + a * w.values[j]!) })));
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
      const mine = test.map((i) => detect(net, (photos[i] as SetPhoto).image));
      test.forEach((i, k) => score(curveLabel(n), i, (mine[k] as NativeDetection).map));
      const adapted = detector.params.snapshot();
      for (const a of wise) {
        interpolate(adapted, a);
        for (const i of test) score(wiseLabel(n, a), i, detect(net, (photos[i] as SetPhoto).image).map);
      }
      if (partner !== undefined) {
        partner.detector.params.load(partner.base);
        fineTuneOnPhotos(partner.detector, train, { ...options.fineTune, seed: options.seed * 1000 + f });
        const [own, soup, ensemble] = partnerLabels(n) as [string, string, string];
        test.forEach((i, k) => {
          const theirs = detect(partner.net, (photos[i] as SetPhoto).image);
          score(own, i, theirs.map);
          score(ensemble, i, meanDetections([mine[k] as NativeDetection, theirs]).map);
        });
        detector.params.load(averageWeights([adapted, partner.detector.params.snapshot()]));
        for (const i of test) score(soup, i, detect(net, (photos[i] as SetPhoto).image).map);
      }
      options.onProgress?.(`fold ${f + 1}/${options.folds}: ${train.length} training photos, final loss ${r.finalLoss.toFixed(3)}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  restore();
  partner?.detector.params.load(partner.base);
  return report(detector, options.folds, photos, labels, scores, trained, t0);
}

function report(detector: Teacher, folds: number, photos: readonly SetPhoto[], labels: readonly string[], scores: Map<string, RealSetScore>, trained: string[], t0: number): KFoldReport {
  const sets = [...new Set(photos.map((p) => p.set)), "all"];
  const rows: KFoldRow[] = [];
  for (const label of labels) {
    for (const set of sets) {
      const r = scores.get(`${label}\u0000${set}`)?.result();
      if (r !== undefined) rows.push({ trainPhotos: label, set, photos: r.photos, ap: r.ap, f1: r.f1, chance: r.chance });
    }
  }
  const trainedParameters = trained.reduce((s, n) => s + detector.params.get(n).size, 0);
  return { folds, rows, trained, trainedParameters, totalParameters: detector.parameterCount(), seconds: (performance.now() - t0) / 1000 };
}
