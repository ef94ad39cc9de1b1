/**
 * Bounded replay buffer of harness training samples (SPEC "Policy Diagnostics": S_gt is computed
 * by finite differences, eps = 0.01, once, when a sample enters the buffer; seed section 3.3:
 * "S_gt is expensive, so compute it once ... and store it in the replay buffer").
 *
 * The S_gt function is injected (the harness package's finite-difference routine), so the buffer
 * calls it exactly once per insert and never again, whatever is sampled later. When full, the
 * oldest sample is overwritten (ring buffer).
 */
import type { Rng } from "../../util/Rng";

export type ReplayEntry<Sample> = {
  sample: Sample;
  /** S_gt, [actions, features] row-major, computed on insert. */
  sGt: Float32Array;
};

export type SensitivityFn<Sample> = (sample: Sample) => Float32Array;

export class ReplayBuffer<Sample> {
  private readonly entries: ReplayEntry<Sample>[] = [];
  private next = 0;
  /** Number of S_gt evaluations so far (equals the number of inserts). */
  sGtEvaluations = 0;

  constructor(
    readonly capacity: number,
    private readonly computeSgt: SensitivityFn<Sample>,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity=${capacity}, expected a positive integer`);
  }

  get size(): number {
    return this.entries.length;
  }

  insert(sample: Sample): ReplayEntry<Sample> {
    const sGt = this.computeSgt(sample);
    this.sGtEvaluations++;
    for (let i = 0; i < sGt.length; i++) {
      if (!Number.isFinite(sGt[i])) throw new RangeError(`S_gt[${i}]=${sGt[i]}, expected a finite number`);
    }
    const entry: ReplayEntry<Sample> = { sample, sGt };
    if (this.entries.length < this.capacity) this.entries.push(entry);
    else this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    return entry;
  }

  /** `n` entries drawn uniformly with replacement. */
  sample(n: number, rng: Rng): ReplayEntry<Sample>[] {
    if (this.entries.length === 0) throw new RangeError("cannot sample from an empty replay buffer (size=0)");
    const out: ReplayEntry<Sample>[] = [];
    for (let i = 0; i < n; i++) out.push(this.entries[rng.int(this.entries.length)] as ReplayEntry<Sample>);
    return out;
  }

  /** All entries, oldest first order not guaranteed. */
  all(): readonly ReplayEntry<Sample>[] {
    return this.entries;
  }
}
