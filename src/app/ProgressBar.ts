/**
 * Progress of the main job on stderr: on a terminal one line redrawn with \r (at most every
 * `minIntervalMs`), otherwise (pipes, CI logs) one plain line per finished flight.
 */
export type ProgressBarOptions = {
  /** Number of flights. */
  total: number;
  write: (text: string) => void;
  isTTY: boolean;
  /** Bar width in characters. Default 24. */
  width?: number;
  /** Redraw interval on a terminal, ms. Default 100. */
  minIntervalMs?: number;
  now?: () => number;
};

export class ProgressBar {
  readonly #o: Required<ProgressBarOptions>;
  #done = 0;
  #last = -Infinity;
  #drawn = false;

  constructor(options: ProgressBarOptions) {
    if (!Number.isInteger(options.total) || options.total < 1) throw new RangeError(`total=${options.total}, expected an integer >= 1`);
    this.#o = { width: 24, minIntervalMs: 100, now: () => Date.now(), ...options };
  }

  /** The bar for `done` whole flights plus `fraction` of the current one. */
  bar(fraction: number): string {
    const f = Math.min(1, Math.max(0, (this.#done + Math.min(1, Math.max(0, fraction))) / this.#o.total));
    const n = Math.round(f * this.#o.width);
    return `[${"#".repeat(n)}${".".repeat(this.#o.width - n)}] ${(f * 100).toFixed(0).padStart(3)}%`;
  }

  /** The current flight moved on (`fraction` of its duration, `label` e.g. "seed 7 harness on t=3.2 s"). */
  update(fraction: number, label: string): void {
    if (!this.#o.isTTY) return;
    const t = this.#o.now();
    if (t - this.#last < this.#o.minIntervalMs) return;
    this.#last = t;
    this.#o.write(`\r${this.bar(fraction)} ${this.#done + 1}/${this.#o.total} ${label}\u001b[K`);
    this.#drawn = true;
  }

  /** A flight finished; `line` describes it. */
  flightDone(line: string): void {
    this.#done++;
    if (this.#o.isTTY) {
      this.#o.write(`\r${this.bar(0)} ${line}\u001b[K\n`);
      this.#drawn = false;
      this.#last = -Infinity;
    } else {
      this.#o.write(`${this.bar(0)} flight ${this.#done}/${this.#o.total}: ${line}\n`);
    }
  }

  /** Ends a half-drawn terminal line (before other output). */
  clear(): void {
    if (this.#o.isTTY && this.#drawn) this.#o.write("\r\u001b[K");
    this.#drawn = false;
  }
}
