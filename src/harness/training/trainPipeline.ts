/**
 * The whole training run behind `drone-harness train` (issue 5 items 2, 4, 7): record frames with
 * the expert on train-split seeds (validation frames on val-split seeds), train the teacher on
 * ground truth, distil the BC student from teacher and expert, train a harness against the frozen
 * BC student ("BC student + harness"), then co-evolve a copy of the BC student with a fresh
 * harness. After every phase the models and training.json are written, so `--resume` skips
 * finished phases; inside a phase a checkpoint every N steps lets `--resume` continue from the
 * last one (optimizer moments and the replay buffer restart empty; said in docs/training.md).
 *
 * Output layout (`--out models/`):
 *   teacher.model.json/.bin                  teacher
 *   student.* + harness.*                    co-evolved student + harness (what the nodes load)
 *   bc/student.* + bc/harness.*              BC student, and the harness trained with it frozen
 *   training.json                            config, command, phases done, lambdas, timings, validation AP
 *   checkpoints/<phase>/                     in-phase checkpoints (removed by nothing; small)
 * I/O is injected (TrainIO) so the pipeline itself does no file access.
 */
import { LambdaSchedule } from "../correction/LambdaSchedule";
import { generateFrames } from "../data/generateFrames";
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import type { FrameDataset } from "../data/FrameDataset";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import { detectorAp } from "../eval/detectorAp";
import type { ThinObstacleApReport } from "../eval/ThinObstacleAp";
import { correctDetectionLogits, correctionDeltaTensor } from "../correction/correctionTensors";
import { HarnessNet, type HarnessConfig } from "../models/HarnessNet";
import { buildHarnessImage, buildImageInput, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import { Student, type StudentConfig } from "../models/Student";
import { Teacher, type TeacherConfig } from "../models/Teacher";
import * as tf from "@tensorflow/tfjs";
import { coEvolve } from "./coEvolve";
import { teacherCellLogits, trainBcStudent } from "./trainBcStudent";
import { trainTeacher } from "./trainTeacher";

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
const QUICK_SCHEDULE = { studentEvery: 6, harnessEvery: 6, logEvery: 6, deltaAlarm: 0.6, sustainedLogs: 3, lambdaCut: 0.5 };

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

export type ModelSlot = "teacher" | "bc/student" | "bc/harness" | "student" | "harness";

export type TrainIO = {
  /** Environment factory for a split (the simulator adapter). */
  factory: (split: Split) => EnvironmentFactory;
  splitOf: SplitOf;
  progress: (line: string) => void;
  /** Saves synchronously (checkpoints happen inside training loops). `dir` is "" or "checkpoints/<phase>". */
  save: (dir: string, slot: ModelSlot, model: Student | Teacher | HarnessNet, note: string) => void;
  /** Loads a saved model, or undefined when the files do not exist. */
  load: (dir: string, slot: ModelSlot) => Promise<Student | Teacher | HarnessNet | undefined>;
  readState: () => TrainingState | undefined;
  writeState: (state: TrainingState) => void;
};

export type TrainRunOptions = {
  scenario: string;
  seed: number;
  quick: boolean;
  resume: boolean;
  /** Checkpoint period in steps inside a phase; 0 disables. */
  checkpointEvery: number;
  /**
   * With resume: retrain this phase and every later one with the current configuration
   * (earlier phases are loaded from disk). training.json records the new configuration.
   */
  redoFrom?: Phase;
  /** Overrides of the BC phase's data and student (`train --threat-record-every` etc.), applied to a fresh configuration. */
  bcVariant?: BcVariant;
  command: string;
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

function fmtAp(r: ThinObstacleApReport | undefined): string {
  if (r === undefined) return "val AP -";
  const f = (x: number): string => (Number.isNaN(x) ? "NaN" : x.toFixed(3));
  return `val AP wire ${f(r.wire)} branch ${f(r.branch)} w+b ${f(r.wire_branch)}`;
}

function apOf(r: ThinObstacleApReport): { wire: number; branch: number; pole_trunk: number; wire_branch: number } {
  return { wire: r.wire, branch: r.branch, pole_trunk: r.pole_trunk, wire_branch: r.wire_branch };
}

/**
 * AP of student (+ harness) on recorded frames. The harness gets each frame's recorded backward
 * |ds/dt| (the motion of the flight before the frame), as it would when flying.
 */
export function studentAp(student: Student, harness: HarnessNet | undefined, lambda: number, frames: FrameDataset): ThinObstacleApReport {
  return detectorAp(frames, (rgb, state, indices) => {
    const image = buildImageInput(rgb);
    const out = student.forward({ image, state });
    if (harness === undefined) return out.detLogits;
    const n = rgb.shape[0];
    const r = new Float32Array(n * STATE_DIM);
    indices.forEach((fi, b) => {
      const fr = frames.frames[fi]?.rates;
      if (fr !== undefined) r.set(fr, b * STATE_DIM);
    });
    const rates = tf.tensor2d(r, [n, STATE_DIM]);
    const h = harness.forward({ image: buildHarnessImage(image, []), state, rolloutRewards: tf.zeros([n, ROLLOUT_STEPS]), stateRates: rates });
    const delta = correctionDeltaTensor(h.sensitivity, rates, h.risk, lambda);
    return correctDetectionLogits(out.detLogits, delta.detection);
  });
}

export async function runTraining(io: TrainIO, options: TrainRunOptions): Promise<TrainingState> {
  const previous = options.resume ? io.readState() : undefined;
  // A resumed run continues with the configuration it started with (training.json), not with
  // whatever the constants say now.
  const fresh = withBcVariant(options.quick ? QUICK_CONFIG : FULL_CONFIG, options.bcVariant);
  let cfg = previous?.config ?? fresh;
  if (previous !== undefined && options.redoFrom !== undefined) {
    const keep = PHASES.slice(0, PHASES.indexOf(options.redoFrom));
    previous.completed = previous.completed.filter((p) => keep.includes(p));
    for (const p of PHASES) if (!keep.includes(p) && p !== "data") delete previous.timings_s[p];
    previous.checkpoint = null;
    cfg = fresh;
    previous.config = cfg;
    previous.command = `${previous.command}; then ${options.command}`;
  }
  if (options.resume && previous !== undefined && (previous.seed !== options.seed || previous.scenario !== options.scenario || previous.quick !== options.quick)) {
    throw new Error(
      `--resume: training.json was written for scenario ${previous.scenario}, seed ${previous.seed}, quick ${previous.quick}; ` +
        `this run has scenario ${options.scenario}, seed ${options.seed}, quick ${options.quick}`,
    );
  }
  const state: TrainingState = previous ?? {
    version: 1,
    scenario: options.scenario,
    seed: options.seed,
    quick: options.quick,
    command: options.command,
    config: cfg,
    completed: [],
    checkpoint: null,
    lambda: {},
    timings_s: {},
    validation: {},
  };
  const done = (p: Phase): boolean => state.completed.includes(p);
  const finish = (p: Phase, t0: number): void => {
    state.timings_s[p] = (state.timings_s[p] ?? 0) + (performance.now() - t0) / 1000;
    if (!done(p)) state.completed.push(p);
    state.checkpoint = null;
    io.writeState(state);
  };
  const note = `scenario ${options.scenario}, seed ${options.seed}${options.quick ? ", --quick" : ""}; ${options.command}`;
  const resumeStep = (p: Phase): number => (state.checkpoint?.phase === p ? state.checkpoint.step : 0);
  const every = options.checkpointEvery;

  // Seeds: disjoint by construction (the simulator's split function), and every loader checks.
  const trainSource = new SeedSource("train", io.splitOf);
  const valSource = new SeedSource("val", io.splitOf);
  const trainSeeds = trainSource.seeds(cfg.data.trainSeeds, options.seed * 1000);
  const valSeeds = valSource.seeds(cfg.data.valSeeds, options.seed * 1000);

  // Phase "data" is cheap and deterministic: it is regenerated on every run, never stored.
  let t0 = performance.now();
  const train = generateFrames({
    seeds: trainSeeds,
    source: trainSource,
    factory: io.factory("train"),
    stateDim: STATE_DIM,
    recordEvery: cfg.data.recordEvery,
    ...(cfg.data.threatRecordEvery === undefined ? {} : { threatRecordEvery: cfg.data.threatRecordEvery }),
    maxFramesPerFlight: cfg.data.framesPerFlight,
    explore: cfg.data.explore,
    rngSeed: options.seed,
    onFlight: (n, frames) => io.progress(`train [data] flight ${n}/${trainSeeds.length} frames ${frames}`),
  });
  const val = generateFrames({
    seeds: valSeeds,
    source: valSource,
    factory: io.factory("val"),
    stateDim: STATE_DIM,
    recordEvery: cfg.data.valRecordEvery,
    maxFramesPerFlight: cfg.data.valFramesPerFlight,
    explore: 0,
    rngSeed: options.seed + 1,
  });
  io.progress(`train [data] ${train.frames.length} train frames from ${trainSeeds.length} train seeds, ${val.frames.length} val frames from ${valSeeds.length} val seeds`);
  finish("data", t0);

  // Teacher.
  let teacher = done("teacher") ? await io.load("", "teacher") : undefined;
  if (!(teacher instanceof Teacher)) {
    t0 = performance.now();
    const start = resumeStep("teacher");
    const ck = start > 0 ? await io.load("checkpoints/teacher", "teacher") : undefined;
    teacher = ck instanceof Teacher ? ck : new Teacher({ ...cfg.teacher.config, seed: options.seed + 2 });
    const tc = teacher;
    trainTeacher(tc, train, {
      steps: cfg.teacher.steps,
      batch: cfg.teacher.batch,
      crop: cfg.teacher.crop,
      learningRate: cfg.teacher.learningRate,
      seed: options.seed + 10,
      startStep: start + 1,
      onStep: (step, loss) => {
        if (step % 10 === 0 || step === cfg.teacher.steps) io.progress(`train [teacher] step ${step}/${cfg.teacher.steps} loss ${loss.toFixed(4)}`);
        if (every > 0 && step % every === 0 && step < cfg.teacher.steps) {
          io.save("checkpoints/teacher", "teacher", tc, `${note}; checkpoint step ${step}`);
          state.checkpoint = { phase: "teacher", step };
          io.writeState(state);
        }
      },
    });
    const ap = detectorAp(val, (rgb) => tc.forward(buildImageInput(rgb)));
    state.validation.teacher = apOf(ap);
    io.progress(`train [teacher] done ${fmtAp(ap)}`);
    io.save("", "teacher", tc, `${note}; teacher ${cfg.teacher.steps} steps on ground truth`);
    finish("teacher", t0);
  }
  const teacherModel = teacher;

  // BC student.
  let bc = done("bc") ? await io.load("", "bc/student") : undefined;
  if (!(bc instanceof Student)) {
    t0 = performance.now();
    io.progress(`train [bc] labelling ${train.frames.length} frames with the teacher`);
    const soft = teacherCellLogits(teacherModel, train);
    const start = resumeStep("bc");
    const ck = start > 0 ? await io.load("checkpoints/bc", "bc/student") : undefined;
    bc = ck instanceof Student ? ck : new Student({ ...cfg.student.config, seed: options.seed + 3 });
    const st = bc;
    trainBcStudent(st, train, soft, {
      steps: cfg.student.steps,
      batch: cfg.student.batch,
      learningRate: cfg.student.learningRate,
      ...(cfg.student.threatFraction === undefined ? {} : { threatFraction: cfg.student.threatFraction }),
      seed: options.seed + 11,
      startStep: start + 1,
      onStep: (step, l) => {
        if (step % 10 === 0 || step === cfg.student.steps) {
          io.progress(`train [bc] step ${step}/${cfg.student.steps} loss ${l.total.toFixed(4)} (distill ${l.distill.toFixed(4)}, action ${l.action.toFixed(4)})`);
        }
        if (every > 0 && step % every === 0 && step < cfg.student.steps) {
          io.save("checkpoints/bc", "bc/student", st, `${note}; checkpoint step ${step}`);
          state.checkpoint = { phase: "bc", step };
          io.writeState(state);
        }
      },
    });
    const ap = studentAp(st, undefined, 0, val);
    state.validation.bc = apOf(ap);
    io.progress(`train [bc] done ${fmtAp(ap)}`);
    io.save("", "bc/student", st, `${note}; BC student ${cfg.student.steps} steps (teacher distillation + expert actions)`);
    finish("bc", t0);
  }
  const bcStudent = bc;

  const schedule = options.quick ? QUICK_SCHEDULE : undefined;
  const harnessTraining = { iterations: cfg.harness.iterations, minibatch: cfg.harness.minibatch, learningRate: cfg.harness.learningRate, riskLoss: cfg.harness.riskLoss };
  const summary = (s: ReturnType<typeof coEvolve>) => ({
    flights: s.flights,
    collisions: s.collisions,
    goals: s.goals,
    warnings: s.warnings,
    maxAbsDeltaLog: s.maxAbsDeltaLog,
    sGtEvaluations: s.sGtEvaluations,
  });

  // Harness against the frozen BC student.
  if (!done("bc_harness")) {
    t0 = performance.now();
    const start = resumeStep("bc_harness");
    const ck = start > 0 ? await io.load("checkpoints/bc_harness", "bc/harness") : undefined;
    const harness = ck instanceof HarnessNet ? ck : new HarnessNet({ ...cfg.harness.config, seed: options.seed + 4 });
    const lambda = new LambdaSchedule();
    if (start > 0 && state.checkpoint?.lambda !== undefined) lambda.set(state.checkpoint.lambda);
    const stats = coEvolve({
      student: bcStudent,
      harness,
      factory: io.factory("train"),
      source: trainSource,
      seeds: trainSeeds,
      steps: cfg.bcHarnessSteps,
      startStep: start,
      trainStudent: false,
      rngSeed: options.seed + 12,
      lambda,
      schedule,
      harnessTraining,
      log: (line) => io.progress(`train [bc_harness] ${line}`),
      onWindow: (step) => {
        if (every > 0 && step < cfg.bcHarnessSteps && Math.floor(step / every) > Math.floor((step - (schedule?.logEvery ?? 100)) / every)) {
          io.save("checkpoints/bc_harness", "bc/harness", harness, `${note}; checkpoint step ${step}`);
          state.checkpoint = { phase: "bc_harness", step, lambda: lambda.value };
          io.writeState(state);
        }
      },
    });
    state.lambda.bc_harness = lambda.value;
    state.bcHarness = summary(stats);
    const ap = studentAp(bcStudent, harness, lambda.value, val);
    state.validation.bc_harness = apOf(ap);
    io.progress(`train [bc_harness] done ${fmtAp(ap)} lambda ${lambda.value.toFixed(3)} S_gt evaluations ${stats.sGtEvaluations}`);
    io.save("", "bc/harness", harness, `${note}; harness ${cfg.bcHarnessSteps} env steps against the frozen BC student`);
    finish("bc_harness", t0);
  }

  // Co-evolution: a copy of the BC student (fresh variables, same weights) and a fresh harness.
  if (!done("coevo")) {
    t0 = performance.now();
    const start = resumeStep("coevo");
    const ckS = start > 0 ? await io.load("checkpoints/coevo", "student") : undefined;
    const ckH = start > 0 ? await io.load("checkpoints/coevo", "harness") : undefined;
    let student: Student;
    if (ckS instanceof Student) student = ckS;
    else {
      student = new Student({ ...cfg.student.config, seed: options.seed + 3 });
      student.params.load(bcStudent.params.snapshot());
    }
    const harness = ckH instanceof HarnessNet ? ckH : new HarnessNet({ ...cfg.harness.config, seed: options.seed + 5 });
    const lambda = new LambdaSchedule();
    if (start > 0 && state.checkpoint?.lambda !== undefined) lambda.set(state.checkpoint.lambda);
    const stats = coEvolve({
      student,
      harness,
      factory: io.factory("train"),
      source: trainSource,
      seeds: trainSeeds,
      steps: cfg.coevoSteps,
      startStep: start,
      trainStudent: true,
      rngSeed: options.seed + 13,
      lambda,
      schedule,
      ppo: cfg.ppo,
      harnessTraining,
      log: (line) => io.progress(`train [coevo] ${line}`),
      onWindow: (step) => {
        if (every > 0 && step < cfg.coevoSteps && Math.floor(step / every) > Math.floor((step - (schedule?.logEvery ?? 100)) / every)) {
          io.save("checkpoints/coevo", "student", student, `${note}; checkpoint step ${step}`);
          io.save("checkpoints/coevo", "harness", harness, `${note}; checkpoint step ${step}`);
          state.checkpoint = { phase: "coevo", step, lambda: lambda.value };
          io.writeState(state);
        }
      },
    });
    state.lambda.coevo = lambda.value;
    state.coevolution = summary(stats);
    const ap = studentAp(student, harness, lambda.value, val);
    state.validation.coevo = apOf(ap);
    io.progress(`train [coevo] done ${fmtAp(ap)} lambda ${lambda.value.toFixed(3)} S_gt evaluations ${stats.sGtEvaluations}`);
    io.save("", "student", student, `${note}; co-evolved student (BC init + ${cfg.coevoSteps} env steps, PPO on the policy head)`);
    io.save("", "harness", harness, `${note}; co-evolved harness (${cfg.coevoSteps} env steps)`);
    finish("coevo", t0);
  }
  return state;
}
