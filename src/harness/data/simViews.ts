/**
 * Overhead views of the simulator's worlds (issue 14 item 2): real UAV power-line photos (PLD-UAV)
 * look down on the wires from above, with roads, pavement, roofs and vegetation behind them, while
 * our flights look ahead at the horizon with the sky behind most wires. This renders, for each
 * seed's world, camera poses placed above a wire (or a branch, or the bare ground) looking down at
 * it from a random height and angle, with the simulator's visible-pixel labels and depth, so a
 * detector sees thin structures against cluttered ground.
 *
 * Frames carry zero sensor state and no expert action: they are for detector training only
 * (`fit`), never for behaviour cloning. Each seed has its own RNG (flightRng), so the frames do not
 * depend on how seeds are spread over workers.
 */
import { nearThreatCells } from "../eval/CellLabels";
import { createSimulation, type Simulation } from "../../../sim/Simulation";
import { CLASS_BRANCH, CLASS_WIRE } from "../../../sim/World";
import type { Scenario } from "../../../sim/Scenario";
import type { Split } from "../../../sim/splits";
import type { CameraPose } from "../../../sim/Renderer";
import type { Rng } from "../../util/Rng";
import { flightRng } from "./generateFrames";
import type { FrameSample } from "./FrameDataset";

export type ViewRange = readonly [number, number];

export type ViewOptions = {
  /** Views rendered per world (seed). */
  perWorld: number;
  /** Height of the camera above the point it looks at, m. */
  heightAbove_m: ViewRange;
  /** Angle of the line of sight below the horizon, deg (90 = straight down). */
  elevation_deg: ViewRange;
  /** The point looked at lands off the image centre by up to this angle, deg. */
  aimJitter_deg: number;
  /** Roll of the camera, up to +- this, deg. */
  roll_deg: number;
  /** Conductor radius multiplier per world (thicker lines: 1-3 px wires at the rendered size). */
  wireRadiusScale: ViewRange;
  /** Shares of views aimed at a wire, a branch, the bare ground (normalised). */
  aim: { wire: number; branch: number; ground: number };
};

export const DEFAULT_VIEWS: ViewOptions = {
  perWorld: 24,
  heightAbove_m: [2, 20],
  elevation_deg: [25, 88],
  aimJitter_deg: 25,
  roll_deg: 10,
  wireRadiusScale: [1, 4],
  aim: { wire: 0.7, branch: 0.15, ground: 0.15 },
};

export type ViewRun = { scenario: Scenario; split: Split; stateDim: number; rngSeed: number; views: ViewOptions };

/** Renders `views.perWorld` overhead views of seed `seed`'s world (see the file comment). */
export function generateViews(run: ViewRun, seed: number): FrameSample[] {
  const v = run.views;
  if (!(Number.isInteger(v.perWorld) && v.perWorld >= 1)) throw new RangeError(`views.perWorld=${v.perWorld}, expected an integer >= 1`);
  const rng = flightRng(run.rngSeed, seed);
  const sim = createSimulation(thickerWires(run.scenario, rng.uniform(v.wireRadiusScale[0], v.wireRadiusScale[1])), { seed, split: run.split });
  const { width, height } = sim.camera;
  const grid = { width, height, cell_px: 8 };
  const frames: FrameSample[] = [];
  const pose: CameraPose = { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 };
  for (let i = 0; i < v.perWorld; i++) {
    viewPose(sim, v, rng, pose);
    const rgb = new Uint8Array(width * height * 3);
    const mask = new Uint8Array(width * height);
    const visibleMask = new Uint8Array(width * height);
    const depth = new Float32Array(width * height);
    sim.renderer.render(pose, { rgb, mask, visibleMask, depth });
    // Near-threat cells at hover (forward speed 0): structure within the planner's distance horizon.
    const near = nearThreatCells(visibleMask, depth, grid, 0);
    frames.push({ seed, rgb, mask, visibleMask, near, state: new Float32Array(run.stateDim), expertAction: 0, rates: new Float32Array(run.stateDim), threat: false });
  }
  return frames;
}

/** The scenario with its conductor radius range scaled (the world, culling spheres included, is built from it). */
function thickerWires(scenario: Scenario, scale: number): Scenario {
  const r = scenario.wires.radius_m;
  return { ...scenario, wires: { ...scenario.wires, radius_m: { min: r.min * scale, max: r.max * scale } } };
}

/** A random point on a random segment of class `cls`, or undefined when the world has none. */
function pointOnClass(sim: Simulation, cls: number, rng: Rng, out: [number, number, number]): boolean {
  const s = sim.world.segments;
  let n = 0;
  for (let i = 0; i < s.count; i++) if (s.cls[i] === cls) n++;
  if (n === 0) return false;
  let k = rng.int(n);
  for (let i = 0; i < s.count; i++) {
    if (s.cls[i] !== cls || k-- > 0) continue;
    const t = rng.next();
    for (let d = 0; d < 3; d++) out[d] = s.a[3 * i + d]! + t * (s.b[3 * i + d]! - s.a[3 * i + d]!);
    return true;
  }
  return false;
}

/** Where to look: a wire, a branch or a ground point near the flight path. */
function aimPoint(sim: Simulation, v: ViewOptions, rng: Rng, out: [number, number, number]): void {
  const total = v.aim.wire + v.aim.branch + v.aim.ground;
  const u = rng.next() * total;
  if (u < v.aim.wire && pointOnClass(sim, CLASS_WIRE, rng, out)) return;
  if (u >= v.aim.wire && u < v.aim.wire + v.aim.branch && pointOnClass(sim, CLASS_BRANCH, rng, out)) return;
  const { start, goal } = sim.world;
  const t = rng.next();
  out[0] = start.x + t * (goal.x - start.x) + rng.uniform(-30, 30);
  out[1] = start.y + t * (goal.y - start.y) + rng.uniform(-30, 30);
  out[2] = 0;
}

const DEG = Math.PI / 180;

/** A camera pose above the aim point, looking down at it (FLU body: pitch > 0 is nose down). */
function viewPose(sim: Simulation, v: ViewOptions, rng: Rng, pose: CameraPose): void {
  const target: [number, number, number] = [0, 0, 0];
  aimPoint(sim, v, rng, target);
  const dz = rng.uniform(v.heightAbove_m[0], v.heightAbove_m[1]);
  const elevation = rng.uniform(v.elevation_deg[0], v.elevation_deg[1]) * DEG;
  const azimuth = rng.uniform(-Math.PI, Math.PI);
  const horizontal = dz / Math.tan(elevation);
  pose.x = target[0] - horizontal * Math.cos(azimuth);
  pose.y = target[1] - horizontal * Math.sin(azimuth);
  pose.z = Math.max(1, target[2] + dz);
  const jitter = v.aimJitter_deg * DEG;
  pose.yaw = azimuth + rng.uniform(-jitter, jitter);
  // The camera is mounted pitched down by camera.pitch_rad; the body pitch makes up the rest.
  pose.pitch = Math.min(89 * DEG, elevation + rng.uniform(-jitter, jitter)) - sim.camera.pitch_rad;
  pose.roll = rng.uniform(-v.roll_deg, v.roll_deg) * DEG;
}
