import { SeedSource, SeedSplitError, type Split } from "../../../src/harness/data/SeedSplit";

// A stand-in for the simulator's split function: seed % 10 -> 0..6 train, 7 val, 8..9 test.
const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");

describe("SeedSource", () => {
  it("hands out only seeds of its own split", () => {
    const test = new SeedSource("test", splitOf);
    const seeds = test.seeds(50);
    expect(seeds.length).toBe(50);
    expect(seeds.every((s) => splitOf(s) === "test")).toBe(true);
    expect(seeds.slice(0, 4)).toEqual([8, 9, 18, 19]);
  });

  it("refuses a training seed in the evaluation loader with an error naming both splits", () => {
    const test = new SeedSource("test", splitOf);
    expect(() => test.require(3)).toThrow(SeedSplitError);
    expect(() => test.require(3)).toThrow("seed 3 belongs to the train split; this test loader may only read test seeds");
    const val = new SeedSource("val", splitOf);
    expect(() => val.require(8)).toThrow(/belongs to the test split/);
    expect(val.require(17)).toBe(17);
    expect(() => val.require(-1)).toThrow(/seed=-1, expected a non-negative integer/);
  });
});
