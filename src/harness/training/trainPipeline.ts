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
import { studentAp } from "../eval/studentAp";
import type { ThinObstacleApReport } from "../eval/ThinObstacleAp";
import { HarnessNet } from "../models/HarnessNet";
import { buildImageInput } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import { Student } from "../models/Student";
import { Teacher } from "../models/Teacher";
import { coEvolve, type CoEvolutionOptions, type CoEvolutionStats } from "./coEvolve";
import { FULL_CONFIG, PHASES, QUICK_CONFIG, QUICK_SCHEDULE, withBcVariant, type BcVariant, type Phase, type TrainConfig, type TrainingState } from "./trainConfig";
import { teacherCellLogits, trainBcStudent } from "./trainBcStudent";
import { trainTeacher } from "./trainTeacher";

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

function fmtAp(r: ThinObstacleApReport | undefined): string {
  if (r === undefined) return "val AP -";
  const f = (x: number): string => (Number.isNaN(x) ? "NaN" : x.toFixed(3));
  return `val AP wire ${f(r.wire)} branch ${f(r.branch)} w+b ${f(r.wire_branch)}`;
}

function apOf(r: ThinObstacleApReport): { wire: number; branch: number; pole_trunk: number; wire_branch: number } {
  return { wire: r.wire, branch: r.branch, pole_trunk: r.pole_trunk, wire_branch: r.wire_branch };
}

/** The training.json of a run: the one on disk when resuming (after --redo-from), else a new one. */
function startingState(io: TrainIO, options: TrainRunOptions): TrainingState {
  const previous = options.resume ? io.readState() : undefined;
  // A resumed run continues with the configuration it started with (training.json), not with
  // whatever the constants say now.
  const fresh = withBcVariant(options.quick ? QUICK_CONFIG : FULL_CONFIG, options.bcVariant);
  if (previous !== undefined && options.redoFrom !== undefined) {
    const keep = PHASES.slice(0, PHASES.indexOf(options.redoFrom));
    previous.completed = previous.completed.filter((p) => keep.includes(p));
    for (const p of PHASES) if (!keep.includes(p) && p !== "data") delete previous.timings_s[p];
    previous.checkpoint = null;
    previous.config = fresh;
    previous.command = `${previous.command}; then ${options.command}`;
  }
  if (options.resume && previous !== undefined && (previous.seed !== options.seed || previous.scenario !== options.scenario || previous.quick !== options.quick)) {
    throw new Error(
      `--resume: training.json was written for scenario ${previous.scenario}, seed ${previous.seed}, quick ${previous.quick}; ` +
        `this run has scenario ${options.scenario}, seed ${options.seed}, quick ${options.quick}`,
    );
  }
  return (
    previous ?? {
      version: 1,
      scenario: options.scenario,
      seed: options.seed,
      quick: options.quick,
      command: options.command,
      config: fresh,
      completed: [],
      checkpoint: null,
      lambda: {},
      timings_s: {},
      validation: {},
    }
  );
}

/** One run: its I/O, options and configuration, and the bookkeeping of training.json every phase shares. */
class PipelineRun {
  readonly cfg: TrainConfig;
  /** Provenance written into every model file. */
  readonly note: string;

  constructor(
    readonly io: TrainIO,
    readonly options: TrainRunOptions,
    readonly state: TrainingState,
  ) {
    this.cfg = state.config;
    this.note = `scenario ${options.scenario}, seed ${options.seed}${options.quick ? ", --quick" : ""}; ${options.command}`;
  }

  done(p: Phase): boolean {
    return this.state.completed.includes(p);
  }

  /** The step of this phase's last checkpoint, 0 when the phase starts from scratch. */
  resumeStep(p: Phase): number {
    return this.state.checkpoint?.phase === p ? this.state.checkpoint.step : 0;
  }

  /** A supervised phase checkpoints at every multiple of checkpointEvery before its last step. */
  checkpointDue(step: number, steps: number): boolean {
    const every = this.options.checkpointEvery;
    return every > 0 && step % every === 0 && step < steps;
  }

  checkpoint(at: NonNullable<TrainingState["checkpoint"]>): void {
    this.state.checkpoint = at;
    this.io.writeState(this.state);
  }

  finish(p: Phase, t0: number): void {
    this.state.timings_s[p] = (this.state.timings_s[p] ?? 0) + (performance.now() - t0) / 1000;
    if (!this.done(p)) this.state.completed.push(p);
    this.state.checkpoint = null;
    this.io.writeState(this.state);
  }
}

type PhaseData = { trainSource: SeedSource; trainSeeds: number[]; train: FrameDataset; val: FrameDataset };

/** Phase "data" is cheap and deterministic: it is regenerated on every run, never stored. */
function recordFrames(run: PipelineRun): PhaseData {
  const { io, cfg, options } = run;
  // Seeds: disjoint by construction (the simulator's split function), and every loader checks.
  const trainSource = new SeedSource("train", io.splitOf);
  const valSource = new SeedSource("val", io.splitOf);
  const trainSeeds = trainSource.seeds(cfg.data.trainSeeds, options.seed * 1000);
  const valSeeds = valSource.seeds(cfg.data.valSeeds, options.seed * 1000);
  const t0 = performance.now();
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
  run.finish("data", t0);
  return { trainSource, trainSeeds, train, val };
}

/** The teacher on ground truth (loaded when the phase is done). */
async function teacherPhase(run: PipelineRun, data: PhaseData): Promise<Teacher> {
  const { io, cfg, options } = run;
  const saved = run.done("teacher") ? await io.load("", "teacher") : undefined;
  if (saved instanceof Teacher) return saved;
  const t0 = performance.now();
  const start = run.resumeStep("teacher");
  const ck = start > 0 ? await io.load("checkpoints/teacher", "teacher") : undefined;
  const teacher = ck instanceof Teacher ? ck : new Teacher({ ...cfg.teacher.config, seed: options.seed + 2 });
  trainTeacher(teacher, data.train, {
    steps: cfg.teacher.steps,
    batch: cfg.teacher.batch,
    crop: cfg.teacher.crop,
    learningRate: cfg.teacher.learningRate,
    seed: options.seed + 10,
    startStep: start + 1,
    onStep: (step, loss) => {
      if (step % 10 === 0 || step === cfg.teacher.steps) io.progress(`train [teacher] step ${step}/${cfg.teacher.steps} loss ${loss.toFixed(4)}`);
      if (run.checkpointDue(step, cfg.teacher.steps)) {
        io.save("checkpoints/teacher", "teacher", teacher, `${run.note}; checkpoint step ${step}`);
        run.checkpoint({ phase: "teacher", step });
      }
    },
  });
  const ap = detectorAp(data.val, (rgb) => teacher.forward(buildImageInput(rgb)));
  run.state.validation.teacher = apOf(ap);
  io.progress(`train [teacher] done ${fmtAp(ap)}`);
  io.save("", "teacher", teacher, `${run.note}; teacher ${cfg.teacher.steps} steps on ground truth`);
  run.finish("teacher", t0);
  return teacher;
}

/** The BC student, distilled from the teacher's cells and the expert's actions (loaded when the phase is done). */
async function bcPhase(run: PipelineRun, data: PhaseData, teacher: Teacher): Promise<Student> {
  const { io, cfg, options } = run;
  const saved = run.done("bc") ? await io.load("", "bc/student") : undefined;
  if (saved instanceof Student) return saved;
  const t0 = performance.now();
  io.progress(`train [bc] labelling ${data.train.frames.length} frames with the teacher`);
  const soft = teacherCellLogits(teacher, data.train);
  const start = run.resumeStep("bc");
  const ck = start > 0 ? await io.load("checkpoints/bc", "bc/student") : undefined;
  const student = ck instanceof Student ? ck : new Student({ ...cfg.student.config, seed: options.seed + 3 });
  trainBcStudent(student, data.train, soft, {
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
      if (run.checkpointDue(step, cfg.student.steps)) {
        io.save("checkpoints/bc", "bc/student", student, `${run.note}; checkpoint step ${step}`);
        run.checkpoint({ phase: "bc", step });
      }
    },
  });
  const ap = studentAp(student, undefined, 0, data.val);
  run.state.validation.bc = apOf(ap);
  io.progress(`train [bc] done ${fmtAp(ap)}`);
  io.save("", "bc/student", student, `${run.note}; BC student ${cfg.student.steps} steps (teacher distillation + expert actions)`);
  run.finish("bc", t0);
  return student;
}

type HarnessPhase = "bc_harness" | "coevo";

/** What a harness phase trains: the student (frozen in bc_harness) and the harness, with their lambda. */
type HarnessPhaseModels = { student: Student; harness: HarnessNet; lambda: LambdaSchedule; start: number; save: (dir: string, note: string) => void };

/** The lambda schedule of a harness phase, at its checkpoint's value when resuming. */
function resumedLambda(run: PipelineRun, start: number): LambdaSchedule {
  const lambda = new LambdaSchedule();
  if (start > 0 && run.state.checkpoint?.lambda !== undefined) lambda.set(run.state.checkpoint.lambda);
  return lambda;
}

/**
 * coEvolve for one harness phase on the train seeds, checkpointing at each log window that
 * crosses a multiple of checkpointEvery.
 */
function runHarnessPhase(run: PipelineRun, data: PhaseData, phase: HarnessPhase, m: HarnessPhaseModels, o: { steps: number; rngSeed: number; ppo?: CoEvolutionOptions["ppo"] }): CoEvolutionStats {
  const { io, cfg, options } = run;
  const every = options.checkpointEvery;
  const schedule = options.quick ? QUICK_SCHEDULE : undefined;
  return coEvolve({
    student: m.student,
    harness: m.harness,
    factory: io.factory("train"),
    source: data.trainSource,
    seeds: data.trainSeeds,
    steps: o.steps,
    startStep: m.start,
    trainStudent: phase === "coevo",
    rngSeed: o.rngSeed,
    lambda: m.lambda,
    schedule,
    ...(o.ppo === undefined ? {} : { ppo: o.ppo }),
    harnessTraining: { iterations: cfg.harness.iterations, minibatch: cfg.harness.minibatch, learningRate: cfg.harness.learningRate, riskLoss: cfg.harness.riskLoss },
    log: (line) => io.progress(`train [${phase}] ${line}`),
    onWindow: (step) => {
      if (every > 0 && step < o.steps && Math.floor(step / every) > Math.floor((step - (schedule?.logEvery ?? 100)) / every)) {
        m.save(`checkpoints/${phase}`, `${run.note}; checkpoint step ${step}`);
        run.checkpoint({ phase, step, lambda: m.lambda.value });
      }
    },
  });
}

/** What training.json keeps of a harness phase's statistics. */
function flightSummary(s: CoEvolutionStats): NonNullable<TrainingState["coevolution"]> {
  return {
    flights: s.flights,
    collisions: s.collisions,
    goals: s.goals,
    warnings: s.warnings,
    maxAbsDeltaLog: s.maxAbsDeltaLog,
    sGtEvaluations: s.sGtEvaluations,
  };
}

/** Records a finished harness phase: lambda, statistics, validation AP. */
function recordHarnessPhase(run: PipelineRun, data: PhaseData, phase: HarnessPhase, m: HarnessPhaseModels, stats: CoEvolutionStats): void {
  const { state } = run;
  state.lambda[phase] = m.lambda.value;
  if (phase === "bc_harness") state.bcHarness = flightSummary(stats);
  else state.coevolution = flightSummary(stats);
  const ap = studentAp(m.student, m.harness, m.lambda.value, data.val);
  state.validation[phase] = apOf(ap);
  run.io.progress(`train [${phase}] done ${fmtAp(ap)} lambda ${m.lambda.value.toFixed(3)} S_gt evaluations ${stats.sGtEvaluations}`);
}

/** A harness trained against the frozen BC student. */
async function bcHarnessPhase(run: PipelineRun, data: PhaseData, bcStudent: Student): Promise<void> {
  const { io, cfg, options } = run;
  const t0 = performance.now();
  const start = run.resumeStep("bc_harness");
  const ck = start > 0 ? await io.load("checkpoints/bc_harness", "bc/harness") : undefined;
  const harness = ck instanceof HarnessNet ? ck : new HarnessNet({ ...cfg.harness.config, seed: options.seed + 4 });
  const lambda = resumedLambda(run, start);
  const m: HarnessPhaseModels = { student: bcStudent, harness, lambda, start, save: (dir, note) => io.save(dir, "bc/harness", harness, note) };
  const stats = runHarnessPhase(run, data, "bc_harness", m, { steps: cfg.bcHarnessSteps, rngSeed: options.seed + 12 });
  recordHarnessPhase(run, data, "bc_harness", m, stats);
  io.save("", "bc/harness", harness, `${run.note}; harness ${cfg.bcHarnessSteps} env steps against the frozen BC student`);
  run.finish("bc_harness", t0);
}

/** Co-evolution: a copy of the BC student (fresh variables, same weights) and a fresh harness. */
async function coevoPhase(run: PipelineRun, data: PhaseData, bcStudent: Student): Promise<void> {
  const { io, cfg, options } = run;
  const t0 = performance.now();
  const start = run.resumeStep("coevo");
  const ckS = start > 0 ? await io.load("checkpoints/coevo", "student") : undefined;
  const ckH = start > 0 ? await io.load("checkpoints/coevo", "harness") : undefined;
  let student: Student;
  if (ckS instanceof Student) student = ckS;
  else {
    student = new Student({ ...cfg.student.config, seed: options.seed + 3 });
    student.params.load(bcStudent.params.snapshot());
  }
  const harness = ckH instanceof HarnessNet ? ckH : new HarnessNet({ ...cfg.harness.config, seed: options.seed + 5 });
  const lambda = resumedLambda(run, start);
  const save = (dir: string, note: string): void => {
    io.save(dir, "student", student, note);
    io.save(dir, "harness", harness, note);
  };
  const m: HarnessPhaseModels = { student, harness, lambda, start, save };
  const stats = runHarnessPhase(run, data, "coevo", m, { steps: cfg.coevoSteps, rngSeed: options.seed + 13, ppo: cfg.ppo });
  recordHarnessPhase(run, data, "coevo", m, stats);
  io.save("", "student", student, `${run.note}; co-evolved student (BC init + ${cfg.coevoSteps} env steps, PPO on the policy head)`);
  io.save("", "harness", harness, `${run.note}; co-evolved harness (${cfg.coevoSteps} env steps)`);
  run.finish("coevo", t0);
}

export async function runTraining(io: TrainIO, options: TrainRunOptions): Promise<TrainingState> {
  const run = new PipelineRun(io, options, startingState(io, options));
  const data = recordFrames(run);
  const teacher = await teacherPhase(run, data);
  const bcStudent = await bcPhase(run, data, teacher);
  if (!run.done("bc_harness")) await bcHarnessPhase(run, data, bcStudent);
  if (!run.done("coevo")) await coevoPhase(run, data, bcStudent);
  return run.state;
}
