/**
 * The training pipeline's configuration and its record (training.json): the phases in order, the
 * full and --quick settings, the BC variant options, and what a run has done so far.
 */
import type { HarnessConfig } from "../models/HarnessNet";
import type { StudentConfig } from "../models/Student";
import type { TeacherConfig } from "../models/Teacher";

export const PHASES = ["data", "teacher", "bc", "bc_harness", "coevo"] as const;
export type Phase = (typeof PHASES)[number];

export type TrainConfig = {
  controlPeriod_s: number;
  data: { trainSeeds: number; valSeeds: number; recordEvery: number; framesPerFlight: number; valRecordEvery: number; valFramesPerFlight: number; explore: number; threatRecordEvery?: number };
  teacher: { config: Partial<TeacherConfig>; steps: number; batch: number; crop: number; learningRate: number };
  student: { config: Partial<StudentConfig>; steps: number; batch: number; learningRate: number; threatFraction?: number };
  harness: { config: Partial<HarnessConfig>; riskLoss: "hinge" | "bce"; iterations: number; minibatch: number; learningRate: number };
  bcHarnessSteps: number;
  coevoSteps: number;
  ppo: { epochs: number; minibatch: number; learningRate: number; optimizer?: "adam" | "sgd" };
};

/** The configuration used for the committed weights (sized for < 20 min on 2 shared cores). */
export const FULL_CONFIG: TrainConfig = {
  controlPeriod_s: 0.25,
  data: { trainSeeds: 30, valSeeds: 6, recordEvery: 5, framesPerFlight: 24, valRecordEvery: 10, valFramesPerFlight: 10, explore: 0.2 },
  teacher: { config: { channels: [24, 48, 64, 96], headHidden: 48 }, steps: 300, batch: 8, crop: 128, learningRate: 2e-3 },
  student: { config: { channels: [8, 16, 24, 32], policyHidden: [1280, 1280] }, steps: 240, batch: 8, learningRate: 1e-3 },
  harness: { config: {}, riskLoss: "hinge", iterations: 8, minibatch: 16, learningRate: 1e-3 },
  bcHarnessSteps: 600,
  coevoSteps: 1200,
  ppo: { epochs: 4, minibatch: 32, learningRate: 0.01, optimizer: "sgd" },
};

/**
 * `--quick`: tiny networks and a few steps of every phase, for tests and smoke runs. It also
 * switches on the BC variant options (dense threat frames, threat-weighted batches, a policy that
 * reads the detections) so that the smoke runs exercise those code paths.
 */
export const QUICK_CONFIG: TrainConfig = {
  controlPeriod_s: 0.25,
  data: { trainSeeds: 2, valSeeds: 1, recordEvery: 5, framesPerFlight: 4, valRecordEvery: 10, valFramesPerFlight: 3, explore: 0.2, threatRecordEvery: 1 },
  teacher: { config: { channels: [8, 8, 8], headHidden: 8 }, steps: 3, batch: 2, crop: 64, learningRate: 2e-3 },
  student: { config: { channels: [4, 4, 4, 4], policyHidden: [16], policyReadsDetections: true }, steps: 3, batch: 2, learningRate: 1e-3, threatFraction: 0.5 },
  harness: { config: {}, riskLoss: "hinge", iterations: 1, minibatch: 4, learningRate: 1e-3 },
  bcHarnessSteps: 12,
  coevoSteps: 12,
  ppo: { epochs: 1, minibatch: 8, learningRate: 0.01, optimizer: "sgd" },
};

/** Small schedule for --quick (SPEC's 100/200 would never trigger in 12 steps). */
export const QUICK_SCHEDULE = { studentEvery: 6, harnessEvery: 6, logEvery: 6, deltaAlarm: 0.6, sustainedLogs: 3, lambdaCut: 0.5 };

export type TrainingState = {
  version: 1;
  scenario: string;
  seed: number;
  quick: boolean;
  command: string;
  config: TrainConfig;
  completed: Phase[];
  checkpoint: { phase: Phase; step: number; lambda?: number } | null;
  lambda: { bc_harness?: number; coevo?: number };
  timings_s: Partial<Record<Phase, number>>;
  validation: Partial<Record<Phase, { wire: number; branch: number; pole_trunk: number; wire_branch: number }>>;
  coevolution?: { flights: number; collisions: number; goals: number; warnings: number; maxAbsDeltaLog: number[]; sGtEvaluations: number };
  bcHarness?: { flights: number; collisions: number; goals: number; warnings: number; maxAbsDeltaLog: number[]; sGtEvaluations: number };
};

/** The BC variant options (docs/training.md, "Threat-weighted BC"). */
export type BcVariant = { threatRecordEvery?: number; threatFraction?: number; policyReadsDetections?: boolean };

/** `base` with the BC variant applied (a new object; `base` is not changed). */
export function withBcVariant(base: TrainConfig, v: BcVariant | undefined): TrainConfig {
  if (v === undefined) return base;
  return {
    ...base,
    data: { ...base.data, ...(v.threatRecordEvery === undefined ? {} : { threatRecordEvery: v.threatRecordEvery }) },
    student: {
      ...base.student,
      ...(v.threatFraction === undefined ? {} : { threatFraction: v.threatFraction }),
      config: { ...base.student.config, ...(v.policyReadsDetections === undefined ? {} : { policyReadsDetections: v.policyReadsDetections }) },
    },
  };
}
