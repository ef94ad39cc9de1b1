/**
 * Receive rate and latency statistics over a fixed window, for /diagnostics. Recording is
 * allocation-free (preallocated rings); the summary (called at 1 Hz) sorts a preallocated copy.
 */
export type RateSummary = { count: number; rate_hz: number; latencyP50_ms: number; latencyP99_ms: number; latencyMax_ms: number };

export class RateStats {
  private readonly times: BigInt64Array;
  private readonly latencies: Float64Array;
  private readonly scratch: Float64Array;
  private next = 0;
  private filled = 0;
  private total = 0;

  /** `capacity` events are kept (default 256). */
  constructor(capacity = 256) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError(`capacity=${capacity}, expected an integer >= 2`);
    this.times = new BigInt64Array(capacity);
    this.latencies = new Float64Array(capacity);
    this.scratch = new Float64Array(capacity);
  }

  /** Records one event at node time `nowNs` with an optional processing latency in ms (NaN = none). */
  record(nowNs: bigint, latency_ms = Number.NaN): void {
    this.times[this.next] = nowNs;
    this.latencies[this.next] = latency_ms;
    this.next = (this.next + 1) % this.times.length;
    if (this.filled < this.times.length) this.filled++;
    this.total++;
  }

  get count(): number {
    return this.total;
  }

  clear(): void {
    this.next = 0;
    this.filled = 0;
  }

  /** Rate over the events kept within `window_s` before `nowNs`, and latency percentiles (nearest rank). */
  summary(nowNs: bigint, window_s = 5): RateSummary {
    const cap = this.times.length;
    const windowNs = BigInt(Math.round(window_s * 1e9));
    let n = 0, m = 0;
    let oldest: bigint | undefined;
    for (let k = 0; k < this.filled; k++) {
      const i = (this.next - 1 - k + cap) % cap;
      const t = this.times[i] as bigint;
      if (nowNs - t > windowNs || t > nowNs) break;
      oldest = t;
      n++;
      const l = this.latencies[i]!;
      if (!Number.isNaN(l)) this.scratch[m++] = l;
    }
    let rate = 0;
    if (n >= 2 && oldest !== undefined) {
      const newest = this.times[(this.next - 1 + cap) % cap] as bigint;
      const span = Number(newest - oldest) / 1e9;
      rate = span > 0 ? (n - 1) / span : 0;
    }
    const sorted = this.scratch.subarray(0, m).sort();
    const pick = (q: number): number => (m === 0 ? Number.NaN : sorted[Math.min(m - 1, Math.ceil(q * m) - 1)]!);
    return { count: this.total, rate_hz: rate, latencyP50_ms: pick(0.5), latencyP99_ms: pick(0.99), latencyMax_ms: m === 0 ? Number.NaN : sorted[m - 1]! };
  }
}
