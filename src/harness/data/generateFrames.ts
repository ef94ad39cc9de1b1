/**
 * Recording training frames from the simulator (issue 5 item 5): the expert pilot flies each
 * seed; every `recordEvery` control steps the camera frame, the ground-truth mask, the normalised
 * sensor state and the expert's action are stored. To visit states the expert alone would never
 * reach (the classic covariate-shift problem of behaviour cloning; Ross et al. 2011, DAgger), the
 * executed action is replaced with probability `explore` by a random action, while the recorded
 * label is always the expert's choice in the visited state.
 *
 * Frames in which the expert reacts to an obstacle (a wire, branch or trunk in its corridor) are
 * rare: a few seconds per flight. With `threatRecordEvery` they are recorded more densely than
 * the others (e.g. every control step) and flagged `threat`; they do not count against
 * `maxFramesPerFlight`, so the flight covers the same distance as without them.
 */
import { NUM_ACTIONS } from "../actions";
import { nearThreatCells } from "../eval/CellLabels";
import { Rng } from "../../util/Rng";
import { StateHistory } from "../runtime/StateHistory";
import { expertAction, threatInCorridor } from "./ExpertPilot";
import { makeNavigation, type DroneEnvironment, type EnvironmentFactory } from "./DroneEnvironment";
import type { FrameDataset, FrameSample } from "./FrameDataset";
import type { SeedSource } from "./SeedSplit";

export type GenerateOptions = {
  /** Seeds to fly; each is checked against `source` (the split guard). */
  seeds: readonly number[];
  source: SeedSource;
  factory: EnvironmentFactory;
  stateDim: number;
  /** Record every n-th control step. Default 3. */
  recordEvery?: number;
  /** Record every n-th control step while the expert reacts to an obstacle. Default recordEvery. */
  threatRecordEvery?: number;
  /** Stop a flight after this many recorded frames (threat frames recorded by threatRecordEvery not counted). Default 40. */
  maxFramesPerFlight?: number;
  /** Probability of executing a random action instead of the expert's. Default 0.2. */
  explore?: number;
  rngSeed: number;
  perturbed?: boolean;
  /** Progress callback (flights done, frames so far). */
  onFlight?: (flights: number, frames: number) => void;
  /**
   * Called with each finished flight's frames (and the dataset does not keep them when it returns
   * false: streaming to a cache without holding every frame in memory). Default: keep.
   */
  onFlightFrames?: (seed: number, frames: FrameSample[]) => boolean;
  /**
   * Who flies: default the expert with `explore` random actions. A pilot (e.g. the planner on a
   * detector's output) visits the states that pilot reaches; the recorded label stays the
   * expert's action, the masks the simulator's (DAgger style, Ross et al. 2011). The pilot is
   * reset at the start of every flight.
   */
  pilot?: FramePilot;
  /**
   * Also record the frames of the last `preCollision_s` seconds before a collision (rendered every
   * control step into a ring buffer, kept only when the flight ends in a collision; frames stay in
   * time order). Rendering every step advances the camera's noise stream, so the regular frames'
   * noise differs from a run without this option. Default 0.
   */
  preCollision_s?: number;
};

/** The per-flight RNG: depends on the run seed and the scenario seed only, so splitting seeds over workers changes nothing. */
export function flightRng(rngSeed: number, seed: number): Rng {
  return new Rng((Math.imul(rngSeed, 0x9e3779b1) ^ seed) | 0);
}

/** A pilot for recorded flights: `reset` starts a flight (its own state starts over), `act` flies one control step. */
export type FramePilot = { reset(): void; act(env: DroneEnvironment, rgb: Uint8Array): number };

export function generateFrames(options: GenerateOptions): FrameDataset {
  const every = options.recordEvery ?? 3;
  const threatEvery = options.threatRecordEvery ?? every;
  if (!(Number.isInteger(every) && every >= 1 && Number.isInteger(threatEvery) && threatEvery >= 1)) {
    throw new RangeError(`recordEvery=${every}, threatRecordEvery=${threatEvery}: expected integers >= 1`);
  }
  const maxFrames = options.maxFramesPerFlight ?? 40;
  const explore = options.explore ?? 0.2;
  const frames: FrameSample[] = [];
  let width = 0;
  let height = 0;
  let flights = 0;
  const nav = makeNavigation();
  for (const s of options.seeds) {
    const seed = options.source.require(s);
    const rng = flightRng(options.rngSeed, seed);
    const env = options.factory(seed, { perturbed: options.perturbed ?? false });
    width = env.width;
    height = env.height;
    const grid = { width, height, cell_px: 8 };
    const flight: { step: number; frame: FrameSample }[] = [];
    const ringSteps = Math.ceil((options.preCollision_s ?? 0) / env.controlPeriod_s);
    // The unrecorded frames of the last ringSteps control steps (the recorded ones are in flight).
    const ring: { step: number; frame: FrameSample }[] = [];
    let recorded = 0;
    const history = new StateHistory();
    const pilotRgb = options.pilot === undefined ? undefined : new Uint8Array(env.width * env.height * 3);
    options.pilot?.reset();
    for (let step = 0; recorded < maxFrames; step++) {
      const obs = env.expertObservation();
      const action = expertAction(obs);
      const threat = threatInCorridor(obs) !== null;
      const state = new Float32Array(options.stateDim);
      env.sensorState(state);
      history.push(state);
      const regular = step % every === 0;
      const keep = regular || (threat && step % threatEvery === 0);
      let frame: FrameSample | undefined;
      if (keep || ringSteps > 0) {
        const rgb = new Uint8Array(env.width * env.height * 3);
        const mask = new Uint8Array(env.width * env.height);
        const visibleMask = new Uint8Array(env.width * env.height);
        const depth = new Float32Array(env.width * env.height);
        env.render(rgb, mask, { visibleMask, depth });
        const near = nearThreatCells(visibleMask, depth, grid, env.navigation(nav).forwardSpeed_m_s);
        const rates = history.rates(env.controlPeriod_s, new Float32Array(options.stateDim));
        frame = { seed, rgb, mask, visibleMask, near, state, expertAction: action, rates, threat };
        if (pilotRgb !== undefined) pilotRgb.set(rgb);
      } else if (pilotRgb !== undefined) {
        env.render(pilotRgb);
      }
      if (keep && frame !== undefined) {
        flight.push({ step, frame });
        if (regular) recorded++;
      } else if (frame !== undefined) {
        ring.push({ step, frame });
        while (ring.length > 0 && (ring[0]?.step ?? step) <= step - ringSteps) ring.shift();
      }
      const executed =
        options.pilot !== undefined && pilotRgb !== undefined ? options.pilot.act(env, pilotRgb) : rng.next() < explore ? rng.int(NUM_ACTIONS) : action;
      const ev = env.step(executed);
      if (ev.type === "collision") flight.push(...ring);
      if (ev.type !== "running") break;
    }
    flights++;
    // In time order (the pre-collision frames were appended last).
    const ordered = flight.sort((a, b) => a.step - b.step).map((e) => e.frame);
    if (options.onFlightFrames === undefined || options.onFlightFrames(seed, ordered)) frames.push(...ordered);
    options.onFlight?.(flights, frames.length);
  }
  return { grid: { width, height, cell_px: 8 }, frames };
}
