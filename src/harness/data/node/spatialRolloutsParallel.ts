/**
 * The spatial harness's on-policy rollouts on both cores (issue 13 item 3: "everything in
 * worker_threads"): seeds are taken from a shared queue by `workers` worker_threads
 * (spatialRolloutWorker.ts), each with its own simulators, detector and harness loaded from
 * files; flights come back as plain typed arrays. A flight's samples do not depend on which
 * worker flew it, so the result is the same for any number of workers (returned in seed order).
 */
import * as os from "node:os";
import { splitOfSeed, type Scenario } from "../../../../sim";
import { initBackend } from "../../backend";
import { loadSpatialHarness, loadTeacher } from "../../modelfile";
import { flySpatialRollout, type RiskTarget, type SpatialFlight } from "../../spatial/spatialRollouts";
import type { RiskPolicyOptions } from "../../spatial/riskSampling";
import { SeedSource, type Split } from "../SeedSplit";
import { simEnvironmentFactory } from "../simEnvironment";
import { compiledWorkerScript, runWorkerQueue } from "./workerQueue";

export type SpatialRolloutJob = {
  scenario: Scenario;
  split: Split;
  controlPeriod_s: number;
  /** A `drone-harness fit` detector directory (teacher.model.json of the student size). */
  detectorDir: string;
  /** A spatial harness directory whose correction flies with the student (later rounds). */
  harnessDir?: string;
  /** The applied harness's per-region clip; default 0.5. */
  regionClip?: number;
  recordEvery: number;
  horizonSteps: number;
  perturbed: boolean;
  /** flySpatialRollout's riskTarget. Default "collision". */
  riskTarget?: RiskTarget;
  /** flySpatialRollout's policy (the PPO ablation: the applied harness's regions drawn on/off). */
  policy?: RiskPolicyOptions;
};

/** Loads the job's detector and harness and returns a function flying one seed (in this thread). */
export async function spatialFlyer(job: SpatialRolloutJob): Promise<(seed: number) => SpatialFlight> {
  await initBackend();
  const detector = (await loadTeacher(job.detectorDir)).model;
  const harness = job.harnessDir === undefined ? undefined : (await loadSpatialHarness(job.harnessDir)).model;
  const source = new SeedSource(job.split, splitOfSeed);
  const factory = simEnvironmentFactory(job.scenario, job.split, { controlPeriod_s: job.controlPeriod_s });
  return (seed) =>
    flySpatialRollout(factory(source.require(seed), { perturbed: job.perturbed }), {
      detector,
      ...(harness === undefined ? {} : { harness }),
      ...(job.regionClip === undefined ? {} : { regionClip: job.regionClip }),
      recordEvery: job.recordEvery,
      horizonSteps: job.horizonSteps,
      ...(job.riskTarget === undefined ? {} : { riskTarget: job.riskTarget }),
      ...(job.policy === undefined ? {} : { policy: job.policy }),
    });
}

export type SpatialRolloutProgress = { done: number; total: number; samples: number; collisions: number; elapsed_s: number; eta_s: number };

/** Flies `seeds` on `workers` threads; onFlight sees each flight as it lands (in landing order), e.g. to write it to a cache. */
export async function flySpatialRolloutsParallel(
  job: SpatialRolloutJob,
  seeds: readonly number[],
  workers: number,
  onProgress?: (p: SpatialRolloutProgress) => void,
  onFlight?: (f: SpatialFlight) => void,
): Promise<SpatialFlight[]> {
  const guard = new SeedSource(job.split, splitOfSeed);
  for (const s of seeds) guard.require(s);
  const flights = new Map<number, SpatialFlight>();
  const t0 = performance.now();
  let samples = 0;
  let collisions = 0;
  const add = (f: SpatialFlight): void => {
    onFlight?.(f);
    flights.set(f.seed, f);
    samples += f.samples.length;
    if (f.outcome.type === "collision") collisions++;
    const elapsed = (performance.now() - t0) / 1000;
    onProgress?.({ done: flights.size, total: seeds.length, samples, collisions, elapsed_s: elapsed, eta_s: (elapsed / flights.size) * (seeds.length - flights.size) });
  };
  const n = Math.max(1, Math.min(workers, seeds.length, os.availableParallelism()));
  if (n === 1) {
    const fly = await spatialFlyer(job);
    for (const seed of seeds) add(fly(seed));
  } else {
    await runWorkerQueue<number, SpatialFlight>(compiledWorkerScript("spatialRolloutWorker"), job, seeds, n, (_, f) => add(f));
  }
  return seeds.map((s) => flights.get(s) as SpatialFlight);
}
