/**
 * Per-cell scores and ground-truth labels of the detection grid over many frames, for the wire
 * and wire+branch precision-recall curves and AP of the main job (SPEC "How results are
 * measured": a cell is positive where the simulator's ground-truth mask covers it; AP is the area
 * under the all-points interpolated PR curve). Scores come from drone_harness_msgs/StudentOutput
 * cell_probs (class fastest), labels from cellLabelsFromMask (src/harness/eval/CellLabels.ts);
 * wire+branch scores p(wire) + p(branch), as src/harness/eval/ThinObstacleAp.ts does.
 * Fixed-size score histograms (no per-frame allocation, bounded memory).
 */
import { apFromCurve, type PrCurve } from "../harness/eval/AveragePrecision";

const WIRE = 1;
const BRANCH = 2;

/**
 * Score resolution: scores are counted in SCORE_BINS equal bins over [0, 1] (wire+branch scores
 * over [0, 2]), and all scores of one bin form one threshold of the curve, as tied scores do in
 * AveragePrecision.ts. Memory is fixed however many frames are added (the main job sees millions
 * of cells); test/app/CellScoreAccumulator.test.ts compares the AP with the exact one.
 */
export const SCORE_BINS = 1 << 16;

class Column {
  readonly pos: Float64Array;
  readonly neg: Float64Array;
  count = 0;
  constructor(private readonly maxScore: number) {
    this.pos = new Float64Array(SCORE_BINS);
    this.neg = new Float64Array(SCORE_BINS);
  }
  push(score: number, label: number): void {
    const b = Math.min(SCORE_BINS - 1, Math.max(0, Math.floor((score / this.maxScore) * SCORE_BINS)));
    if (label === 1) this.pos[b]!++;
    else this.neg[b]!++;
    this.count++;
  }
  /** The raw PR curve, one point per non-empty bin, highest scores first. */
  curve(): PrCurve {
    let positives = 0;
    for (let b = 0; b < SCORE_BINS; b++) positives += this.pos[b]!;
    const precision: number[] = [];
    const recall: number[] = [];
    const thresholds: number[] = [];
    let tp = 0;
    let fp = 0;
    for (let b = SCORE_BINS - 1; b >= 0; b--) {
      const p = this.pos[b]!, n = this.neg[b]!;
      if (p === 0 && n === 0) continue;
      tp += p;
      fp += n;
      thresholds.push((b / SCORE_BINS) * this.maxScore);
      precision.push(tp / (tp + fp));
      recall.push(positives > 0 ? tp / positives : Number.NaN);
    }
    return { precision: Float64Array.from(precision), recall: Float64Array.from(recall), thresholds: Float64Array.from(thresholds), positives };
  }
}

/** A PR curve thinned for plotting, with the AP of the full curve. */
export type PrSummary = { ap: number; positives: number; cells: number; recall: number[]; precision: number[] };

/** At most `maxPoints` points of the interpolated curve (max precision at recall >= r), evenly spread in recall. */
export function summarizeCurve(curve: PrCurve, cells: number, maxPoints = 200): PrSummary {
  if (!Number.isInteger(maxPoints) || maxPoints < 2) throw new RangeError(`maxPoints=${maxPoints}, expected an integer >= 2`);
  const ap = apFromCurve(curve);
  const m = curve.precision.length;
  const interp = new Float64Array(m);
  let running = 0;
  for (let k = m - 1; k >= 0; k--) {
    running = Math.max(running, curve.precision[k]!);
    interp[k] = running;
  }
  const recall: number[] = [];
  const precision: number[] = [];
  if (curve.positives > 0) {
    let lastBucket = -1;
    for (let k = 0; k < m; k++) {
      const r = curve.recall[k]!;
      const bucket = Math.floor(r * (maxPoints - 1));
      if (bucket === lastBucket && k !== m - 1) continue;
      lastBucket = bucket;
      recall.push(r);
      precision.push(interp[k]!);
    }
  }
  return { ap, positives: curve.positives, cells, recall, precision };
}

export class CellScoreAccumulator {
  private readonly wire = new Column(1);
  private readonly thin = new Column(2);

  /**
   * Adds one frame: `probs` class-fastest per cell (numClasses per cell), `labels` the same layout
   * with 0/1 (cellLabelsFromMask). Class indices: 1 wire, 2 branch (src/harness/actions.ts).
   */
  add(probs: ArrayLike<number>, labels: ArrayLike<number>, numClasses: number): void {
    if (probs.length !== labels.length || probs.length % numClasses !== 0 || numClasses <= BRANCH) {
      throw new RangeError(`probs.length=${probs.length}, labels.length=${labels.length}, numClasses=${numClasses}; expected equal multiples of numClasses >= 3`);
    }
    for (let o = 0; o < probs.length; o += numClasses) {
      const pw = probs[o + WIRE]!;
      const pb = probs[o + BRANCH]!;
      if (!Number.isFinite(pw) || !Number.isFinite(pb)) continue;
      const lw = labels[o + WIRE]!;
      const lb = labels[o + BRANCH]!;
      this.wire.push(pw, lw);
      this.thin.push(pw + pb, lw | lb);
    }
  }

  get cells(): number {
    return this.wire.count;
  }

  summary(maxPoints = 200): { wire: PrSummary; wireBranch: PrSummary } {
    return { wire: summarizeCurve(this.wire.curve(), this.wire.count, maxPoints), wireBranch: summarizeCurve(this.thin.curve(), this.thin.count, maxPoints) };
  }
}
