/**
 * Expert-flight frame recording on all cores (issue 12 item 5): the seeds not yet in the cache
 * are dealt round-robin to `workers` worker_threads (frameWorker.ts), each flying its own
 * simulators and writing whole flights to the cache; the main thread reports progress with an
 * ETA. Flights are independent and each has its own RNG (generateFrames.flightRng), so the cache
 * holds the same frames for any number of workers. With workers = 1 everything runs inline.
 */
import * as os from "node:os";
import * as path from "node:path";
import * as fs from "node:fs";
import { Worker } from "node:worker_threads";
import { splitOfSeed, type Scenario } from "../../../../sim";
import type { Split } from "../SeedSplit";
import { SeedSource } from "../SeedSplit";
import { generateFrames, type GenerateOptions } from "../generateFrames";
import { simEnvironmentFactory } from "../simEnvironment";
import { FrameCacheDir } from "./FrameCacheDir";
import { initBackend } from "../../backend";
import { PlannerPilot } from "../../eval/PlannerPilot";
import { loadTeacher } from "../../modelfile";
import { STATE_DIM } from "../../models/stateVector";

/** The recording settings that travel to a worker (plain data). */
export type FrameRecording = Pick<GenerateOptions, "recordEvery" | "threatRecordEvery" | "maxFramesPerFlight" | "explore" | "rngSeed" | "perturbed" | "preCollision_s">;

export type FrameJob = {
  scenario: Scenario;
  split: Split;
  seeds: number[];
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
};

export type ParallelOptions = Omit<FrameJob, "seeds"> & {
  seeds: readonly number[];
  /** Worker threads; default min(2, cores). 1 runs in this thread. */
  workers?: number;
  /** Progress: flights done of total, frames, seconds elapsed, ETA in seconds. */
  onProgress?: (p: { done: number; total: number; frames: number; elapsed_s: number; eta_s: number }) => void;
};

export type ParallelResult = { flown: number; skipped: number; frames: number; elapsed_s: number; workers: number };

/** The planner on a saved detector's near-threat output, as a generateFrames pilot (initialises the tfjs backend). */
export async function detectorPilot(dir: string): Promise<NonNullable<GenerateOptions["pilot"]>> {
  await initBackend();
  const planner = new PlannerPilot({ type: "detector", detector: (await loadTeacher(dir)).model });
  const state = new Float32Array(STATE_DIM);
  return (env, rgb) => planner.act(rgb, state, env);
}

/** Path of the compiled worker script (workers run JavaScript: dist/ must be built). */
export function frameWorkerScript(): string {
  const here = path.join(__dirname, "frameWorker.js");
  if (fs.existsSync(here)) return here;
  // Under ts-jest __dirname is the source tree: use the compiled twin in dist/.
  const root = path.resolve(__dirname, "..", "..", "..", "..");
  const built = path.join(root, "dist", "src", "harness", "data", "node", "frameWorker.js");
  if (!fs.existsSync(built)) throw new Error(`${built} not found: run "npm run build" first (worker threads run the compiled JavaScript)`);
  return built;
}

export async function generateFramesParallel(options: ParallelOptions): Promise<ParallelResult> {
  const cache = new FrameCacheDir(options.cacheDir);
  cache.open({
    version: 1,
    scenario: options.scenario.name,
    split: options.split,
    recording: { ...options.recording, controlPeriod_s: options.controlPeriod_s, stateDim: options.stateDim, pilot: options.pilotDetector ?? "expert" },
  });
  const todo = options.seeds.filter((s) => !cache.has(s));
  const workers = Math.max(1, Math.min(options.workers ?? Math.min(2, os.availableParallelism()), todo.length));
  const t0 = performance.now();
  let done = 0;
  let frames = 0;
  const report = (): void => {
    const elapsed = (performance.now() - t0) / 1000;
    options.onProgress?.({ done, total: todo.length, frames, elapsed_s: elapsed, eta_s: done === 0 ? NaN : (elapsed / done) * (todo.length - done) });
  };
  const base: Omit<FrameJob, "seeds"> = {
    scenario: options.scenario,
    split: options.split,
    controlPeriod_s: options.controlPeriod_s,
    stateDim: options.stateDim,
    recording: options.recording,
    cacheDir: options.cacheDir,
    ...(options.pilotDetector === undefined ? {} : { pilotDetector: options.pilotDetector }),
  };
  if (todo.length === 0) return { flown: 0, skipped: options.seeds.length, frames: 0, elapsed_s: 0, workers: 0 };
  if (workers === 1) {
    const grid = { width: options.scenario.camera.width, height: options.scenario.camera.height, cell_px: 8 };
    const pilot = options.pilotDetector === undefined ? undefined : await detectorPilot(options.pilotDetector);
    generateFrames({
      ...options.recording,
      ...(pilot === undefined ? {} : { pilot }),
      seeds: todo,
      source: new SeedSource(options.split, splitOfSeed),
      factory: simEnvironmentFactory(options.scenario, options.split, { controlPeriod_s: options.controlPeriod_s }),
      stateDim: options.stateDim,
      onFlightFrames: (seed, f) => {
        cache.write(seed, grid, options.stateDim, f);
        done++;
        frames += f.length;
        report();
        return false;
      },
    });
  } else {
    const script = frameWorkerScript();
    // Split-check every seed here too, before any worker starts (the workers check again).
    const guard = new SeedSource(options.split, splitOfSeed);
    for (const s of todo) guard.require(s);
    const shares = Array.from({ length: workers }, (_, w) => todo.filter((_, i) => i % workers === w));
    const running: Worker[] = [];
    // When one worker fails the others are stopped before the call rejects: nothing keeps
    // writing into the cache after the caller has seen the error.
    const all = Promise.all(
      shares.map(
        (seeds) =>
          new Promise<void>((resolve, reject) => {
            const worker = new Worker(script, { workerData: { ...base, seeds } satisfies FrameJob });
            running.push(worker);
            let failed = false;
            worker.on("message", (m: { type: "flight"; frames: number } | { type: "done" } | { type: "error"; message: string }) => {
              switch (m.type) {
                case "flight":
                  done++;
                  frames += m.frames;
                  report();
                  break;
                case "done":
                  break;
                case "error":
                  failed = true;
                  reject(new Error(`frame worker: ${m.message}`));
                  break;
              }
            });
            worker.on("error", (e) => {
              failed = true;
              reject(e);
            });
            worker.on("exit", (code) => {
              if (failed) return;
              if (code === 0) resolve();
              else reject(new Error(`frame worker exited with code ${code}`));
            });
          }),
      ),
    );
    try {
      await all;
    } catch (e) {
      await Promise.all(running.map((w) => w.terminate()));
      throw e;
    }
  }
  return { flown: todo.length, skipped: options.seeds.length - todo.length, frames, elapsed_s: (performance.now() - t0) / 1000, workers };
}
