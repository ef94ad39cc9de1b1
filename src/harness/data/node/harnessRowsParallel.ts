/**
 * The rows of `eval --harness` on both cores: each (condition, row) job flies the seeds of the row
 * in a worker thread (harnessRowWorker.ts), which loads its detector and harness from files; jobs
 * are taken from a shared queue. With fewer jobs than workers (one row of one condition) each
 * job's seeds are cut into contiguous parts, one per spare worker; no part holds more than
 * HARNESS_PART_SEEDS seeds, so a long row reports progress as its parts come in. The parts are put
 * back together in seed order (assembleHarnessRow). A row's result does not depend on the worker that
 * flew it or on how its seeds were cut (a new pilot flies every seed, and flights are
 * deterministic per seed), so 1 and 2 workers give the same report.
 */
import * as os from "node:os";
import { splitOfSeed, type Scenario } from "../../../../sim";
import { initBackend } from "../../backend";
import { assembleHarnessRow, flyHarnessRowPart, type HarnessArm, type HarnessRow, type HarnessRowPart } from "../../eval/harnessRows";
import type { CommitSide, HarnessTarget, LineFill, TruthMix } from "../../eval/PlannerPilot";
import { loadSpatialHarness, loadTeacher } from "../../modelfile";
import type { SpatialHarnessOptions } from "../../runtime/SpatialHarnessRuntime";
import type { Split } from "../SeedSplit";
import { simEnvironmentFactory } from "../simEnvironment";
import { compiledWorkerScript, runWorkerQueue } from "./workerQueue";
import type { PlannerOptions } from "../../../control/LocalPlanner";

/** A row as files: the student detector directory and, optionally, the harness directory. */
export type ArmFiles = { name: string; detectorDir: string; harnessDir?: string; apply: boolean; options?: Partial<SpatialHarnessOptions>; target?: HarnessTarget; truthMix?: TruthMix; lineFill?: LineFill; riskHold?: number; commitSide?: CommitSide };

export type HarnessRowJob = {
  scenario: Scenario;
  split: Split;
  controlPeriod_s: number;
  seeds: number[];
  condition: "nominal" | "perturbed";
  arm: ArmFiles;
  planner?: Partial<PlannerOptions>;
  apEvery: number;
  /** Render the truth at every step and attribute each wire/branch strike (eval/strikeAttribution.ts). */
  attributeStrikes?: boolean;
  /** Record the true path and how every wire conductor was passed (eval/wireCrossings.ts). */
  wireCrossings?: boolean;
};

export async function loadArm(files: ArmFiles): Promise<HarnessArm> {
  await initBackend();
  const detector = (await loadTeacher(files.detectorDir)).model;
  const mix = { ...(files.truthMix === undefined ? {} : { truthMix: files.truthMix }), ...(files.lineFill === undefined ? {} : { lineFill: files.lineFill }), ...(files.commitSide === undefined ? {} : { commitSide: files.commitSide }) };
  if (files.harnessDir === undefined) return { name: files.name, detector, ...mix };
  const model = (await loadSpatialHarness(files.harnessDir)).model;
  return { name: files.name, detector, ...mix, harness: { model, apply: files.apply, ...(files.options === undefined ? {} : { options: files.options }), ...(files.target === undefined ? {} : { target: files.target }), ...(files.riskHold === undefined ? {} : { riskHold: files.riskHold }) } };
}

/** Flies one job (a row, or a part of its seeds) in this thread. */
export async function runHarnessRowJob(job: HarnessRowJob): Promise<HarnessRowPart> {
  const arm = await loadArm(job.arm);
  try {
    return flyHarnessRowPart(arm, job.seeds, job.condition, {
      split: job.split,
      splitOf: splitOfSeed,
      factory: simEnvironmentFactory(job.scenario, job.split, { controlPeriod_s: job.controlPeriod_s }),
      apEvery: job.apEvery,
      ...(job.attributeStrikes === true ? { attributeStrikes: true } : {}),
      ...(job.wireCrossings === true ? { wireCrossings: true } : {}),
      ...(job.planner === undefined ? {} : { planner: job.planner }),
    });
  } finally {
    arm.detector.dispose();
  }
}

/** Largest part of a row flown as one job (about 3 minutes of flights on one core). */
export const HARNESS_PART_SEEDS = 10;

/**
 * The parts the jobs are flown as on `workers` threads: each job cut into ceil(workers / jobs)
 * contiguous parts when there are fewer jobs than workers (else 1), and further so that no part
 * holds more than `maxSeeds` seeds; none empty. `of` is the index of the job a part belongs to;
 * the parts of a job are in seed order.
 */
export function harnessRowParts(jobs: readonly HarnessRowJob[], workers: number, maxSeeds = HARNESS_PART_SEEDS): { of: number; job: HarnessRowJob }[] {
  if (!(Number.isInteger(maxSeeds) && maxSeeds >= 1)) throw new RangeError(`maxSeeds=${maxSeeds}, expected an integer >= 1`);
  const perJob = jobs.length >= workers ? 1 : Math.ceil(workers / Math.max(1, jobs.length));
  return jobs.flatMap((job, of) => {
    const n = job.seeds.length;
    const size = Math.max(1, Math.min(maxSeeds, Math.ceil(n / perJob)));
    return Array.from({ length: Math.max(1, Math.ceil(n / size)) }, (_, i) => ({ of, job: { ...job, seeds: job.seeds.slice(i * size, (i + 1) * size) } }));
  });
}

/** Progress of runHarnessRowJobs: flights done of all jobs' flights, and the part that just came in. */
export type HarnessRowProgress = { job: HarnessRowJob; part: HarnessRowPart; flightsDone: number; flightsTotal: number };

/** Runs every job on `workers` threads (1: inline); rows in job order, `onRow` as each row's last part comes in, `onPart` as each part does. */
export async function runHarnessRowJobs(jobs: readonly HarnessRowJob[], workers: number, onRow?: (job: HarnessRowJob, row: HarnessRow) => void, onPart?: (p: HarnessRowProgress) => void): Promise<HarnessRow[]> {
  const n = Math.max(1, Math.min(workers, os.availableParallelism()));
  const parts = harnessRowParts(jobs, n);
  const flown: (HarnessRowPart | undefined)[] = new Array<HarnessRowPart | undefined>(parts.length);
  const rows: HarnessRow[] = new Array<HarnessRow>(jobs.length);
  const remaining = jobs.map((_, i) => parts.filter((p) => p.of === i).length);
  const flightsTotal = jobs.reduce((sum, j) => sum + j.seeds.length, 0);
  let flightsDone = 0;
  const settle = (index: number, part: HarnessRowPart): void => {
    const { of } = parts[index]!;
    flown[index] = part;
    flightsDone += part.flights.length;
    onPart?.({ job: jobs[of]!, part, flightsDone, flightsTotal });
    if (--remaining[of]! > 0) return;
    // In part order, which is seed order, whatever order the parts finished in.
    rows[of] = assembleHarnessRow(parts.flatMap((p, k) => (p.of === of ? [flown[k]!] : [])));
    onRow?.(jobs[of]!, rows[of]);
  };
  if (n > 1 && parts.length > 1) {
    await runWorkerQueue<HarnessRowJob, HarnessRowPart>(compiledWorkerScript("harnessRowWorker"), undefined, parts.map((p) => p.job), n, (_job, part, index) => settle(index, part));
  } else {
    for (let i = 0; i < parts.length; i++) settle(i, await runHarnessRowJob(parts[i]!.job));
  }
  return rows;
}
