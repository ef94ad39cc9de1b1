/**
 * Expert-flight frame recording on all cores (issue 12 item 5): the seeds not yet in the cache
 * are taken one at a time from a shared queue (workerQueue.ts) by `workers` worker_threads
 * (frameWorker.ts), each flying its own simulators and writing whole flights to the cache; the
 * main thread reports progress with an ETA. Flights are independent and each has its own RNG
 * (generateFrames.flightRng), so the cache holds the same frames for any number of workers and
 * any order of completion. With workers = 1 everything runs inline.
 */
import * as os from "node:os";
import { splitOfSeed, type Scenario } from "../../../../sim";
import type { Split } from "../SeedSplit";
import { SeedSource } from "../SeedSplit";
import { generateFrames, type GenerateOptions } from "../generateFrames";
import { generateViews, type ViewOptions } from "../simViews";
import { simEnvironmentFactory } from "../simEnvironment";
import { FrameCacheDir } from "./FrameCacheDir";
import { compiledWorkerScript, runWorkerQueue } from "./workerQueue";
import { STATE_DIM } from "../../models/stateVector";

/** The recording settings that travel to a worker (plain data). */
export type FrameRecording = Pick<GenerateOptions, "recordEvery" | "threatRecordEvery" | "maxFramesPerFlight" | "explore" | "rngSeed" | "perturbed" | "preCollision_s">;

/** What every flight of one recording run shares (plain data: it is each worker's workerData). */
export type FrameRun = {
  scenario: Scenario;
  split: Split;
  controlPeriod_s: number;
  stateDim: number;
  recording: FrameRecording;
  cacheDir: string;
  /**
   * Fly the local planner on this detector's near-threat output (a `drone-harness fit` model
   * directory) instead of the expert with random exploration: the frames the planner visits,
   * labelled by the simulator and the expert (DAgger style). Default: the expert.
   */
  pilotDetector?: string;
  /**
   * A spatial harness directory whose correction is applied to the pilot detector's cells while it
   * flies (the student phase of a later co-evolution round: the frames the student + harness pair
   * visits), with its per-region clip. Needs `pilotDetector`.
   */
  pilotHarness?: { dir: string; regionClip?: number };
  /**
   * Render overhead views of each seed's world instead of flying it (generateViews.ts: wires seen
   * from above against the ground, for detector training). Default: flights.
   */
  views?: ViewOptions;
};

export type ParallelOptions = FrameRun & {
  seeds: readonly number[];
  /** Worker threads; default min(2, cores). 1 runs in this thread. */
  workers?: number;
  /** Progress: flights done of total, frames, seconds elapsed, ETA in seconds. */
  onProgress?: (p: { done: number; total: number; frames: number; elapsed_s: number; eta_s: number }) => void;
};

export type ParallelResult = { flown: number; skipped: number; frames: number; elapsed_s: number; workers: number };

/**
 * The planner on a saved detector's near-threat output, as a generateFrames pilot (initialises the
 * tfjs backend). The tensor library is loaded here, on first use, not at import: expert-flight
 * workers never need it and start about 0.3 s sooner.
 */
export async function detectorPilot(dir: string, harness?: FrameRun["pilotHarness"]): Promise<NonNullable<GenerateOptions["pilot"]>> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (see above) */
  const { initBackend } = require("../../backend") as typeof import("../../backend");
  const { PlannerPilot } = require("../../eval/PlannerPilot") as typeof import("../../eval/PlannerPilot");
  const { loadSpatialHarness, loadTeacher } = require("../../modelfile") as typeof import("../../modelfile");
  /* eslint-enable @typescript-eslint/no-require-imports */
  await initBackend();
  const detector = (await loadTeacher(dir)).model;
  const applied =
    harness === undefined
      ? {}
      : { harness: { model: (await loadSpatialHarness(harness.dir)).model, apply: true, ...(harness.regionClip === undefined ? {} : { options: { regionClip: harness.regionClip } }) } };
  const planner = new PlannerPilot({ type: "detector", detector, ...applied });
  const state = new Float32Array(STATE_DIM);
  // reset (generateFrames, at each flight's start): the harness's rates, lambda schedule and texture gain start over.
  return { reset: () => planner.reset(), act: (env, rgb) => planner.act(rgb, state, env) };
}

/** Path of the compiled worker script (workers run JavaScript: dist/ must be built). */
export function frameWorkerScript(): string {
  return compiledWorkerScript("frameWorker");
}

/**
 * Opens what a run's flights need (simulator factory, split guard, the detector pilot if any) and
 * returns a function that flies one seed, writes its flight to the cache and returns its frame
 * count (in this thread).
 */
export async function frameRecorder(run: FrameRun): Promise<(seed: number) => number> {
  const cache = new FrameCacheDir(run.cacheDir);
  const source = new SeedSource(run.split, splitOfSeed);
  const factory = simEnvironmentFactory(run.scenario, run.split, { controlPeriod_s: run.controlPeriod_s });
  const grid = { width: run.scenario.camera.width, height: run.scenario.camera.height, cell_px: 8 };
  const views = run.views;
  if (views !== undefined) {
    return (seed) => {
      const frames = generateViews({ scenario: run.scenario, split: run.split, stateDim: run.stateDim, rngSeed: run.recording.rngSeed, views }, source.require(seed));
      cache.write(seed, grid, run.stateDim, frames);
      return frames.length;
    };
  }
  if (run.pilotHarness !== undefined && run.pilotDetector === undefined) throw new Error("pilotHarness corrects a pilot detector's cells: set pilotDetector too");
  const pilot = run.pilotDetector === undefined ? undefined : await detectorPilot(run.pilotDetector, run.pilotHarness);
  return (seed) => {
    let frames = 0;
    generateFrames({
      ...run.recording,
      ...(pilot === undefined ? {} : { pilot }),
      seeds: [seed],
      source,
      factory,
      stateDim: run.stateDim,
      onFlightFrames: (s, f) => {
        cache.write(s, grid, run.stateDim, f);
        frames = f.length;
        return false;
      },
    });
    return frames;
  };
}

/** The plain-data part of the options (what travels to the workers). */
function frameRun(options: ParallelOptions): FrameRun {
  return {
    scenario: options.scenario,
    split: options.split,
    controlPeriod_s: options.controlPeriod_s,
    stateDim: options.stateDim,
    recording: options.recording,
    cacheDir: options.cacheDir,
    ...(options.pilotDetector === undefined ? {} : { pilotDetector: options.pilotDetector }),
    ...(options.pilotHarness === undefined ? {} : { pilotHarness: options.pilotHarness }),
    ...(options.views === undefined ? {} : { views: options.views }),
  };
}

export async function generateFramesParallel(options: ParallelOptions): Promise<ParallelResult> {
  const cache = new FrameCacheDir(options.cacheDir);
  cache.open({
    version: 1,
    scenario: options.scenario.name,
    split: options.split,
    recording: {
      ...options.recording,
      controlPeriod_s: options.controlPeriod_s,
      stateDim: options.stateDim,
      pilot: options.views === undefined ? (options.pilotDetector ?? "expert") : "overhead views",
      ...(options.pilotHarness === undefined ? {} : { pilotHarness: options.pilotHarness }),
      ...(options.views === undefined ? {} : { views: options.views }),
    },
  });
  const todo = options.seeds.filter((s) => !cache.has(s));
  if (todo.length === 0) return { flown: 0, skipped: options.seeds.length, frames: 0, elapsed_s: 0, workers: 0 };
  const workers = Math.max(1, Math.min(options.workers ?? Math.min(2, os.availableParallelism()), todo.length));
  const t0 = performance.now();
  let done = 0;
  let frames = 0;
  const flown = (n: number): void => {
    done++;
    frames += n;
    const elapsed = (performance.now() - t0) / 1000;
    options.onProgress?.({ done, total: todo.length, frames, elapsed_s: elapsed, eta_s: (elapsed / done) * (todo.length - done) });
  };
  if (workers === 1) {
    const record = await frameRecorder(frameRun(options));
    for (const seed of todo) flown(record(seed));
  } else {
    const script = frameWorkerScript();
    // Split-check every seed here too, before any worker starts (the workers check again).
    const guard = new SeedSource(options.split, splitOfSeed);
    for (const s of todo) guard.require(s);
    // The first failing flight stops every worker before the call rejects: nothing keeps writing
    // into the cache after the caller has seen the error.
    await runWorkerQueue<number, number>(script, frameRun(options), todo, workers, (_, n) => flown(n));
  }
  return { flown: todo.length, skipped: options.seeds.length - todo.length, frames, elapsed_s: (performance.now() - t0) / 1000, workers };
}
