/**
 * Headless flight: one Simulation flown by a controller at the camera rate, rendering every frame
 * (so the cost is what a closed-loop run pays), optionally handing frames and their masks to a
 * sink (the CLI writes PNGs), and reporting progress. Pure: files are written by the caller.
 */
import type { BodyVelocityCommand } from "../src/control/actions";
import { makePrivilegedState } from "./privileged";
import { scriptedCommand } from "./ScriptedPilot";
import type { Scenario } from "./Scenario";
import { createSimulation, type CollisionEvent, type FlightStatus, type Simulation } from "./Simulation";

export type Controller = (sim: Simulation, out: BodyVelocityCommand) => BodyVelocityCommand;

export type HeadlessOptions = {
  scenario: Scenario;
  seed: number;
  /** Apply the scenario's perturbation block. Default false. */
  perturbed?: boolean;
  /** Simulated seconds; default the scenario's time limit. */
  duration_s?: number;
  /** Default: the scripted pilot (sim/ScriptedPilot.ts) over the privileged state. */
  controller?: Controller;
  /** Called with every rendered frame (rgb8 and class mask, reused buffers: copy to keep). */
  onFrame?: (index: number, rgb: Uint8Array, mask: Uint8Array, sim: Simulation) => void;
  /** Progress lines, about once per simulated second. */
  onProgress?: (line: string) => void;
};

export type HeadlessSummary = {
  seed: number;
  status: FlightStatus;
  simTime_s: number;
  frames: number;
  distance_m: number;
  collision: CollisionEvent | undefined;
  /** Closest surface distance to any structure over the flight, m. */
  minClearance_m: number;
  wallTime_ms: number;
};

/** A controller that flies the scripted pilot on the privileged state. */
export function scriptedController(): Controller {
  const priv = makePrivilegedState();
  return (sim, out) => {
    sim.privileged(priv);
    return scriptedCommand(priv, sim.world.goal.z - sim.drone.position[2]!, out);
  };
}

export function runHeadless(o: HeadlessOptions): HeadlessSummary {
  const t0 = Date.now();
  const sim = createSimulation(o.scenario, { seed: o.seed, perturbed: o.perturbed ?? false });
  const controller = o.controller ?? scriptedController();
  const duration = o.duration_s ?? o.scenario.path.timeLimit_s;
  if (!(duration > 0)) throw new RangeError(`duration_s=${duration}, expected > 0`);
  const dt = 1 / o.scenario.camera.rate_hz;
  const W = sim.camera.width;
  const H = sim.camera.height;
  const rgb = new Uint8Array(W * H * 3);
  const mask = new Uint8Array(W * H);
  const cmd: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  const priv = makePrivilegedState();
  let frames = 0;
  let distance = 0;
  let minClearance = Infinity;
  let nextReport = 1;
  const px = sim.drone.position;
  while (sim.time_s < duration - 1e-9) {
    sim.renderCamera({ rgb, mask });
    o.onFrame?.(frames, rgb, mask, sim);
    frames++;
    controller(sim, cmd);
    const x = px[0]!, y = px[1]!, z = px[2]!;
    const status = sim.step(cmd, dt);
    distance += Math.hypot(px[0]! - x, px[1]! - y, px[2]! - z);
    sim.privileged(priv);
    minClearance = Math.min(minClearance, priv.nearestDistance_m);
    if (sim.time_s >= nextReport || status !== "flying") {
      nextReport = Math.floor(sim.time_s) + 1;
      o.onProgress?.(
        `t=${sim.time_s.toFixed(1)}s pos=(${px[0]!.toFixed(1)}, ${px[1]!.toFixed(1)}, ${px[2]!.toFixed(1)}) ` +
          `goal=${priv.goalDistance_m.toFixed(1)}m nearest=${fmt(priv.nearestDistance_m)}m path=${fmt(priv.pathDistance_m)}m status=${status}`,
      );
    }
    if (status !== "flying") break;
  }
  return { seed: o.seed, status: sim.status, simTime_s: sim.time_s, frames, distance_m: distance, collision: sim.collision, minClearance_m: minClearance, wallTime_ms: Date.now() - t0 };
}

function fmt(v: number): string {
  return Number.isFinite(v) ? v.toFixed(1) : "inf";
}
