/**
 * One closed-loop flight (SPEC "How results are measured": collision rate and success rate over
 * closed-loop flights on a fixed set of scenario seeds). The pilot sees only what the drone would
 * see (camera frame, normalised sensor state), except the privileged expert used as a reference.
 * The per-decision latency of the pilot is recorded (wall clock, ms).
 */
import type { DroneEnvironment, RenderTruth } from "../data/DroneEnvironment";
import type { FlightOutcome } from "./FlightMetrics";

export interface Pilot {
  /** False for pilots that never look at the camera (the privileged expert): rendering is skipped. */
  readonly needsImage: boolean;
  /**
   * True for the oracle rows that read the simulator's ground truth (mask, visible mask, depth)
   * instead of a detector: the frame is rendered with it and `truth` is passed to act().
   */
  readonly needsTruth?: boolean;
  /** Called once before each flight (clears histories). */
  reset(): void;
  /** Chooses an action from the camera frame (rgb8) and the sensor state. */
  act(rgb: Uint8Array, state: Float32Array, env: DroneEnvironment, truth?: FrameTruth): number;
  /**
   * The forward speed the last decision is flown at when it is not its action's own (PlannerPilot:
   * the escape in place, PlannerOptions.verticalInPlace), m/s; undefined: the action's. Every flight
   * loop hands it to DroneEnvironment.step.
   */
  readonly forward_m_s?: number | undefined;
}

/** The ground truth of one frame for oracle pilots. */
export type FrameTruth = { mask: Uint8Array } & Required<RenderTruth>;

export type FlightResult = { outcome: FlightOutcome; decisionMs: number[] };

export function flyClosedLoop(env: DroneEnvironment, pilot: Pilot, stateDim: number, maxSteps = 100000): FlightResult {
  const rgb = new Uint8Array(env.width * env.height * 3);
  const state = new Float32Array(stateDim);
  const decisionMs: number[] = [];
  const n = env.width * env.height;
  const truth: FrameTruth | undefined = pilot.needsTruth === true ? { mask: new Uint8Array(n), visibleMask: new Uint8Array(n), depth: new Float32Array(n) } : undefined;
  pilot.reset();
  for (let step = 0; step < maxSteps; step++) {
    if (truth !== undefined) env.render(rgb, truth.mask, truth);
    else if (pilot.needsImage) env.render(rgb);
    env.sensorState(state);
    const t0 = performance.now();
    const action = pilot.act(rgb, state, env, truth);
    decisionMs.push(performance.now() - t0);
    const ev = env.step(action, pilot.forward_m_s);
    switch (ev.type) {
      case "running":
        continue;
      case "goal":
        return { outcome: { type: "goal", seed: env.seed, time_s: env.time_s }, decisionMs };
      case "timeout":
        return { outcome: { type: "timeout", seed: env.seed, time_s: env.time_s }, decisionMs };
      case "collision":
        return { outcome: { type: "collision", seed: env.seed, time_s: env.time_s, obstacle: ev.obstacle }, decisionMs };
    }
  }
  return { outcome: { type: "timeout", seed: env.seed, time_s: env.time_s }, decisionMs };
}
