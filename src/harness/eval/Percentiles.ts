/**
 * Latency percentiles. Uses linear interpolation between closest ranks (the "R-7" definition,
 * Hyndman & Fan 1996, the default of numpy.percentile and of R's quantile()), so p50 of [1, 2]
 * is 1.5. NaN for an empty sample.
 */
export function percentile(values: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`p=${p}, expected a percentile in [0, 100]`);
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const h = ((n - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (h - lo) * (b - a);
}

export type LatencySummary = { n: number; p50_ms: number; p99_ms: number; mean_ms: number };

export function summarizeLatency(samples_ms: ArrayLike<number>): LatencySummary {
  let sum = 0;
  for (let i = 0; i < samples_ms.length; i++) sum += samples_ms[i]!;
  return {
    n: samples_ms.length,
    p50_ms: percentile(samples_ms, 50),
    p99_ms: percentile(samples_ms, 99),
    mean_ms: samples_ms.length === 0 ? Number.NaN : sum / samples_ms.length,
  };
}
