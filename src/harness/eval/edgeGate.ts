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

/** The `q`-quantile of `values` (nearest rank on a sorted copy), q in [0, 1]. */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) throw new RangeError("quantile of no values");
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile q=${q}, expected a value in [0, 1]`);
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** The gated map of the file comment; `p` and `sobel` the same length (one value per pixel). */
export function edgeGate(p: ArrayLike<number>, sobel: ArrayLike<number>): Float32Array {
  if (p.length !== sobel.length) throw new RangeError(`edgeGate: map has ${p.length} pixels, Sobel map ${sobel.length}`);
  const q = Math.max(EDGE_GATE_FLOOR, quantile(sobel, EDGE_GATE_PERCENTILE));
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = Math.sqrt(Math.max(0, p[i]!) * Math.min(1, sobel[i]! / q));
  return out;
}
