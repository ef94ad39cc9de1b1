/**
 * Seed discipline (SPEC "How results are measured": held-out scenes). Training reads only
 * train-split seeds, validation only val seeds, evaluation only test seeds. The split of a seed
 * is decided by the simulator (one source of truth, injected as `splitOf`); a SeedSource refuses
 * any seed of another split with an error, so a loader cannot read a scene it must not see.
 */
export const SPLITS = ["train", "val", "test"] as const;
export type Split = (typeof SPLITS)[number];
export type SplitOf = (seed: number) => Split;

export class SeedSplitError extends Error {
  override readonly name = "SeedSplitError";
}

export function parseSplit(text: string): Split {
  const s = SPLITS.find((x) => x === text);
  if (s === undefined) throw new RangeError(`split="${text}", expected one of ${SPLITS.join(", ")}`);
  return s;
}

export class SeedSource {
  /** Every seed this source handed out or accepted, in order (for audits and tests). */
  readonly issued: number[] = [];

  constructor(
    readonly split: Split,
    private readonly splitOf: SplitOf,
  ) {}

  /** Returns `seed` if it belongs to this source's split, else throws SeedSplitError. */
  require(seed: number): number {
    if (!Number.isInteger(seed) || seed < 0) throw new RangeError(`seed=${seed}, expected a non-negative integer`);
    const actual = this.splitOf(seed);
    if (actual !== this.split) {
      throw new SeedSplitError(`seed ${seed} belongs to the ${actual} split; this ${this.split} loader may only read ${this.split} seeds`);
    }
    this.issued.push(seed);
    return seed;
  }

  /**
   * The first `count` seeds of this split at or after `start`, scanning upward (a fixed,
   * reproducible set, e.g. the 50 evaluation flights). Throws if the scan exceeds `maxScan`.
   */
  seeds(count: number, start = 0, maxScan = 1_000_000): number[] {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`count=${count}, expected a non-negative integer`);
    const out: number[] = [];
    for (let s = start; out.length < count; s++) {
      if (s - start > maxScan) {
        throw new RangeError(`found only ${out.length} of ${count} ${this.split} seeds in [${start}, ${s}); maxScan=${maxScan}`);
      }
      if (this.splitOf(s) === this.split) out.push(this.require(s));
    }
    return out;
  }
}
