/**
 * Recording training frames from the simulator (issue 5 item 5): the expert pilot flies each
 * seed; every `recordEvery` control steps the camera frame, the ground-truth mask, the normalised
 * sensor state and the expert's action are stored. To visit states the expert alone would never
 * reach (the classic covariate-shift problem of behaviour cloning; Ross et al. 2011, DAgger), the
 * executed action is replaced with probability `explore` by a random action, while the recorded
 * label is always the expert's choice in the visited state.
 */
import { NUM_ACTIONS } from "../actions";
import { Rng } from "../training/Rng";
import { StateHistory } from "../training/HarnessedPolicy";
import { expertAction } from "./ExpertPilot";
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
  /** Stop a flight after this many recorded frames. Default 40. */
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
      const action = expertAction(env.expertObservation());
      const state = new Float32Array(options.stateDim);
      env.sensorState(state);
      history.push(state);
      if (step % every === 0) {
        const rgb = new Uint8Array(env.width * env.height * 3);
        const mask = new Uint8Array(env.width * env.height);
        env.render(rgb, mask);
        const rates = history.rates(env.controlPeriod_s, new Float32Array(options.stateDim));
        frames.push({ seed, rgb, mask, state, expertAction: action, rates });
        recorded++;
      }
      const executed = rng.next() < explore ? rng.int(NUM_ACTIONS) : action;
      if (env.step(executed).type !== "running") break;
    }
    flights++;
    options.onFlight?.(flights, frames.length);
  }
  return { grid: { width, height, cell_px: 8 }, frames };
}
