/**
 * AP with a 95 % interval that respects how the frames were drawn. The frames of one flight are
 * strongly correlated (the same world, wires and light), so the unit of sampling is the flight
 * seed, not the cell: the interval is a percentile cluster bootstrap (Efron & Tibshirani, "An
 * Introduction to the Bootstrap", 1993, ch. 13 for the percentile interval; resampling whole
 * clusters: Davison & Hinkley, "Bootstrap Methods and their Application", 1997, section 3.8).
 * Each resample draws as many seeds as there are, with replacement; a seed drawn k times counts
 * each of its cells k times. The curve and its ties are those of AveragePrecision.ts, so with every
 * seed drawn once the AP is the exact one (ClusteredAp.test.ts checks it bit for bit).
 *
 * Pure: samples in, numbers out; the resampling stream is the project's seeded Rng.
 */
import { Rng } from "../../util/Rng";
import { percentile } from "./Percentiles";

/** Resamples of the seed bootstrap behind the wire AP intervals of `eval --planner` and `fit --evaluate`. */
export const AP_BOOTSTRAP_RESAMPLES = 1000;

export type ApInterval = {
  /** The exact AP of all samples (averagePrecision). NaN without positives. */
  ap: number;
  /** Percentile bounds of the resampled APs (level 0.95 by default); NaN when not computed. */
  lo: number;
  hi: number;
  /** Resamples drawn, and how many of them had no positive (left out of the percentiles). */
  resamples: number;
  emptyResamples: number;
  /** Distinct clusters (seeds) the samples came from. */
  clusters: number;
};

export class ClusteredAp {
  private scores = new Float32Array(4096);
  private labels = new Uint8Array(4096);
  private cluster = new Uint32Array(4096);
  private n = 0;
  private readonly ids = new Map<number, number>();

  get length(): number {
    return this.n;
  }

  /** One sample: its score, its label (0 or 1) and the seed of the flight it came from. */
  push(score: number, label: number, seed: number): void {
    if (!Number.isFinite(score)) throw new RangeError(`score=${score}, expected a finite number`);
    if (label !== 0 && label !== 1) throw new RangeError(`label=${label}, expected 0 or 1`);
    let id = this.ids.get(seed);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(seed, id);
    }
    if (this.n === this.scores.length) this.grow();
    this.scores[this.n] = score;
    this.labels[this.n] = label;
    this.cluster[this.n] = id;
    this.n++;
  }

  /**
   * The exact AP and its percentile cluster-bootstrap interval from `resamples` resamples
   * (0: no interval, lo = hi = NaN). `rngSeed` fixes the stream, so a report is reproducible.
   */
  interval(resamples: number, rngSeed = 1, level = 0.95): ApInterval {
    if (!Number.isInteger(resamples) || resamples < 0) throw new RangeError(`resamples=${resamples}, expected an integer >= 0`);
    if (!(level > 0 && level < 1)) throw new RangeError(`level=${level}, expected in (0, 1)`);
    const k = this.ids.size;
    const sorted = this.sortedByScore();
    const weights = new Float64Array(k).fill(1);
    const work = { precision: new Float64Array(this.n), recall: new Float64Array(this.n) };
    const ap = weightedAp(sorted, weights, work);
    const out: ApInterval = { ap, lo: Number.NaN, hi: Number.NaN, resamples, emptyResamples: 0, clusters: k };
    if (resamples === 0 || k === 0) return out;
    const rng = new Rng(rngSeed);
    const values: number[] = [];
    for (let b = 0; b < resamples; b++) {
      weights.fill(0);
      for (let i = 0; i < k; i++) weights[rng.int(k)]!++;
      const v = weightedAp(sorted, weights, work);
      if (Number.isNaN(v)) out.emptyResamples++;
      else values.push(v);
    }
    out.lo = percentile(values, 50 * (1 - level));
    out.hi = percentile(values, 100 - 50 * (1 - level));
    return out;
  }

  private grow(): void {
    const m = this.scores.length * 2;
    const s = new Float32Array(m);
    s.set(this.scores);
    this.scores = s;
    const l = new Uint8Array(m);
    l.set(this.labels);
    this.labels = l;
    const c = new Uint32Array(m);
    c.set(this.cluster);
    this.cluster = c;
  }

  /** Samples in descending score order, with the index where each group of tied scores ends. */
  private sortedByScore(): Sorted {
    const n = this.n;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const s = this.scores;
    order.sort((a, b) => s[b]! - s[a]!);
    const labels = new Uint8Array(n);
    const cluster = new Uint32Array(n);
    const groupEnd: number[] = [];
    for (let i = 0; i < n; i++) {
      labels[i] = this.labels[order[i]!]!;
      cluster[i] = this.cluster[order[i]!]!;
      if (i === n - 1 || s[order[i + 1]!]! !== s[order[i]!]!) groupEnd.push(i + 1);
    }
    const positivesPerCluster = new Float64Array(this.ids.size);
    for (let i = 0; i < n; i++) positivesPerCluster[cluster[i]!]! += labels[i]!;
    return { labels, cluster, groupEnd: Uint32Array.from(groupEnd), positivesPerCluster };
  }
}

type Sorted = { labels: Uint8Array; cluster: Uint32Array; groupEnd: Uint32Array; positivesPerCluster: Float64Array };

/**
 * All-points interpolated AP of the weighted samples (AveragePrecision.ts apFromCurve): one curve
 * point per group of tied scores that carries weight, precision interpolated by the backward max.
 */
function weightedAp(sorted: Sorted, w: Float64Array, work: { precision: Float64Array; recall: Float64Array }): number {
  const { labels, cluster, groupEnd, positivesPerCluster } = sorted;
  let positives = 0;
  for (let c = 0; c < w.length; c++) positives += w[c]! * positivesPerCluster[c]!;
  if (positives === 0) return Number.NaN;
  const { precision, recall } = work;
  let m = 0;
  let tp = 0;
  let fp = 0;
  let i = 0;
  for (let g = 0; g < groupEnd.length; g++) {
    const end = groupEnd[g]!;
    let added = 0;
    for (; i < end; i++) {
      const wi = w[cluster[i]!]!;
      if (labels[i] === 1) tp += wi;
      else fp += wi;
      added += wi;
    }
    if (added === 0) continue;
    precision[m] = tp / (tp + fp);
    recall[m] = tp / positives;
    m++;
  }
  let running = 0;
  for (let j = m - 1; j >= 0; j--) {
    running = Math.max(running, precision[j]!);
    precision[j] = running;
  }
  let ap = 0;
  let prevRecall = 0;
  for (let j = 0; j < m; j++) {
    ap += (recall[j]! - prevRecall) * precision[j]!;
    prevRecall = recall[j]!;
  }
  return ap;
}

/** "0.802 [0.771, 0.829]", or the AP alone when no interval was computed. */
export function formatApWithInterval(x: ApInterval, digits = 3): string {
  const f = (v: number): string => (Number.isNaN(v) ? "NaN" : v.toFixed(digits));
  return Number.isNaN(x.lo) ? f(x.ap) : `${f(x.ap)} [${f(x.lo)}, ${f(x.hi)}]`;
}
