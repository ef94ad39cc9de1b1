/**
 * The worker-thread paths of issue 13 (compiled dist/ workers, as `fit-harness` and `eval
 * --harness` run them): one and two workers give the same flights, samples and rows, in seed and
 * job order. Flown on the short wire-across scene (40 m) with the committed student detector.
 */
import * as path from "node:path";
import { seedsOfSplit } from "../../../sim";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { runHarnessRowJobs, type HarnessRowJob } from "../../../src/harness/data/node/harnessRowsParallel";
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
});
