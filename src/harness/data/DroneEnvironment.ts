/**
 * The narrow view of one simulated flight that data generation, co-evolution rollouts and the
 * closed-loop evaluation need. The simulator adapter (simEnvironment.ts) implements it; tests use
 * small fakes. One environment = one scenario seed, created through a SeedSource so its split is
 * checked.
 */
import type { ExpertObservation } from "./ExpertPilot";
import type { WireGeometry } from "../eval/wireCrossings";

export type FlightEvent =
  | { type: "running" }
  | { type: "goal" }
  | { type: "timeout" }
  | { type: "collision"; obstacle: "wire" | "branch" | "pole_trunk" | "ground" };

export interface DroneEnvironment {
  readonly seed: number;
  /** Seconds of simulated time per control step (one action). */
  readonly controlPeriod_s: number;
  /** Camera size. */
  readonly width: number;
  readonly height: number;
  /** Simulated time since the start, s. */
  readonly time_s: number;
  /**
   * Renders the current camera frame (rgb8) and, when given, the ground-truth class mask (every
   * pixel a structure's centre line crosses) and the extra truth (visible-only mask, depth).
   */
  render(rgb: Uint8Array, mask?: Uint8Array, truth?: RenderTruth): void;
  /** Goal and motion relative to the drone, for the planner (from the simulator's true state). */
  navigation(out: Navigation): Navigation;
  /** Writes the normalised sensor state (STATE_DIM values in [-1, 1]) into `out`. */
  sensorState(out: Float32Array): void;
  /** Altitude above ground, m (the harness's texture rule uses it). */
  altitude_m(): number;
  /** Privileged state for the expert pilot. */
  expertObservation(): ExpertObservation;
  /**
   * Applies one action for one control period. After a terminal event the flight is over.
   * `forward_m_s`, when given, replaces the action's forward speed (the planner's vertical escape in
   * place, PlannerOptions.verticalInPlace); environments that cannot fly it throw.
   */
  step(action: number, forward_m_s?: number): FlightEvent;
  /** Ground truth for evaluation diagnostics (eval/wireCrossings.ts), optional: the drone's true position (ENU, m) into `out[0..2]`. */
  truePosition_m?(out: Float64Array): void;
  /** Ground truth for evaluation diagnostics, optional: the world's wire conductors as segments. */
  wireGeometry?(): WireGeometry;
}

/** Extra ground truth of one frame (sim/Renderer.ts RenderTarget.visibleMask and depth). */
export type RenderTruth = { visibleMask?: Uint8Array; depth?: Float32Array };

/** What the planner needs besides the image: SPEC "Goal" (bearing, distance, altitude difference); src/control/navigation.ts. */
import type { Navigation } from "../../control/navigation";
export { makeNavigation, type Navigation } from "../../control/navigation";

export type EnvironmentFactory = (seed: number, options: { perturbed: boolean }) => DroneEnvironment;
