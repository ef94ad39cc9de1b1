/**
 * Average precision (AP) of a per-cell binary detector: the area under the all-points
 * interpolated precision-recall curve, as defined for PASCAL VOC from 2010 on (Everingham et al.,
 * "The PASCAL Visual Object Classes Challenge 2012 Development Kit", section 4.2: "precision at
 * each recall level r is interpolated by taking the maximum precision measured for a method for
 * which the corresponding recall exceeds r", and the AP is the exact area under that monotone
 * curve, not the 11-point sample of VOC 2007).
 *
 * Ties: cells with equal scores are one threshold. The curve has a point only at every distinct
 * score, so the result does not depend on the order in which tied cells were added (the VOC
 * reference code sorts detections and would give order-dependent AP for ties).
 *
 * No positives: recall is undefined, so AP is NaN. Callers report NaN and say why.
 */
export type ApInput = {
  /** Score of each sample (higher = more confident positive). Finite. */
  scores: ArrayLike<number>;
  /** 1 for a positive sample, 0 for a negative one, same length as `scores`. */
  labels: ArrayLike<number>;
};

/** Points of the raw (not interpolated) PR curve, one per distinct score, highest score first. */
export type PrCurve = { precision: Float64Array; recall: Float64Array; thresholds: Float64Array; positives: number };

function validate({ scores, labels }: ApInput): void {
  if (scores.length !== labels.length) {
    throw new RangeError(`scores.length=${scores.length} differs from labels.length=${labels.length}; expected equal lengths`);
  }
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (!Number.isFinite(s)) throw new RangeError(`scores[${i}]=${s}, expected a finite number`);
    const l = labels[i]!;
    if (l !== 0 && l !== 1) throw new RangeError(`labels[${i}]=${l}, expected 0 or 1`);
  }
}

/** The raw precision-recall curve with ties grouped (one point per distinct score). */
export function precisionRecallCurve(input: ApInput): PrCurve {
  validate(input);
  const n = input.scores.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const scores = input.scores;
  order.sort((a, b) => scores[b]! - scores[a]!);
  let positives = 0;
  for (let i = 0; i < n; i++) positives += input.labels[i]!;
  const precision: number[] = [];
  const recall: number[] = [];
  const thresholds: number[] = [];
  let tp = 0;
  let fp = 0;
  let i = 0;
  while (i < n) {
    const t = scores[order[i]!]!;
    while (i < n && scores[order[i]!]! === t) {
      if (input.labels[order[i]!]! === 1) tp++;
      else fp++;
      i++;
    }
    thresholds.push(t);
    precision.push(tp / (tp + fp));
    recall.push(positives > 0 ? tp / positives : Number.NaN);
  }
  return {
    precision: Float64Array.from(precision),
    recall: Float64Array.from(recall),
    thresholds: Float64Array.from(thresholds),
    positives,
  };
}

/** All-points interpolated AP (VOC 2010+) in [0, 1]; NaN when there is no positive sample. */
export function averagePrecision(input: ApInput): number {
  const curve = precisionRecallCurve(input);
  if (curve.positives === 0) return Number.NaN;
  return apFromCurve(curve);
}

/** Area under the interpolated curve: sum over recall steps of the max precision to the right. */
export function apFromCurve(curve: PrCurve): number {
  const m = curve.precision.length;
  if (curve.positives === 0) return Number.NaN;
  // Interpolated precision: p_interp(k) = max_{k' >= k} p(k') (VOC devkit `mpre` backward max).
  const interp = new Float64Array(m);
  let running = 0;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.max(running, curve.precision[k]!);
    interp[k] = running;
  }
  let ap = 0;
  let prevRecall = 0;
  for (let k = 0; k < m; k++) {
    const r = curve.recall[k]!;
    ap += (r - prevRecall) * interp[k]!;
    prevRecall = r;
  }
  return ap;
}
