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
 *
 * The coherence gate (rule in docs/results/coherence-gate-decision-rule.txt) is the same gate with s
 * replaced by s c, c the structure tensor's coherence (l1 - l2) / (l1 + l2) over a 7x7 window: a
 * wire is one orientation over its neighbourhood, leaves and twigs are edges in every direction.
 */
import { sobelMagnitude, sobelMagnitudeMap, sobelPass } from "./realPhotoMetrics";

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

/** Which edges gate a map: the Sobel magnitude s (the edge gate) or s c (the coherence gate). */
export type GateKind = "edge" | "coherence";

/** A photo's gating edges: the edge strength per pixel and the scale it is divided by (its floored q99). */
export type GateEdges = { edge: ArrayLike<number>; scale: number };

/** `edge` with its scale, max(EDGE_GATE_FLOOR, its EDGE_GATE_PERCENTILE quantile). */
export function gateEdgesOf(edge: ArrayLike<number>): GateEdges {
  return { edge, scale: Math.max(EDGE_GATE_FLOOR, quantile(edge, EDGE_GATE_PERCENTILE)) };
}

/**
 * The gating edges of an RGB photo (W x H) for either gate: all the gate needs from the photo,
 * independent of the detector's map (so it can be computed on another thread while the network
 * runs; gateThread.ts).
 */
export function photoGateEdges(rgb: Uint8Array, W: number, H: number, kind: GateKind): GateEdges {
  if (kind === "edge") return gateEdgesOf(sobelMagnitudeMap(rgb, W, H));
  const { sobel, coherence } = sobelWithCoherence(rgb, W, H);
  return coherenceGateEdges(sobel, coherence);
}

/** sqrt(p min(1, edge / scale)) per pixel: the gate of the file comment on given edges. */
export function applyGate(p: ArrayLike<number>, edges: GateEdges): Float32Array {
  const { edge, scale } = edges;
  if (p.length !== edge.length) throw new RangeError(`edgeGate: map has ${p.length} pixels, Sobel map ${edge.length}`);
  if (!(scale > 0)) throw new RangeError(`edgeGate: edge scale ${scale}, expected > 0`);
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = Math.sqrt(Math.max(0, p[i]!) * Math.min(1, edge[i]! / scale));
  return out;
}

/**
 * A detector's per-pixel map of an RGB photo (W x H) gated by that photo's own edges, in one call
 * (the perception node's wire map, on its thread or a worker's; `detect` without a gate thread).
 */
export function gateByPhoto(p: ArrayLike<number>, rgb: Uint8Array, W: number, H: number, kind: GateKind): Float32Array {
  return applyGate(p, photoGateEdges(rgb, W, H, kind));
}

/** The gated map of the file comment; `p` and `sobel` the same length (one value per pixel). */
export function edgeGate(p: ArrayLike<number>, sobel: ArrayLike<number>): Float32Array {
  if (p.length !== sobel.length) throw new RangeError(`edgeGate: map has ${p.length} pixels, Sobel map ${sobel.length}`);
  return applyGate(p, gateEdgesOf(sobel));
}

/** Radius of the structure tensor's box window (7x7). */
export const COHERENCE_RADIUS = 3;

/** Index v reflected into [0, n) without repeating the edge pixel (OpenCV's BORDER_REFLECT_101), any v. */
function reflect101(v: number, n: number): number {
  if (n === 1) return 0;
  const period = 2 * n - 2;
  const m = ((v % period) + period) % period;
  return m < n ? m : period - m;
}

/**
 * Box mean over (2r+1) x (2r+1) of each of `maps` (W x H, row-major), reflected border, in place:
 * running sums, first along each row, then down the columns a whole row at a time (one add and one
 * subtract per pixel and pass, memory read in order).
 */
function boxMeans(maps: Float32Array[], W: number, H: number, r: number): void {
  const k = 2 * r + 1;
  const line = new Float64Array(W);
  const rows = new Float64Array(W * H);
  const sums = new Float64Array(W);
  for (const m of maps) {
    for (let y = 0; y < H; y++) {
      const o = y * W;
      for (let x = 0; x < W; x++) line[x] = m[o + x]!;
      let sum = 0;
      for (let d = -r; d <= r; d++) sum += line[reflect101(d, W)]!;
      rows[o] = sum;
      for (let x = 1; x < W; x++) {
        sum += line[x + r < W ? x + r : reflect101(x + r, W)]! - line[x - r - 1 >= 0 ? x - r - 1 : reflect101(x - r - 1, W)]!;
        rows[o + x] = sum;
      }
    }
    sums.fill(0);
    for (let d = -r; d <= r; d++) {
      const o = reflect101(d, H) * W;
      for (let x = 0; x < W; x++) sums[x] = sums[x]! + rows[o + x]!;
    }
    const norm = 1 / (k * k);
    for (let x = 0; x < W; x++) m[x] = sums[x]! * norm;
    for (let y = 1; y < H; y++) {
      const add = (y + r < H ? y + r : reflect101(y + r, H)) * W;
      const drop = (y - r - 1 >= 0 ? y - r - 1 : reflect101(y - r - 1, H)) * W;
      const o = y * W;
      for (let x = 0; x < W; x++) {
        sums[x] = sums[x]! + rows[add + x]! - rows[drop + x]!;
        m[o + x] = sums[x]! * norm;
      }
    }
  }
}

/**
 * The structure tensor's coherence (l1 - l2) / (l1 + l2) in [0, 1] at every pixel of an RGB photo
 * (W x H): J the box mean over (2 radius + 1)^2 pixels of the Sobel gradients' outer product
 * [gx^2, gx gy; gx gy, gy^2] (sobelPass), l1 >= l2 its eigenvalues, so
 * l1 - l2 = sqrt((Jxx - Jyy)^2 + 4 Jxy^2) and l1 + l2 = Jxx + Jyy; 0 where there is no gradient.
 * 1 along a straight edge or line of any width up to the window (its two edges' gradients point
 * opposite ways, the outer product does not see the sign), near 0 where edges run every way.
 */
export function structureCoherence(rgb: Uint8Array, W: number, H: number, radius = COHERENCE_RADIUS): Float32Array {
  return sobelWithCoherence(rgb, W, H, radius).coherence;
}

/**
 * sobelMagnitudeMap and structureCoherence of one photo from one Sobel pass (what `detect
 * --coherence-gate` needs per photo): the same maps as the two functions, bit for bit.
 */
export function sobelWithCoherence(rgb: Uint8Array, W: number, H: number, radius = COHERENCE_RADIUS): { sobel: Float32Array; coherence: Float32Array } {
  if (!(Number.isInteger(radius) && radius >= 1)) throw new RangeError(`structureCoherence: radius ${radius}, expected an integer >= 1`);
  const sobel = new Float32Array(W * H);
  const xx = new Float32Array(W * H);
  const yy = new Float32Array(W * H);
  const xy = new Float32Array(W * H);
  sobelPass(rgb, W, H, (i, gx, gy) => {
    sobel[i] = sobelMagnitude(gx, gy);
    xx[i] = gx * gx;
    yy[i] = gy * gy;
    xy[i] = gx * gy;
  });
  boxMeans([xx, yy, xy], W, H, radius);
  const coherence = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) {
    const a = xx[i]!;
    const b = yy[i]!;
    const c = xy[i]!;
    const trace = a + b;
    // below 1e-12 the window is flat grey (float noise of a constant photo): no orientation
    coherence[i] = trace > 1e-12 ? Math.min(1, Math.sqrt((a - b) * (a - b) + 4 * c * c) / trace) : 0;
  }
  return { sobel, coherence };
}

/** The coherence gate's edges: s c per pixel (Float32) with its floored 99th percentile. */
export function coherenceGateEdges(sobel: ArrayLike<number>, coherence: ArrayLike<number>): GateEdges {
  if (coherence.length !== sobel.length) throw new RangeError(`coherenceGate: Sobel map has ${sobel.length} pixels, coherence map ${coherence.length}`);
  const e = new Float32Array(sobel.length);
  for (let i = 0; i < e.length; i++) e[i] = sobel[i]! * coherence[i]!;
  return gateEdgesOf(e);
}

/** The coherence gate of the file comment: edgeGate with the Sobel magnitude s replaced by s c. */
export function coherenceGate(p: ArrayLike<number>, sobel: ArrayLike<number>, coherence: ArrayLike<number>): Float32Array {
  return applyGate(p, coherenceGateEdges(sobel, coherence));
}
