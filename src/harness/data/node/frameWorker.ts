/**
 * worker_threads entry of generateFramesParallel.ts: flies its share of the seeds with the
 * expert (generateFrames) on its own simulator instances and writes each flight to the cache
 * directory; posts one progress message per flight. Runs only from the compiled dist/ tree.
 */
import { parentPort, workerData } from "node:worker_threads";
import { splitOfSeed } from "../../../../sim";
import { generateFrames } from "../generateFrames";
import { SeedSource } from "../SeedSplit";
import { simEnvironmentFactory } from "../simEnvironment";
import { FrameCacheDir } from "./FrameCacheDir";
import { detectorPilot, type FrameJob } from "./generateFramesParallel";

async function run(job: FrameJob): Promise<void> {
  const cache = new FrameCacheDir(job.cacheDir);
  const source = new SeedSource(job.split, splitOfSeed);
  const pilot = job.pilotDetector === undefined ? undefined : await detectorPilot(job.pilotDetector);
  generateFrames({
    ...job.recording,
    ...(pilot === undefined ? {} : { pilot }),
    seeds: job.seeds,
    source,
    factory: simEnvironmentFactory(job.scenario, job.split, { controlPeriod_s: job.controlPeriod_s }),
    stateDim: job.stateDim,
    onFlightFrames: (seed, frames) => {
      cache.write(seed, { width: job.scenario.camera.width, height: job.scenario.camera.height, cell_px: 8 }, job.stateDim, frames);
      parentPort?.postMessage({ type: "flight", seed, frames: frames.length });
      return false;
    },
  });
}

run(workerData as FrameJob).then(
  () => parentPort?.postMessage({ type: "done" }),
  (e: unknown) => parentPort?.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) }),
);
