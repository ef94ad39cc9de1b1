/**
 * The transfer experiment (SPEC "Transfer"; seed 5.4) on a second scenario family:
 *  1. few replay samples from train-split seeds, flown by the frozen student (transferSamples.ts);
 *  2. "transfer": the source harness's State Encoder moved unchanged and frozen, a fresh 16-unit
 *     adapter + Policy Diagnostics trained on those samples (models/transferHarness.ts, scope
 *     "transfer"); the Correction Generator has no weights;
 *  3. "scratch": a fresh harness, every weight trained on the same samples (scope "all");
 *  4. held-out comparison on test-split seeds against "no harness": risk AUC / Brier and
 *     ||S - S_gt|| on samples collected the same way (transferMetrics.ts), and closed-loop
 *     collision / goal counts of the student with each harness (eval/flyClosedLoop.ts).
 * The student and the source harness are never modified.
 */
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import { flyClosedLoop } from "../eval/flyClosedLoop";
import { ModelPilot } from "../eval/ModelPilot";
import { HarnessNet } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { transferHarness } from "../models/transferHarness";
import { diagnosticsQuality, noHarnessQuality, type DiagnosticsQuality } from "./transferMetrics";
import { collectTransferSamples, type SampleCollection } from "./transferSamples";
import { trainOnSamples, type FewSampleTrainingOptions, type FewSampleTrainingStats } from "./transferTraining";

export type TransferRunOptions = {
  trainSamples: number;
  testSamples: number;
  /** Train / test seeds to cycle through when collecting samples. */
  trainSeeds: number;
  testSeeds: number;
  sampleEvery: number;
  training: Omit<FewSampleTrainingOptions, "scope">;
  /** Closed-loop test flights per row (0 skips them). */
  flights: number;
  /** Initial correction strength of the closed-loop pilots with a harness. */
  lambda0: number;
  /** Weight seed of the fresh adapter / diagnostics / scratch harness. */
  seed: number;
};

export type ClosedLoopCounts = { flights: number; collisions: number; goals: number; timeouts: number };

export type TransferRow = { name: "transfer" | "scratch" | "none"; quality: DiagnosticsQuality; closedLoop?: ClosedLoopCounts; training?: FewSampleTrainingStats };

export type TransferReport = {
  train: Omit<SampleCollection, "samples"> & { samples: number; positives: number; seeds: number[] };
  test: Omit<SampleCollection, "samples"> & { samples: number; positives: number; seeds: number[] };
  rows: TransferRow[];
  timings_s: Record<string, number>;
};

export type TransferRunIO = {
  factory: (split: Split) => EnvironmentFactory;
  splitOf: SplitOf;
  progress: (line: string) => void;
};

function closedLoop(student: Student, harness: HarnessNet | undefined, lambda0: number, factory: EnvironmentFactory, seeds: readonly number[], source: SeedSource): ClosedLoopCounts {
  const pilot = new ModelPilot(student, harness, lambda0);
  const c: ClosedLoopCounts = { flights: 0, collisions: 0, goals: 0, timeouts: 0 };
  for (const seed of seeds) {
    const r = flyClosedLoop(factory(source.require(seed), { perturbed: false }), pilot, STATE_DIM);
    c.flights++;
    if (r.outcome.type === "collision") c.collisions++;
    else if (r.outcome.type === "goal") c.goals++;
    else c.timeouts++;
  }
  return c;
}

/** Runs the experiment; returns the report and the two trained harnesses (caller disposes). */
export function runTransfer(student: Student, source: HarnessNet, io: TransferRunIO, o: TransferRunOptions): { report: TransferReport; transfer: HarnessNet; scratch: HarnessNet } {
  const timings: Record<string, number> = {};
  const timed = <T>(name: string, f: () => T): T => {
    const t0 = performance.now();
    const v = f();
    timings[name] = (performance.now() - t0) / 1000;
    return v;
  };
  const trainSource = new SeedSource("train", io.splitOf);
  const testSource = new SeedSource("test", io.splitOf);
  const trainSeeds = trainSource.seeds(o.trainSeeds);
  const testSeeds = testSource.seeds(Math.max(o.testSeeds, o.flights));
  const train = timed("collect_train", () =>
    collectTransferSamples({ student, factory: io.factory("train"), source: trainSource, seeds: trainSeeds, count: o.trainSamples, sampleEvery: o.sampleEvery, rngSeed: o.seed }),
  );
  const posTrain = train.samples.reduce((a, s) => a + s.rTrue, 0);
  io.progress(`transfer: ${train.samples.length} train samples (${posTrain} with r_true = 1) from ${train.flights} flights, ${timings.collect_train?.toFixed(1)} s`);
  const test = timed("collect_test", () =>
    collectTransferSamples({ student, factory: io.factory("test"), source: testSource, seeds: testSeeds.slice(0, o.testSeeds), count: o.testSamples, sampleEvery: o.sampleEvery, rngSeed: o.seed + 1 }),
  );
  const posTest = test.samples.reduce((a, s) => a + s.rTrue, 0);
  io.progress(`transfer: ${test.samples.length} test samples (${posTest} with r_true = 1) from ${test.flights} flights, ${timings.collect_test?.toFixed(1)} s`);

  const transfer = transferHarness(source, { seed: o.seed });
  const scratch = new HarnessNet({ seed: o.seed });
  const tStats = timed("train_transfer", () => trainOnSamples(transfer, train.samples, { ...o.training, scope: "transfer" }));
  io.progress(`transfer: transfer harness trained, loss ${tStats.firstLoss.toFixed(4)} -> ${tStats.lastLoss.toFixed(4)}, ${timings.train_transfer?.toFixed(1)} s`);
  const sStats = timed("train_scratch", () => trainOnSamples(scratch, train.samples, { ...o.training, scope: "all" }));
  io.progress(`transfer: scratch harness trained, loss ${sStats.firstLoss.toFixed(4)} -> ${sStats.lastLoss.toFixed(4)}, ${timings.train_scratch?.toFixed(1)} s`);

  const rows: TransferRow[] = timed("evaluate", () => [
    { name: "transfer", quality: diagnosticsQuality(transfer, test.samples), training: tStats },
    { name: "scratch", quality: diagnosticsQuality(scratch, test.samples), training: sStats },
    { name: "none", quality: noHarnessQuality(posTrain / train.samples.length, test.samples) },
  ]);
  if (o.flights > 0) {
    const seeds = testSeeds.slice(0, o.flights);
    const testFactory = io.factory("test");
    timed("closed_loop", () => {
      for (const row of rows) {
        const h = row.name === "transfer" ? transfer : row.name === "scratch" ? scratch : undefined;
        row.closedLoop = closedLoop(student, h, o.lambda0, testFactory, seeds, testSource);
        io.progress(`transfer: closed loop ${row.name}: ${row.closedLoop.collisions} collisions, ${row.closedLoop.goals} goals of ${row.closedLoop.flights}`);
      }
    });
  }
  const { samples: _tr, ...trainInfo } = train;
  const { samples: _te, ...testInfo } = test;
  return {
    report: {
      train: { ...trainInfo, samples: train.samples.length, positives: posTrain, seeds: trainSeeds },
      test: { ...testInfo, samples: test.samples.length, positives: posTest, seeds: testSeeds },
      rows,
      timings_s: timings,
    },
    transfer,
    scratch,
  };
}
