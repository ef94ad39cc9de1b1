/**
 * Catenary conductor between two attachment points. A hanging cable of uniform weight follows
 * z(s) = a cosh(s / a) + c (e.g. Irvine, "Cable Structures", 1981, ch. 1); for a span of
 * horizontal length L and mid-span sag d the parameter a solves d = a (cosh(L / (2a)) - 1).
 * Attachment points at different heights are handled by adding the straight chord to the
 * symmetric sag curve (exact for equal heights, the usual engineering approximation otherwise).
 */

/** Catenary parameter a (m) for horizontal span L and sag d (both > 0), by bisection. */
export function catenaryParameter(span_m: number, sag_m: number): number {
  if (!(span_m > 0)) throw new RangeError(`span_m=${span_m}, expected > 0`);
  if (!(sag_m > 0)) throw new RangeError(`sag_m=${sag_m}, expected > 0`);
  const half = span_m / 2;
  const sagOf = (a: number): number => a * (Math.cosh(half / a) - 1);
  // sagOf decreases in a; bracket [lo, hi] with sagOf(lo) > d > sagOf(hi).
  let lo = half / 50;
  let hi = Math.max((half * half) / sag_m, 1);
  while (sagOf(hi) > sag_m) hi *= 2;
  for (let i = 0; i < 100; i++) {
    const mid = 0.5 * (lo + hi);
    if (sagOf(mid) > sag_m) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Writes `n + 1` points of the conductor from p0 to p1 (ENU, m) with mid-span sag `sag_m` into
 * `out` (length >= 3 (n + 1)), x, y, z interleaved.
 */
export function catenaryPoints(
  p0: readonly [number, number, number],
  p1: readonly [number, number, number],
  sag_m: number,
  n: number,
  out: Float64Array,
): Float64Array {
  const span = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const a = sag_m > 0 ? catenaryParameter(span, sag_m) : Infinity;
  const half = span / 2;
  const top = Number.isFinite(a) ? a * Math.cosh(half / a) : 0;
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const s = t * span - half;
    const dip = Number.isFinite(a) ? top - a * Math.cosh(s / a) : 0;
    out[3 * i] = p0[0] + (p1[0] - p0[0]) * t;
    out[3 * i + 1] = p0[1] + (p1[1] - p0[1]) * t;
    out[3 * i + 2] = p0[2] + (p1[2] - p0[2]) * t - dip;
  }
  return out;
}
