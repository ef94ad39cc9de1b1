/**
 * The rows of `eval --harness` on both cores: each (condition, row) job flies every seed of the
 * row in one worker thread (harnessRowWorker.ts), which loads its detector and harness from
 * files; jobs are taken from a shared queue. A row's result does not depend on the worker that
 * flew it (flights are deterministic per seed), so 1 and 2 workers give the same report.
 */
import * as os from "node:os";
import { splitOfSeed, type Scenario } from "../../../../sim";
import { initBackend } from "../../backend";
import { flyHarnessRow, type HarnessArm, type HarnessRow } from "../../eval/harnessRows";
import type { HarnessTarget, LineFill, TruthMix } from "../../eval/PlannerPilot";
import { loadSpatialHarness, loadTeacher } from "../../modelfile";
import type { SpatialHarnessOptions } from "../../runtime/SpatialHarnessRuntime";
import type { Split } from "../SeedSplit";
import { simEnvironmentFactory } from "../simEnvironment";
import { compiledWorkerScript, runWorkerQueue } from "./workerQueue";
import type { PlannerOptions } from "../../../control/LocalPlanner";

/** A row as files: the student detector directory and, optionally, the harness directory. */
export type ArmFiles = { name: string; detectorDir: string; harnessDir?: string; apply: boolean; options?: Partial<SpatialHarnessOptions>; target?: HarnessTarget; truthMix?: TruthMix; lineFill?: LineFill; riskHold?: number };

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
};

export async function loadArm(files: ArmFiles): Promise<HarnessArm> {
  await initBackend();
  const detector = (await loadTeacher(files.detectorDir)).model;
  const mix = { ...(files.truthMix === undefined ? {} : { truthMix: files.truthMix }), ...(files.lineFill === undefined ? {} : { lineFill: files.lineFill }) };
  if (files.harnessDir === undefined) return { name: files.name, detector, ...mix };
  const model = (await loadSpatialHarness(files.harnessDir)).model;
  return { name: files.name, detector, ...mix, harness: { model, apply: files.apply, ...(files.options === undefined ? {} : { options: files.options }), ...(files.target === undefined ? {} : { target: files.target }), ...(files.riskHold === undefined ? {} : { riskHold: files.riskHold }) } };
}

/** Flies one job in this thread. */
export async function runHarnessRowJob(job: HarnessRowJob): Promise<HarnessRow> {
  const arm = await loadArm(job.arm);
  try {
    return flyHarnessRow(arm, job.seeds, job.condition, {
      split: job.split,
      splitOf: splitOfSeed,
      factory: simEnvironmentFactory(job.scenario, job.split, { controlPeriod_s: job.controlPeriod_s }),
      apEvery: job.apEvery,
      ...(job.attributeStrikes === true ? { attributeStrikes: true } : {}),
      ...(job.planner === undefined ? {} : { planner: job.planner }),
    });
  } finally {
    arm.detector.dispose();
  }
}

/** Runs every job on `workers` threads (1: inline); results in job order. */
export async function runHarnessRowJobs(jobs: readonly HarnessRowJob[], workers: number, onRow?: (job: HarnessRowJob, row: HarnessRow) => void): Promise<HarnessRow[]> {
  const n = Math.max(1, Math.min(workers, jobs.length, os.availableParallelism()));
  if (n > 1) return runWorkerQueue<HarnessRowJob, HarnessRow>(compiledWorkerScript("harnessRowWorker"), undefined, jobs, n, onRow);
  const results: HarnessRow[] = [];
  for (const job of jobs) {
    const row = await runHarnessRowJob(job);
    results.push(row);
    onRow?.(job, row);
  }
  return results;
}
