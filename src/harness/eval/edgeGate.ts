/**
 * Edge gate on a detector's wire map (issue 14, zero-shot on real photos; rule in
 * docs/results/edge-gate-decision-rule.txt): a plain Sobel map ranks the pixels within one photo
 * well but its scale changes from photo to photo; the detector's probabilities compare across
 * photos but spread off the wire on plain pavement. The gate needs both:
 *
 *   gated = sqrt(p min(1, s / q99)),
 *
 * s the Sobel magnitude (realPhotoMetrics.ts sobelMagnitudeMap), q99 the photo's own 99th
 * percentile of s (at least EDGE_GATE_FLOOR, so a flat photo does not divide by zero). Pure, no
 * training, one form (no parameter searched).
 */

/** Percentile of s the edge strength is measured against. */
export const EDGE_GATE_PERCENTILE = 0.99;
/** Least q99: below it the photo has no edge worth the name and s / q99 would amplify noise. */
export const EDGE_GATE_FLOOR = 1e-3;

/** Bins of quantile's histogram pass. */
const QUANTILE_BINS = 4096;

/**
 * The `q`-quantile of `values` by nearest rank: the value at index floor(q n) (at most n - 1) of
 * the ascending order, exactly, without sorting all of them: one pass counts the values into
 * equal bins between their minimum and maximum, a second collects the bin holding that rank,
 * and only those are sorted (O(n) for a photo's 200,000 Sobel values instead of a full sort).
 */
export function quantile(values: ArrayLike<number>, q: number): number {
  const n = values.length;
  if (n === 0) throw new RangeError("quantile of no values");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile q=${q}, expected a value in [0, 1]`);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) throw new RangeError(`quantile: value ${i} is NaN`);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const rank = Math.min(n - 1, Math.floor(q * n));
  if (hi === lo) return lo;
  const width = (hi - lo) / QUANTILE_BINS;
  const bin = (v: number): number => Math.min(QUANTILE_BINS - 1, Math.floor((v - lo) / width));
  const counts = new Uint32Array(QUANTILE_BINS);
  for (let i = 0; i < n; i++) counts[bin(values[i]!)]!++;
  let b = 0;
  let below = 0;
  while (below + counts[b]! <= rank) below += counts[b++]!;
  const inBin = new Float64Array(counts[b]!);
  let k = 0;
  for (let i = 0; i < n; i++) if (bin(values[i]!) === b) inBin[k++] = values[i]!;
  return inBin.sort()[rank - below]!;
}

/** The gated map of the file comment; `p` and `sobel` the same length (one value per pixel). */
export function edgeGate(p: ArrayLike<number>, sobel: ArrayLike<number>): Float32Array {
  if (p.length !== sobel.length) throw new RangeError(`edgeGate: map has ${p.length} pixels, Sobel map ${sobel.length}`);
  const q = Math.max(EDGE_GATE_FLOOR, quantile(sobel, EDGE_GATE_PERCENTILE));
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = Math.sqrt(Math.max(0, p[i]!) * Math.min(1, sobel[i]! / q));
  return out;
}
