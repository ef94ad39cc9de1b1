/**
 * On-policy rollouts for the spatial harness (issue 13 items 1 and 3): the student detector (+ the
 * current harness) + the planner fly a training seed; every `recordEvery` control steps the
 * harness's inputs are recorded with
 *  - S_gt[free, j] per cell by finite differences (eps 0.01, SGT_EPSILON): the detector runs on the
 *    frame warped by eps along each state dimension (yaw rad, pitch rad, forward m; warp.ts) and
 *    |free_j - free_0| / eps is taken per cell;
 *  - the simulator's near-threat cells (visible structure within the horizon);
 *  - the risk target of every region (`riskTarget`): "collision" (default): after the flight, 1
 *    where the region holds a near-threat cell and the flight collides within the next
 *    `horizonSteps` control steps (the environment's own reward, -1 on a collision, over an 8 to
 *    12-step rollout), else 0; "contact": 1 where the region holds a near-threat cell, a visible
 *    structure the drone would reach within the planner's horizon (time to contact under 3 s,
 *    12 control steps, or under 12 m) if it held its course, whatever this flight then did;
 *    "wire-contact": the same with wire pixels only (label "wire", the simulator's CLASS_WIRE), so crowns,
 *    branches and trunks within the horizon do not make a region risky;
 *    "wire-gap": the wire-contact cells that the student's own, uncorrected near-threat output
 *    leaves unflagged (probability < WIRE_GAP_FLAG, the planner's flag level; CellLabels.ts): the gaps along near
 *    wires that the thirteenth session's error decomposition traced the collisions to (mending
 *    them from the truth took the round-2 student's val collisions from 10 / 17 % to 0 / 0 %).
 * Pure: environments come from the caller; no files.
 */
import { SGT_EPSILON } from "../diagnostics/constants";
import type { DroneEnvironment } from "../data/DroneEnvironment";
import { classOnly, nearThreatCells, wireGapCells } from "../eval/CellLabels";
import type { FlightOutcome } from "../eval/FlightMetrics";
import { PlannerPilot } from "../eval/PlannerPilot";
import type { Teacher } from "../models/Teacher";
import { STATE_DIM } from "../models/stateVector";
import { DETECTOR_CELL_PX } from "../runtime/DetectorRuntime";
import { SpatialHarness, type SpatialHarnessWeights, HARNESS_CELL_CHANNELS, markRegions, NUM_SENSITIVITY_DIMS, REGION_CELLS } from "./SpatialHarness";
import { DETECTOR_OUTPUTS_PER_CELL } from "./spatialFeatures";
import { warpImage, type ImaginedMotion } from "./warp";
import { assignReturns, RiskSampler, type PolicyRecord, type RiskPolicyOptions } from "./riskSampling";
import { environmentReward } from "../training/EnvironmentReward";
import type { PlannerOptions } from "../../control/LocalPlanner";
import { DETECTION_CLASSES } from "../actions";

export type SpatialSample = {
  seed: number;
  step: number;
  /** HARNESS_CELL_CHANNELS per cell. */
  features: Float32Array;
  /** NUM_SENSITIVITY_DIMS per cell. */
  sgt: Float32Array;
  /** |yaw rate|, |pitch rate|, |forward speed|. */
  rates: Float32Array;
  /** Near-threat ground truth per cell (0/1). */
  near: Uint8Array;
  /** Risk target per region (0/1), filled when the flight ends. */
  riskTarget: Uint8Array;
  /** With a contact-type target: the cells (0/1) that made their regions risky. */
  targetCells?: Uint8Array;
  /** With `policy` (the PPO ablation): the draws of this decision and their return. */
  policy?: PolicyRecord;
};

export type SpatialFlight = { seed: number; outcome: FlightOutcome; steps: number; samples: SpatialSample[] };

export type SpatialRolloutOptions = {
  detector: Teacher;
  /** The harness flying with the student (co-evolution rounds after the first); its correction is applied. */
  harness?: SpatialHarness | SpatialHarnessWeights;
  /** The applied harness's per-region clip (`regionClip`); default DELTA_NORM_MAX (0.5). */
  regionClip?: number;
  planner?: Partial<PlannerOptions>;
  /** Record every n-th control step. Default 2 (0.5 s at 4 Hz). */
  recordEvery?: number;
  /** Rollout length of the risk target, control steps. Default 10 (2.5 s at 4 Hz; SPEC: 8 to 12). */
  horizonSteps?: number;
  /** Finite-difference step. Default SGT_EPSILON (0.01). */
  eps?: number;
  /** Upper bound on control steps per flight. Default 100,000. */
  maxSteps?: number;
  /** What makes a region risky (see the file comment). Default "collision". */
  riskTarget?: RiskTarget;
  /**
   * The PPO ablation (riskSampling.ts): the applied harness acts as a stochastic policy, each
   * region's correction drawn on or off with probability r on the recorded decisions and held
   * between them; each sample gets the draws and their discounted return. Needs `harness`.
   */
  policy?: RiskPolicyOptions;
};

export type RiskTarget = "collision" | "contact" | "wire-contact" | "wire-gap";

/** The wire label of the visible-pixel masks (the label masks share DETECTION_CLASSES' ids). */
const WIRE_LABEL = DETECTION_CLASSES.indexOf("wire");

/** Mask pixels of the wire class kept, all others 0 (the "wire-contact" target). */
export function wireOnly(mask: Uint8Array, out: Uint8Array = new Uint8Array(mask.length)): Uint8Array {
  return classOnly(mask, WIRE_LABEL, out);
}

/** The cells making their regions risky under a contact-type target (undefined for "collision"); before S_gt overwrites the detector's outputs. */
function contactCells(target: RiskTarget, near: Uint8Array, truth: { visibleMask: Uint8Array; depth: Float32Array }, wires: Uint8Array, grid: { width: number; height: number }, speed: number, threat: () => Float32Array): Uint8Array | undefined {
  if (target === "collision") return undefined;
  if (target === "contact") return near;
  const nearWire = nearThreatCells(wireOnly(truth.visibleMask, wires), truth.depth, { ...grid, cell_px: DETECTOR_CELL_PX }, speed);
  return target === "wire-gap" ? wireGapCells(nearWire, threat(), nearWire) : nearWire;
}

/** Flies one rollout flight and returns its recorded samples. */
export function flySpatialRollout(env: DroneEnvironment, options: SpatialRolloutOptions): SpatialFlight {
  const recordEvery = options.recordEvery ?? 2;
  const horizon = options.horizonSteps ?? 10;
  const eps = options.eps ?? SGT_EPSILON;
  if (!(Number.isInteger(recordEvery) && recordEvery >= 1)) throw new RangeError(`recordEvery=${recordEvery}, expected an integer >= 1`);
  if (!(Number.isInteger(horizon) && horizon >= 1)) throw new RangeError(`horizonSteps=${horizon}, expected an integer >= 1`);
  if (!(eps > 0)) throw new RangeError(`eps=${eps}, expected > 0`);
  const { width, height } = env;
  const rows = height / DETECTOR_CELL_PX;
  const cols = width / DETECTOR_CELL_PX;
  const cells = rows * cols;
  const regions = cells / (REGION_CELLS * REGION_CELLS);
  if (options.policy !== undefined && options.harness === undefined) throw new RangeError("flySpatialRollout: a sampled policy needs the harness it samples from");
  const sampler = options.policy === undefined ? undefined : new RiskSampler(options.policy, env.seed);
  const harnessOptions = { ...(options.regionClip === undefined ? {} : { regionClip: options.regionClip }), ...(sampler === undefined ? {} : { riskPolicy: sampler.apply }) };
  // Without a harness the pilot runs an untrained one with apply=false: only its features are used.
  const pilot = new PlannerPilot(
    { type: "detector", detector: options.detector, harness: { model: options.harness ?? new SpatialHarness(), apply: options.harness !== undefined, options: harnessOptions } },
    options.planner,
  );
  const rgb = new Uint8Array(width * height * 3);
  const mask = new Uint8Array(width * height);
  const truth = { visibleMask: new Uint8Array(width * height), depth: new Float32Array(width * height) };
  const wires = new Uint8Array(width * height);
  const state = new Float32Array(STATE_DIM);
  const warped = new Float32Array(width * height * 3);
  const base = new Float32Array(cells);
  const samples: SpatialSample[] = [];
  pilot.reset();
  let outcome: FlightOutcome = { type: "timeout", seed: env.seed, time_s: 0 };
  let step = 0;
  const maxSteps = options.maxSteps ?? 100000;
  for (; step < maxSteps; step++) {
    const record = step % recordEvery === 0;
    if (record) env.render(rgb, mask, truth);
    else env.render(rgb);
    env.sensorState(state);
    if (sampler !== undefined) sampler.drawNext = record;
    const action = pilot.act(rgb, state, env);
    if (record) {
      const det = pilot.detectorRuntime;
      const harness = pilot.harnessRuntime;
      if (det === undefined || harness === undefined) throw new Error("flySpatialRollout: the pilot has no detector or harness runtime");
      const sample: SpatialSample = {
        seed: env.seed,
        step,
        features: Float32Array.from(harness.features),
        sgt: new Float32Array(cells * NUM_SENSITIVITY_DIMS),
        rates: Float32Array.from(harness.rates),
        near: Uint8Array.from(nearThreatCells(truth.visibleMask, truth.depth, { width, height, cell_px: DETECTOR_CELL_PX }, harness.rates[2]!)),
        riskTarget: new Uint8Array(regions),
        ...(sampler?.last === undefined ? {} : { policy: sampler.last }),
      };
      if (sample.features.length !== cells * HARNESS_CELL_CHANNELS) throw new Error(`features length ${sample.features.length}, expected ${cells * HARNESS_CELL_CHANNELS}`);
      const contact = contactCells(options.riskTarget ?? "collision", sample.near, truth, wires, env, harness.rates[2]!, () => det.threat);
      if (contact !== undefined) {
        sample.targetCells = Uint8Array.from(contact);
        markRegions(contact, cols, sample.riskTarget);
      }
      sensitivityGroundTruth(det, rgb, width, height, harness, env, eps, warped, base, sample.sgt);
      samples.push(sample);
    }
    const ev = env.step(action);
    if (ev.type === "running") continue;
    outcome = ev.type === "collision" ? { type: "collision", seed: env.seed, time_s: env.time_s, obstacle: ev.obstacle } : { type: ev.type, seed: env.seed, time_s: env.time_s };
    break;
  }
  if (outcome.type === "collision" && (options.riskTarget ?? "collision") === "collision") {
    for (const s of samples) {
      if (step - s.step > horizon) continue;
      markRegions(s.near, cols, s.riskTarget);
    }
  }
  if (options.policy !== undefined) assignReturns(samples, step, environmentReward({ type: outcome.type }).reward, options.policy.gamma);
  return { seed: env.seed, outcome, steps: step + 1, samples };
}

/** S_gt[free, j] per cell: |free(warp(I, eps e_j)) - free(I)| / eps, detector run on float frames. */
function sensitivityGroundTruth(
  det: NonNullable<PlannerPilot["detectorRuntime"]>,
  rgb: Uint8Array,
  width: number,
  height: number,
  harness: NonNullable<PlannerPilot["harnessRuntime"]>,
  env: DroneEnvironment,
  eps: number,
  warped: Float32Array,
  base: Float32Array,
  out: Float32Array,
): void {
  const cells = base.length;
  for (let c = 0; c < cells; c++) base[c] = det.logits[c * DETECTOR_OUTPUTS_PER_CELL]!;
  const gain = det.sobelGain;
  det.sobelGain = det.lastSobelGain;
  const nav = { altitude_m: env.altitude_m(), bodyPitch_rad: 0 };
  for (let j = 0; j < NUM_SENSITIVITY_DIMS; j++) {
    const m: ImaginedMotion = { forward_m: j === 2 ? eps : 0, yaw_rad: j === 0 ? eps : 0, pitchDown_rad: j === 1 ? eps : 0, ...nav };
    warpImage(rgb, width, height, 3, harness.camera, m, warped);
    det.infer(warped);
    for (let c = 0; c < cells; c++) out[c * NUM_SENSITIVITY_DIMS + j] = Math.abs(det.logits[c * DETECTOR_OUTPUTS_PER_CELL]! - base[c]!) / eps;
  }
  det.sobelGain = gain;
}
