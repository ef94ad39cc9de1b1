/**
 * Co-evolution training (SPEC "Co-evolution training"; seed sections 3.2, 3.3, 5.1, 5.2):
 * on-policy rollouts of 3 steps in the simulator (argmax, then temperature 1.2, environment
 * reward only), and two asynchronous phases:
 *  - every 100 environment steps: PPO on the student with the harness frozen (actions sampled
 *    from pi_theta, advantage under pi_corrected (advantage.ts), clip 0.2, entropy bonus
 *    beta H(pi_corrected), beta 0.01);
 *  - every 200 environment steps: the harness with the student frozen,
 *    0.15 * [max(0, r_true - r_pred) + alpha ||S - S_gt||^2], alpha 0.05, S_gt computed by
 *    finite differences once per sample when it enters the replay buffer;
 *  - every 100 steps: max|delta| is logged; sustained > 0.6 warns and lowers lambda.
 * Each phase's optimizer receives an explicit variable list, so a phase cannot move the other
 * network (test/harness/training/coEvolve.test.ts checks it).
 *
 * What PPO updates: the student's policy head only (variables named "policy/..."). The conv
 * backbone and the detection head keep their BC values. Reason: the environment reward says
 * nothing about the cell labels, so PPO gradients through the shared backbone could only move the
 * detector away from the teacher it was distilled from; and a backward pass through the convs
 * for every PPO sample would multiply the cost on our 2 shared cores. `trainStudent: false` gives
 * the "BC student + harness (student frozen)" configuration: only the harness phase runs.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS } from "../actions";
import { LambdaSchedule } from "../correction/LambdaSchedule";
import { softmaxCorrected } from "../correction/correctionDelta";
import { studentSgt } from "../diagnostics/finiteDifferenceSgt";
import { HARNESS_LOSS_WEIGHT } from "../diagnostics/constants";
import { harnessLoss } from "../diagnostics/harnessLoss";
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import type { SeedSource } from "../data/SeedSplit";
import { SENSITIVITY_ROWS, type HarnessNet } from "../models/HarnessNet";
import { buildHarnessImage, buildImageInput, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { correctedAdvantages, PPO_CLIP } from "./advantage";
import { CoEvolutionSchedule, DEFAULT_SCHEDULE, type ScheduleOptions } from "./CoEvolutionSchedule";
import { FlightRollouts, type FlightObs } from "./FlightRollouts";
import { decideFrame, rgbTensor } from "../runtime/HarnessedPolicy";
import { ppoLoss, ENTROPY_BETA } from "./ppoLoss";
import { ReplayBuffer } from "./ReplayBuffer";
import { Rng } from "../../util/Rng";
import { collectRollout, createRollout, returnsToGo, ROLLOUT_LENGTH, type Rollout } from "./Rollout";

export type CoEvolutionOptions = {
  student: Student;
  harness: HarnessNet;
  factory: EnvironmentFactory;
  /** The train-split guard; every seed flown is checked against it. */
  source: SeedSource;
  seeds: readonly number[];
  /** Environment steps to run in total. */
  steps: number;
  /** Steps already done before this call (resume from a checkpoint; the replay buffer and the optimizer moments start empty). Default 0. */
  startStep?: number;
  /** false: only the harness learns (the "BC student + harness" row). */
  trainStudent: boolean;
  rngSeed: number;
  lambda: LambdaSchedule;
  schedule?: ScheduleOptions;
  /**
   * PPO settings. `optimizer` "sgd" (default) or "adam". With Adam the entropy bonus alone moves
   * every weight by about the learning rate per step even when all advantages are zero (Adam
   * normalises the gradient's scale), which flattened the policy to uniform in our first run
   * (docs/training.md); plain SGD keeps beta = 0.01 a small regulariser, as SPEC intends.
   */
  ppo?: { epochs: number; minibatch: number; learningRate: number; optimizer?: "adam" | "sgd" };
  harnessTraining?: { iterations: number; minibatch: number; learningRate: number; riskLoss: "hinge" | "bce" };
  replayCapacity?: number;
  /** Progress and warnings (one line each). */
  log?: (line: string) => void;
  /** Called after each log window with the step (for checkpoints); return false to stop. */
  onWindow?: (step: number) => boolean | void;
};

export type CoEvolutionStats = {
  steps: number;
  flights: number;
  collisions: number;
  goals: number;
  studentUpdates: number;
  harnessUpdates: number;
  lastPpoLoss: number;
  lastHarnessLoss: number;
  maxAbsDeltaLog: number[];
  warnings: number;
  sGtEvaluations: number;
};


type ReplaySample = { rgb: Uint8Array; state: Float32Array; rates: Float32Array; rTrue: number };

type PpoSample = { rgb: Uint8Array; state: Float32Array; action: number; oldLogProb: number; piTheta: number; piCorrected: number; actionDelta: Float32Array; ret: number };

/** The student's policy-head variables (the only ones PPO moves). */
export function policyVariables(student: Student): tf.Variable[] {
  return student.params
    .names()
    .filter((n) => n.startsWith("policy/"))
    .map((n) => student.params.get(n));
}

function crossed(prev: number, now: number, every: number): boolean {
  return Math.floor(prev / every) < Math.floor(now / every);
}

type PpoSettings = NonNullable<CoEvolutionOptions["ppo"]>;
type HarnessSettings = NonNullable<CoEvolutionOptions["harnessTraining"]>;

/** Size of the current flight's frames (the observations carry bare rgb bytes). */
type FrameSize = { width: number; height: number };

/** max|delta| over the current log window. */
type DeltaWindow = { maxDelta: number };

function newStats(startStep: number): CoEvolutionStats {
  return {
    steps: startStep,
    flights: 0,
    collisions: 0,
    goals: 0,
    studentUpdates: 0,
    harnessUpdates: 0,
    lastPpoLoss: Number.NaN,
    lastHarnessLoss: Number.NaN,
    maxAbsDeltaLog: [],
    warnings: 0,
    sGtEvaluations: 0,
  };
}

/** The rollout policy: student + harness on each frame (pi_corrected's logits), updating lambda and the window's max|delta|. */
function harnessedPolicy(options: CoEvolutionOptions, size: FrameSize, window: DeltaWindow): { logits: (obs: FlightObs, out: Float32Array) => void } {
  return {
    logits: (obs, out) => {
      decideFrame(options.student, options.harness, options.lambda.value, { rgb: obs.rgb, width: size.width, height: size.height, state: obs.state, rates: obs.rates }, obs.decision);
      options.lambda.update(obs.decision.risk);
      window.maxDelta = Math.max(window.maxDelta, obs.decision.maxAbsDelta);
      out.set(obs.decision.actionLogits);
    },
  };
}

/** A new flight on the next training seed (round robin), checked against the train split. */
function startFlight(options: CoEvolutionOptions, seedIndex: number, size: FrameSize): FlightRollouts {
  const seeds = options.seeds;
  if (seeds.length === 0) throw new RangeError("co-evolution needs at least one training seed, got 0");
  const seed = options.source.require(seeds[seedIndex % seeds.length]!);
  const env = options.factory(seed, { perturbed: false });
  size.width = env.width;
  size.height = env.height;
  return new FlightRollouts(env);
}

/** A collected rollout into the PPO buffer (every step; omitted when the student is frozen) and the replay buffer (its first frame). */
function bufferRollout(rollout: Rollout<FlightObs>, scratch: { pc: Float32Array; returns: Float32Array }, ppoBuffer: PpoSample[] | undefined, replay: ReplayBuffer<ReplaySample>): void {
  returnsToGo(rollout, scratch.returns);
  for (let t = 0; t < rollout.steps; t++) {
    const obs = rollout.observations[t];
    if (obs === undefined) continue;
    const a = rollout.actions[t]!;
    softmaxCorrected(obs.decision.actionLogits, obs.decision.actionDelta, scratch.pc);
    const oldLogProb = rollout.logProbs[t]!;
    ppoBuffer?.push({
      rgb: obs.rgb,
      state: obs.state,
      action: a,
      oldLogProb,
      piTheta: Math.exp(oldLogProb),
      piCorrected: scratch.pc[a]!,
      actionDelta: obs.decision.actionDelta.slice(),
      ret: scratch.returns[t]!,
    });
  }
  const first = rollout.observations[0];
  if (first !== undefined) replay.insert({ rgb: first.rgb, state: first.state, rates: first.rates, rTrue: rollout.negativeWithinRollout });
}

/**
 * Perception of every sample once, without gradients (the backbone is not trained by PPO). The
 * detection base is kept too: a policy that reads the detections needs the real ones.
 */
function perceiveAll(student: Student, samples: readonly PpoSample[], size: FrameSize): [tf.Tensor2D, tf.Tensor4D] {
  return tf.tidy(() => {
    const parts: tf.Tensor2D[] = [];
    const dets: tf.Tensor4D[] = [];
    for (const s of samples) {
      const p = student.perceive(buildImageInput(rgbTensor(s.rgb, size.width, size.height)));
      parts.push(p.pooled);
      dets.push(p.detBase);
    }
    return [tf.concat(parts, 0), tf.concat(dets, 0)];
  });
}

/** The PPO phase: `epochs` passes of shuffled minibatches over the buffered samples; returns the last minibatch's loss. */
function ppoUpdate(student: Student, optimizer: tf.Optimizer, variables: tf.Variable[], samples: readonly PpoSample[], o: PpoSettings, rng: Rng, size: FrameSize): number {
  const n = samples.length;
  const adv = correctedAdvantages(
    {
      returns: samples.map((s) => s.ret),
      valid: samples.map(() => 1),
      piTheta: samples.map((s) => s.piTheta),
      piCorrected: samples.map((s) => s.piCorrected),
    },
    new Float32Array(n),
  );
  const [pooled, detBaseAll] = perceiveAll(student, samples, size);
  const order = Array.from({ length: n }, (_, i) => i);
  let last = Number.NaN;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    rng.shuffle(order);
    for (let start = 0; start < n; start += o.minibatch) {
      const idx = order.slice(start, start + o.minibatch);
      const b = idx.length;
      const idxT = tf.tensor1d(idx, "int32");
      const pMb = tf.gather(pooled, idxT);
      const stateMb = tf.tensor2d(Float32Array.from(idx.flatMap((i) => Array.from(samples[i]?.state ?? []))), [b, STATE_DIM]);
      const deltaMb = tf.tensor2d(Float32Array.from(idx.flatMap((i) => Array.from(samples[i]?.actionDelta ?? []))), [b, NUM_ACTIONS]);
      const actions = tf.tensor1d(idx.map((i) => samples[i]?.action ?? 0), "int32");
      const oldLogProbs = tf.tensor1d(idx.map((i) => samples[i]?.oldLogProb ?? 0));
      const advantages = tf.tensor1d(idx.map((i) => adv[i]!));
      const valid = tf.ones<tf.Rank.R1>([b]);
      const detBase = tf.gather(detBaseAll, idxT);
      const loss = optimizer.minimize(
        () => {
          const logits = student.heads({ detBase, pooled: pMb }, stateMb).actionLogits;
          return ppoLoss({ logits, delta: deltaMb, actions, oldLogProbs, advantages, valid }, PPO_CLIP, ENTROPY_BETA).loss;
        },
        true,
        variables,
      );
      last = loss === null ? Number.NaN : loss.dataSync()[0]!;
      tf.dispose([loss ?? [], idxT, pMb, stateMb, deltaMb, actions, oldLogProbs, advantages, valid, detBase]);
    }
  }
  pooled.dispose();
  detBaseAll.dispose();
  return last;
}

/** The harness phase: `iterations` minibatches from the replay buffer with the student frozen; returns the last loss. */
function harnessUpdate(harness: HarnessNet, optimizer: tf.Optimizer, variables: tf.Variable[], replay: ReplayBuffer<ReplaySample>, o: HarnessSettings, rng: Rng, size: FrameSize): number {
  let last = Number.NaN;
  for (let it = 0; it < o.iterations; it++) {
    const batch = replay.sample(o.minibatch, rng);
    const b = batch.length;
    const images = tf.tidy(() => {
      const imgs = batch.map((e) => buildHarnessImage(buildImageInput(rgbTensor(e.sample.rgb, size.width, size.height)), []));
      return tf.concat(imgs, 0);
    });
    const state = tf.tensor2d(Float32Array.from(batch.flatMap((e) => Array.from(e.sample.state))), [b, STATE_DIM]);
    const rates = tf.tensor2d(Float32Array.from(batch.flatMap((e) => Array.from(e.sample.rates))), [b, STATE_DIM]);
    const rTrue = tf.tensor1d(batch.map((e) => e.sample.rTrue));
    const sGt = tf.tensor3d(Float32Array.from(batch.flatMap((e) => Array.from(e.sGt))), [b, SENSITIVITY_ROWS, STATE_DIM]);
    const rewards = tf.zeros<tf.Rank.R2>([b, ROLLOUT_STEPS]);
    const loss = optimizer.minimize(
      () => {
        const out = harness.forward({ image: images, state, rolloutRewards: rewards, stateRates: rates });
        return tf.mul<tf.Scalar>(harnessLoss(out.risk, rTrue, out.sensitivity, sGt, { riskLoss: o.riskLoss }).total, HARNESS_LOSS_WEIGHT);
      },
      true,
      variables,
    );
    last = loss === null ? Number.NaN : loss.dataSync()[0]!;
    tf.dispose([loss ?? [], images, state, rates, rTrue, sGt, rewards]);
  }
  return last;
}

/** End of a log window: records max|delta|, lowers lambda on a sustained runaway, logs. Returns false when onWindow asks to stop. */
function closeWindow(options: CoEvolutionOptions, schedule: CoEvolutionSchedule, stats: CoEvolutionStats, window: DeltaWindow, log: (line: string) => void): boolean {
  const so = schedule.options;
  stats.maxAbsDeltaLog.push(window.maxDelta);
  const alarm = schedule.observeMaxDelta(window.maxDelta);
  if (alarm.warn) {
    stats.warnings++;
    const lowered = options.lambda.reduceForRunaway();
    log(`WARNING: max|delta| stayed above ${so.deltaAlarm} for ${so.sustainedLogs} logs: harness out of control, lambda lowered to ${lowered.toFixed(3)}`);
  }
  log(
    `co-evolution step ${stats.steps}/${options.steps} max|delta| ${window.maxDelta.toFixed(3)} lambda ${options.lambda.value.toFixed(3)} ` +
      `ppo ${stats.lastPpoLoss.toFixed(4)} harness ${stats.lastHarnessLoss.toFixed(4)} flights ${stats.flights} collisions ${stats.collisions} goals ${stats.goals}`,
  );
  window.maxDelta = 0;
  return options.onWindow?.(stats.steps) !== false;
}

export function coEvolve(options: CoEvolutionOptions): CoEvolutionStats {
  const { student, harness } = options;
  const log = options.log ?? (() => undefined);
  const schedule = new CoEvolutionSchedule(options.schedule ?? DEFAULT_SCHEDULE);
  const so = schedule.options;
  const ppoOpt = options.ppo ?? { epochs: 4, minibatch: 32, learningRate: 0.01, optimizer: "sgd" as const };
  const hOpt = options.harnessTraining ?? { iterations: 8, minibatch: 16, learningRate: 1e-3, riskLoss: "hinge" as const };
  const rng = new Rng(options.rngSeed);
  const studentOptimizer = (ppoOpt.optimizer ?? "sgd") === "adam" ? tf.train.adam(ppoOpt.learningRate) : tf.train.sgd(ppoOpt.learningRate);
  const harnessOptimizer = tf.train.adam(hOpt.learningRate);
  const studentVars = policyVariables(student);
  const harnessVars = harness.trainableVariables();
  const size: FrameSize = { width: 0, height: 0 };
  const replay = new ReplayBuffer<ReplaySample>(options.replayCapacity ?? 2000, (s) =>
    tf.tidy(() => studentSgt(student, buildImageInput(rgbTensor(s.rgb, size.width, size.height)), s.state)),
  );
  const stats = newStats(options.startStep ?? 0);
  const ppoBuffer: PpoSample[] = [];
  const window: DeltaWindow = { maxDelta: 0 };
  const policy = harnessedPolicy(options, size, window);
  const rollout = createRollout<FlightObs>({ length: ROLLOUT_LENGTH, actions: NUM_ACTIONS, features: STATE_DIM });
  const scratch = { pc: new Float32Array(NUM_ACTIONS), returns: new Float32Array(ROLLOUT_LENGTH) };
  let seedIndex = 0;
  let flight: FlightRollouts | undefined;
  try {
    while (stats.steps < options.steps) {
      flight ??= startFlight(options, seedIndex++, size);
      collectRollout(flight, policy, rollout, { rng });
      bufferRollout(rollout, scratch, options.trainStudent ? ppoBuffer : undefined, replay);
      const prev = stats.steps;
      stats.steps += rollout.steps;
      if (rollout.terminated === 1) {
        stats.flights++;
        if (flight.event.type === "collision") stats.collisions++;
        if (flight.event.type === "goal") stats.goals++;
        flight = undefined;
      }
      if (options.trainStudent && crossed(prev, stats.steps, so.studentEvery) && ppoBuffer.length > 0) {
        stats.lastPpoLoss = ppoUpdate(student, studentOptimizer, studentVars, ppoBuffer, ppoOpt, rng, size);
        ppoBuffer.length = 0;
        stats.studentUpdates++;
      }
      if (crossed(prev, stats.steps, so.harnessEvery) && replay.size > 0) {
        stats.lastHarnessLoss = harnessUpdate(harness, harnessOptimizer, harnessVars, replay, hOpt, rng, size);
        stats.harnessUpdates++;
      }
      if (crossed(prev, stats.steps, so.logEvery) && !closeWindow(options, schedule, stats, window, log)) break;
    }
  } finally {
    studentOptimizer.dispose();
    harnessOptimizer.dispose();
  }
  stats.sGtEvaluations = replay.sGtEvaluations;
  return stats;
}
