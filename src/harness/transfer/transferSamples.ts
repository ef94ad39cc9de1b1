/**
 * Few-sample data for the transfer run (SPEC "Transfer"; seed 5.4): replay samples collected
 * exactly as the co-evolution harness phase collects them (coEvolve.ts), but with the student
 * frozen and acting alone (argmax first step, then temperature 1.2; Rollout.ts):
 *  - one sample per 3-step rollout: the rollout's first frame, sensor state s and backward
 *    |ds/dt| (StateHistory), r_true = 1 when any step of the rollout had a negative reward;
 *  - S_gt = |d pi / d s| of the frozen student by finite differences (studentSgt), once per
 *    sample when it is taken.
 * Every seed flown is checked against the SeedSource (train seeds for training, test seeds for
 * the held-out evaluation).
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS } from "../actions";
import { studentSgt } from "../diagnostics/finiteDifferenceSgt";
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import type { SeedSource } from "../data/SeedSplit";
import { buildImageInput } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { FlightRollouts, type FlightObs } from "../training/FlightRollouts";
import { decideFrame, rgbTensor } from "../runtime/HarnessedPolicy";
import { Rng } from "../../util/Rng";
import { collectRollout, createRollout, ROLLOUT_LENGTH } from "../training/Rollout";

export type TransferSample = {
  rgb: Uint8Array;
  width: number;
  height: number;
  state: Float32Array;
  rates: Float32Array;
  /** 1 when the 3-step rollout from this frame hit a negative reward. */
  rTrue: number;
  /** [SENSITIVITY_ROWS * STATE_DIM] finite-difference sensitivity of the frozen student. */
  sGt: Float32Array;
};

export type SampleCollectionOptions = {
  student: Student;
  factory: EnvironmentFactory;
  source: SeedSource;
  seeds: readonly number[];
  /** Samples to collect (one per rollout). */
  count: number;
  /**
   * Take a sample from every n-th rollout of a flight (1 = every rollout). Flights always run to
   * their end, so late-flight situations (where most collisions happen) are represented.
   */
  sampleEvery: number;
  rngSeed: number;
};

export type SampleCollection = { samples: TransferSample[]; flights: number; collisions: number; goals: number; steps: number };


/** Flies the frozen student over `seeds` (cycling) until `count` samples are taken. */
export function collectTransferSamples(options: SampleCollectionOptions): SampleCollection {
  const { student, count, sampleEvery } = options;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count=${count}, expected an integer >= 1`);
  if (!Number.isInteger(sampleEvery) || sampleEvery < 1) throw new RangeError(`sampleEvery=${sampleEvery}, expected an integer >= 1`);
  if (options.seeds.length === 0) throw new RangeError("transfer sample collection needs at least one seed, got 0");
  const rng = new Rng(options.rngSeed);
  const rollout = createRollout<FlightObs>({ length: ROLLOUT_LENGTH, actions: NUM_ACTIONS, features: STATE_DIM });
  const out: SampleCollection = { samples: [], flights: 0, collisions: 0, goals: 0, steps: 0 };
  let seedIndex = 0;
  let flight: FlightRollouts | undefined;
  let rolloutIndex = 0;
  const policy = {
    logits: (obs: FlightObs, logits: Float32Array): void => {
      const env = flight?.env;
      if (env === undefined) throw new Error("no flight in progress");
      decideFrame(student, undefined, 0, { rgb: obs.rgb, width: env.width, height: env.height, state: obs.state, rates: obs.rates }, obs.decision);
      logits.set(obs.decision.actionLogits);
    },
  };
  while (out.samples.length < count) {
    if (flight === undefined) {
      const seed = options.source.require(options.seeds[seedIndex % options.seeds.length]!);
      seedIndex++;
      flight = new FlightRollouts(options.factory(seed, { perturbed: false }));
      rolloutIndex = 0;
    }
    const env = flight.env;
    collectRollout(flight, policy, rollout, { rng });
    out.steps += rollout.steps;
    const first = rollout.observations[0];
    if (first !== undefined && rolloutIndex % sampleEvery === 0) {
      const sGt = tf.tidy(() => studentSgt(student, buildImageInput(rgbTensor(first.rgb, env.width, env.height)), first.state));
      out.samples.push({ rgb: first.rgb, width: env.width, height: env.height, state: first.state, rates: first.rates, rTrue: rollout.negativeWithinRollout, sGt });
    }
    rolloutIndex++;
    const ended = rollout.terminated === 1;
    if (ended) {
      out.flights++;
      if (flight.event.type === "collision") out.collisions++;
      if (flight.event.type === "goal") out.goals++;
    }
    if (ended) flight = undefined;
  }
  return out;
}
