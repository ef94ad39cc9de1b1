/**
 * Accumulates per-cell class probabilities and labels over many frames and reports the
 * thin-obstacle AP of SPEC "How results are measured": per class (wire, branch, pole/trunk) and
 * for wire+branch. AP is computed over all cells of all frames together (one ranking per class),
 * not averaged per frame, so frames without a wire do not produce undefined per-frame values.
 *
 * wire+branch is the merged "thin obstacle" class: a cell is positive when a wire or a branch
 * covers it, and its score is p(wire) + p(branch) (the probability, under the detector's
 * softmax, that the cell holds a thin obstacle of either kind).
 */
import { NUM_DETECTION_CLASSES } from "../actions";
import { averagePrecision } from "./AveragePrecision";

export type ThinObstacleApReport = {
  wire: number;
  branch: number;
  pole_trunk: number;
  wire_branch: number;
  /** Positive cells per class, so a NaN AP (no positives) can be explained. */
  positives: { wire: number; branch: number; pole_trunk: number; wire_branch: number };
  cells: number;
};

/** The scores and labels a ThinObstacleAp holds, per ranking (ThinObstacleAp.columns), to rank them elsewhere: a worker's part of a row. */
export type ApColumn = { scores: Float32Array; labels: Uint8Array };
export type ThinObstacleApColumns = { wire: ApColumn; branch: ApColumn; pole_trunk: ApColumn; wire_branch: ApColumn };

const WIRE = 1;
const BRANCH = 2;
const POLE = 3;

class GrowableColumn {
  scores = new Float32Array(4096);
  labels = new Uint8Array(4096);
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
  ap(): number {
    return averagePrecision({ scores: this.scores.subarray(0, this.length), labels: this.labels.subarray(0, this.length) });
  }
  column(): ApColumn {
    return { scores: this.scores.slice(0, this.length), labels: this.labels.slice(0, this.length) };
  }
  append(c: ApColumn): void {
    if (c.scores.length !== c.labels.length) throw new RangeError(`AP column of ${c.scores.length} scores and ${c.labels.length} labels`);
    const need = this.length + c.scores.length;
    if (need > this.scores.length) {
      const cap = Math.max(need, this.scores.length * 2);
      const s = new Float32Array(cap);
      s.set(this.scores.subarray(0, this.length));
      this.scores = s;
      const l = new Uint8Array(cap);
      l.set(this.labels.subarray(0, this.length));
      this.labels = l;
    }
    this.scores.set(c.scores, this.length);
    this.labels.set(c.labels, this.length);
    this.length = need;
  }
  positives(): number {
    let p = 0;
    for (let i = 0; i < this.length; i++) p += this.labels[i]!;
    return p;
  }
}

export class ThinObstacleAp {
  private readonly wire = new GrowableColumn();
  private readonly branch = new GrowableColumn();
  private readonly pole = new GrowableColumn();
  private readonly thin = new GrowableColumn();

  /**
   * Adds one frame. `probs` and `labels` are cell-major with NUM_DETECTION_CLASSES entries per
   * cell (probs: softmax probabilities; labels: from cellLabelsFromMask).
   */
  add(probs: ArrayLike<number>, labels: ArrayLike<number>): void {
    const k = NUM_DETECTION_CLASSES;
    if (probs.length !== labels.length || probs.length % k !== 0) {
      throw new RangeError(
        `probs.length=${probs.length}, labels.length=${labels.length}; expected equal multiples of ${k}`,
      );
    }
    for (let o = 0; o < probs.length; o += k) {
      const pw = probs[o + WIRE]!;
      const pb = probs[o + BRANCH]!;
      const lw = labels[o + WIRE]!;
      const lb = labels[o + BRANCH]!;
      this.wire.push(pw, lw);
      this.branch.push(pb, lb);
      this.pole.push(probs[o + POLE]!, labels[o + POLE]!);
      this.thin.push(pw + pb, lw | lb);
    }
  }

  /** Copies of every cell added so far, in order. */
  columns(): ThinObstacleApColumns {
    return { wire: this.wire.column(), branch: this.branch.column(), pole_trunk: this.pole.column(), wire_branch: this.thin.column() };
  }

  /**
   * Adds the cells of another accumulator's columns() after the ones held here, as if its frames
   * had been added here: parts of a row flown in several workers, appended in seed order, rank
   * exactly as one accumulator would have.
   */
  appendColumns(c: ThinObstacleApColumns): void {
    const n = c.wire.scores.length;
    if (![c.branch, c.pole_trunk, c.wire_branch].every((col) => col.scores.length === n)) throw new RangeError("appendColumns: the four columns differ in length");
    this.wire.append(c.wire);
    this.branch.append(c.branch);
    this.pole.append(c.pole_trunk);
    this.thin.append(c.wire_branch);
  }

  report(): ThinObstacleApReport {
    return {
      wire: this.wire.ap(),
      branch: this.branch.ap(),
      pole_trunk: this.pole.ap(),
      wire_branch: this.thin.ap(),
      positives: {
        wire: this.wire.positives(),
        branch: this.branch.positives(),
        pole_trunk: this.pole.positives(),
        wire_branch: this.thin.positives(),
      },
      cells: this.wire.length,
    };
  }
}
