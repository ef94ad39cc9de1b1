/**
 * Message rate over a sliding window of receive times, as `ros2 topic hz` reports it
 * (ros2cli ros2topic/verb/hz.py: rate = 1 / mean interval; min, max and std dev of intervals;
 * window = number of messages kept, default 10000).
 */
export class HzStats {
  readonly #window: number;
  readonly #times: bigint[] = [];

  constructor(window = 10000) {
    if (!Number.isInteger(window) || window < 2) throw new RangeError(`HzStats window=${window}, expected an integer >= 2`);
    this.#window = window;
  }

  add(timeNs: bigint): void {
    this.#times.push(timeNs);
    if (this.#times.length > this.#window) this.#times.shift();
  }

  get count(): number {
    return this.#times.length;
  }

  /** The report, or undefined with fewer than two messages. */
  report(): { rateHz: number; minS: number; maxS: number; stdDevS: number; window: number } | undefined {
    const n = this.#times.length;
    if (n < 2) return undefined;
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    const dts: number[] = [];
    for (let i = 1; i < n; i++) {
      const dt = Number((this.#times[i] as bigint) - (this.#times[i - 1] as bigint)) / 1e9;
      dts.push(dt);
      sum += dt;
      if (dt < min) min = dt;
      if (dt > max) max = dt;
    }
    const mean = sum / dts.length;
    let v = 0;
    for (const dt of dts) v += (dt - mean) * (dt - mean);
    return { rateHz: mean > 0 ? 1 / mean : Infinity, minS: min, maxS: max, stdDevS: Math.sqrt(v / dts.length), window: n };
  }

  /** "average rate: x\n\tmin: ...s max: ...s std dev: ...s window: N" (ros2 topic hz's format). */
  format(): string | undefined {
    const r = this.report();
    if (r === undefined) return undefined;
    return `average rate: ${r.rateHz.toFixed(3)}\n\tmin: ${r.minS.toFixed(3)}s max: ${r.maxS.toFixed(3)}s std dev: ${r.stdDevS.toFixed(5)}s window: ${r.window}`;
  }
}
