/**
 * The worker-thread paths of issue 13 (compiled dist/ workers, as `fit-harness` and `eval
 * --harness` run them): one and two workers give the same flights, samples and rows, in seed and
 * job order. Flown on the short wire-across scene (40 m) with the committed student detector.
 */
import * as path from "node:path";
import { seedsOfSplit } from "../../../sim";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { HARNESS_PART_SEEDS, harnessRowParts, runHarnessRowJobs, type HarnessRowJob } from "../../../src/harness/data/node/harnessRowsParallel";
import { flySpatialRolloutsParallel, type SpatialRolloutJob } from "../../../src/harness/data/node/spatialRolloutsParallel";
import { WIRE_ACROSS } from "../eval/wireAcross";

jest.setTimeout(240_000);

const STUDENT = path.join(__dirname, "..", "..", "..", "models", "pipeline", "student");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("spatial harness work on worker threads", () => {
  it("rollouts: 2 workers give the flights of 1 worker, in seed order", async () => {
    const job: SpatialRolloutJob = { scenario: WIRE_ACROSS, split: "train", controlPeriod_s: 0.25, detectorDir: STUDENT, recordEvery: 8, horizonSteps: 10, perturbed: false };
    const seeds = seedsOfSplit("train", 2);
    const one = await flySpatialRolloutsParallel(job, seeds, 1);
    const two = await flySpatialRolloutsParallel(job, seeds, 2);
    expect(two.map((f) => f.seed)).toEqual(seeds);
    expect(two.map((f) => f.outcome)).toEqual(one.map((f) => f.outcome));
    expect(two.map((f) => f.samples.length)).toEqual(one.map((f) => f.samples.length));
    expect(Array.from(two[1]!.samples[0]!.sgt)).toEqual(Array.from(one[1]!.samples[0]!.sgt));
    await expect(flySpatialRolloutsParallel(job, seedsOfSplit("test", 1), 2)).rejects.toThrow(/test/);
  });

  it("eval rows: 2 workers give the rows of 1 worker, in job order", async () => {
    const seeds = seedsOfSplit("test", 1);
    const base = { scenario: WIRE_ACROSS, split: "test" as const, controlPeriod_s: 0.25, seeds, apEvery: 8 };
    const jobs: HarnessRowJob[] = [
      { ...base, condition: "nominal", arm: { name: "a", detectorDir: STUDENT, apply: false } },
      { ...base, condition: "perturbed", arm: { name: "b", detectorDir: STUDENT, apply: false } },
    ];
    const one = await runHarnessRowJobs(jobs, 1);
    const two = await runHarnessRowJobs(jobs, 2);
    expect(two.map((r) => r.name)).toEqual(["a", "b"]);
    expect(two.map((r) => r.flights.map((f) => f.outcome))).toEqual(one.map((r) => r.flights.map((f) => f.outcome)));
    expect(two.map((r) => r.apAll.wire)).toEqual(one.map((r) => r.apAll.wire));
  });

  it("one row of one condition is cut into parts for the spare worker and put back together: the row of 1 worker, whole", async () => {
    const seeds = seedsOfSplit("test", 3);
    const job: HarnessRowJob = { scenario: WIRE_ACROSS, split: "test", controlPeriod_s: 0.25, seeds, apEvery: 4, condition: "nominal", arm: { name: "a", detectorDir: STUDENT, apply: false } };
    expect(harnessRowParts([job], 2).map((p) => p.job.seeds)).toEqual([seeds.slice(0, 2), seeds.slice(2)]);
    const done: string[] = [];
    const [one] = await runHarnessRowJobs([job], 1);
    const [two] = await runHarnessRowJobs([job], 2, (j, row) => done.push(`${j.arm.name}:${row.flights.length}`));
    expect(done).toEqual(["a:3"]);
    expect(one!.frames.all).toBeGreaterThan(0);
    expect(one!.apAll.positives.wire).toBeGreaterThan(0);
    expect(two).toEqual(one);
  });
});

describe("harnessRowParts", () => {
  const job = (name: string, n: number): HarnessRowJob => ({ scenario: WIRE_ACROSS, split: "test", controlPeriod_s: 0.25, seeds: Array.from({ length: n }, (_, i) => 10 * i), apEvery: 4, condition: "nominal", arm: { name, detectorDir: STUDENT, apply: false } });
  const cut = (jobs: HarnessRowJob[], workers: number): [number, number[]][] => harnessRowParts(jobs, workers).map((p) => [p.of, p.job.seeds]);

  it("keeps jobs whole when there are as many jobs as workers or more", () => {
    expect(cut([job("a", 3), job("b", 2)], 2)).toEqual([[0, [0, 10, 20]], [1, [0, 10]]]);
    expect(cut([job("a", 3), job("b", 2), job("c", 1)], 2).map(([of]) => of)).toEqual([0, 1, 2]);
    expect(cut([job("a", 5)], 1)).toEqual([[0, [0, 10, 20, 30, 40]]]);
  });

  it("cuts each job into contiguous parts in seed order, none empty, every seed once", () => {
    expect(cut([job("a", 5)], 2)).toEqual([[0, [0, 10, 20]], [0, [30, 40]]]);
    expect(cut([job("a", 1)], 2)).toEqual([[0, [0]]]);
    expect(cut([job("a", 7)], 3)).toEqual([[0, [0, 10, 20]], [0, [30, 40, 50]], [0, [60]]]);
    expect(cut([job("a", 4)], 8)).toEqual([[0, [0]], [0, [10]], [0, [20]], [0, [30]]]);
    expect(cut([job("a", 0)], 2)).toEqual([[0, []]]);
  });

  it("holds no more than HARNESS_PART_SEEDS seeds in a part, so a long row reports progress", () => {
    expect(HARNESS_PART_SEEDS).toBe(10);
    const sizes = (jobs: HarnessRowJob[], workers: number, max?: number): number[] => harnessRowParts(jobs, workers, max).map((p) => p.job.seeds.length);
    expect(sizes([job("a", 25)], 1)).toEqual([10, 10, 5]);
    expect(sizes([job("a", 25)], 2)).toEqual([10, 10, 5]);
    expect(sizes([job("a", 12), job("b", 3)], 2)).toEqual([10, 2, 3]);
    expect(sizes([job("a", 7)], 2, 3)).toEqual([3, 3, 1]);
    expect(harnessRowParts([job("a", 25)], 2).flatMap((p) => p.job.seeds)).toEqual(job("a", 25).seeds);
    expect(() => harnessRowParts([job("a", 5)], 2, 0)).toThrow(/maxSeeds=0, expected an integer >= 1/);
  });
});

