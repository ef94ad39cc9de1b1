/**
 * The split of scenario seeds into train / validation / test. A seed's split is a pure function of
 * the seed (a 32-bit hash, 70 / 15 / 15 %), so no file has to be shared and training code cannot
 * wander into test seeds: `assertSeedInSplit` (used by `createSimulation` when a split is given)
 * refuses a seed from another split with an error naming the seed and both splits.
 */
import { hash32 } from "../src/util/Rng";

export const SPLITS = ["train", "val", "test"] as const;
export type Split = (typeof SPLITS)[number];

/** Percent of the hash space per split: train [0, 70), val [70, 85), test [85, 100). */
const TRAIN_PERCENT = 70;
const VAL_PERCENT = 15;

/** The split a seed belongs to. Seeds must be non-negative integers below 2^32. */
export function splitOfSeed(seed: number): Split {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed=${seed}, expected an integer in [0, 4294967295]`);
  }
  const bucket = hash32(seed ^ 0x5eed5eed) % 100;
  if (bucket < TRAIN_PERCENT) return "train";
  if (bucket < TRAIN_PERCENT + VAL_PERCENT) return "val";
  return "test";
}

/** Throws unless `seed` belongs to `split`. */
export function assertSeedInSplit(seed: number, split: Split): void {
  const actual = splitOfSeed(seed);
  if (actual !== split) {
    throw new RangeError(`seed=${seed} belongs to the "${actual}" split, not "${split}": pick seeds with seedsOfSplit("${split}", n)`);
  }
}

/** The first `count` seeds (ascending from `start`) that belong to `split`. */
export function seedsOfSplit(split: Split, count: number, start = 0): number[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count=${count}, expected a non-negative integer`);
  const out: number[] = [];
  for (let s = start; out.length < count && s <= 0xffffffff; s++) if (splitOfSeed(s) === split) out.push(s);
  return out;
}
