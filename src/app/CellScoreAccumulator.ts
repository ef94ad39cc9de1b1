/**
 * Per-cell scores and ground-truth labels of the detection grid over many frames, for the wire
 * and wire+branch precision-recall curves and AP of the main job (SPEC "How results are
 * measured": a cell is positive where the simulator's ground-truth mask covers it; AP is the area
 * under the all-points interpolated PR curve). Scores come from drone_harness_msgs/StudentOutput
 * cell_probs (class fastest), labels from cellLabelsFromMask (src/harness/eval/CellLabels.ts);
 * wire+branch scores p(wire) + p(branch), as src/harness/eval/ThinObstacleAp.ts does.
 * Storage grows by doubling (amortised, no per-frame allocation once large enough).
 */
import { apFromCurve, precisionRecallCurve, type PrCurve } from "../harness/eval/AveragePrecision";

const WIRE = 1;
const BRANCH = 2;

class Column {
  scores = new Float32Array(1 << 16);
  labels = new Uint8Array(1 << 16);
  length = 0;
  push(score: number, label: number): void {
    if (this.length === this.scores.length) {
      const s = new Float32Array(this.scores.length * 2);
      s.set(this.scores);
      this.scores = s;
      const l = new Uint8Array(this.labels.length * 2);
      l.set(this.labels);
      this.labels = l;
    }
    this.scores[this.length] = score;
    this.labels[this.length] = label;
    this.length++;
  }
  curve(): PrCurve {
    return precisionRecallCurve({ scores: this.scores.subarray(0, this.length), labels: this.labels.subarray(0, this.length) });
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
  private readonly wire = new Column();
  private readonly thin = new Column();

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
    return this.wire.length;
  }

  summary(maxPoints = 200): { wire: PrSummary; wireBranch: PrSummary } {
    return { wire: summarizeCurve(this.wire.curve(), this.wire.length, maxPoints), wireBranch: summarizeCurve(this.thin.curve(), this.thin.length, maxPoints) };
  }
}
