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
import { Rng } from "../training/Rng";
import { StateHistory } from "../training/HarnessedPolicy";
import { expertAction, threatInCorridor } from "./ExpertPilot";
import type { EnvironmentFactory } from "./DroneEnvironment";
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
};

export function generateFrames(options: GenerateOptions): FrameDataset {
  const rng = new Rng(options.rngSeed);
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
  for (const s of options.seeds) {
    const seed = options.source.require(s);
    const env = options.factory(seed, { perturbed: options.perturbed ?? false });
    width = env.width;
    height = env.height;
    let recorded = 0;
    const history = new StateHistory();
    for (let step = 0; recorded < maxFrames; step++) {
      const obs = env.expertObservation();
      const action = expertAction(obs);
      const threat = threatInCorridor(obs) !== null;
      const state = new Float32Array(options.stateDim);
      env.sensorState(state);
      history.push(state);
      const regular = step % every === 0;
      if (regular || (threat && step % threatEvery === 0)) {
        const rgb = new Uint8Array(env.width * env.height * 3);
        const mask = new Uint8Array(env.width * env.height);
        env.render(rgb, mask);
        const rates = history.rates(env.controlPeriod_s, new Float32Array(options.stateDim));
        frames.push({ seed, rgb, mask, state, expertAction: action, rates, threat });
        if (regular) recorded++;
      }
      const executed = rng.next() < explore ? rng.int(NUM_ACTIONS) : action;
      if (env.step(executed).type !== "running") break;
    }
    flights++;
    options.onFlight?.(flights, frames.length);
  }
  return { grid: { width, height, cell_px: 8 }, frames };
}
