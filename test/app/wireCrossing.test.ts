/**
 * Closed-loop wire crossing through the nodes (issue 12: "a closed-loop flight in lock-step
 * across a wire placed over the path climbs or turns and passes it"; issue 6 could not write it):
 * the nodes of launch/sim.launch.xml (sim, perception with the committed co-evolved detector
 * models/coevo/student, harness with models/coevo/harness, controller with the local planner, safety) flown in lock-step
 * by the main job's own loop (src/app/flyFlight.ts).
 *
 * Scenario: test-split seed 228 of sim/scenarios/default.yaml (never a training seed,
 * sim/splits.ts). Its first power line crosses the straight-north path 29 m from the start with a
 * conductor 0.6 m below the start altitude, so a drone that does not react passes within a body
 * radius of it or hits it. It was picked (for issue 6) by scanning the first 60 test seeds for
 * crossings within 45 m and 1 m of the start altitude.
 *
 * The same flight is flown twice: with the planner as configured (the default threat_gain 1), and
 * blind (threat_gain 0.01, the lowest allowed: the planner ignores the detector, the control of what this test
 * guards). The seeing flight must cross the wire's line without collision, with clearance above
 * the body radius, having climbed or turned near the wire; the blind one must not pass as
 * cleanly (it collides, or passes closer), so the test fails if the detector or the planner stops
 * reacting to the wire.
 *
 * Clearance: the 3D distance from the drone's centre to a conductor's surface, minimised
 * exactly over the piecewise-linear trajectory through the camera-frame positions (30 Hz) and
 * every wire segment (sim/geometry.ts segmentSegmentClosest, Ericson 2005 section 5.1.9). The
 * simulator counts a collision when it falls below the body radius (sim/Scenario.ts
 * drone.bodyRadius_m, 0.35 m in default.yaml).
 */
import * as path from "node:path";
import { CellScoreAccumulator } from "../../src/app/CellScoreAccumulator";
import { flyFlight } from "../../src/app/flyFlight";
import { loadModels, type LoadedModels } from "../../src/app/loadModels";
import type { FlightRecord, WorldSketch } from "../../src/app/types";
import { worldSketch } from "../../src/app/worldSketch";
import type { geometry_msgs__msg__TwistStamped as TwistStampedMsg } from "../../src/ros/msgs/generated";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { loadLaunchFile, resolveLaunchPath } from "../../src/ros/launch/loadLaunchFile";
import { findPackageRoot } from "../../src/ros/launch/packageRoot";
import { buildWorld } from "../../sim/buildWorld";
import { segmentSegmentClosest } from "../../sim/geometry";
import { loadScenarioFile } from "../../sim/io/loadScenarioFile";
import { splitOfSeed } from "../../sim/splits";
import { CLASS_WIRE, type World } from "../../sim/World";

// Two lock-step flights through every node: about 75 s alone on the 2-core machine, 240 s while an
// evaluation used both cores (load average 4-5); the timeout leaves room for that.
jest.setTimeout(600_000);

// default.yaml with the camera at 15 Hz instead of 30 (test/fixtures/scenarios/default_camera15.yaml,
// otherwise the same file, so the same world for seed 228): half the frames through every node,
// which keeps this test near a minute; the controller still decides on every frame.
const SCENARIO = path.join(__dirname, "..", "fixtures", "scenarios", "default_camera15.yaml");
const CROSSING_SEED = 228;
/** The line is 29 m ahead: the planner slows and climbs for it and passes its conductors at 15.9-17.4 s; the blind planner cruises through it at about 8.8 s. */
const FLIGHT_S = 18;
const BLIND_FLIGHT_S = 11;

type Command = { t: number; vx: number; vz: number; wz: number };
type Flight = { record: FlightRecord; sketch: WorldSketch; commands: Command[] };

async function fly(models: LoadedModels, seed: number, duration_s: number, threatGain?: number): Promise<Flight> {
  const packageRoot = findPackageRoot();
  const plan = loadLaunchFile(resolveLaunchPath(packageRoot, "sim.launch.xml"), {
    packageRoot,
    arguments: { scenario: SCENARIO, seed: String(seed), harness: "true" },
  });
  if (threatGain !== undefined) {
    const controller = plan.nodes.find((n) => n.executable === "controller");
    if (controller === undefined) throw new Error("launch/sim.launch.xml starts no controller");
    controller.parameters.threat_gain = { type: "double", value: threatGain };
  }
  const commands: Command[] = [];
  const { record, world } = await flyFlight({
    arm: "on",
    seed,
    plan,
    registry: models.registry,
    duration_s,
    policyScores: new CellScoreAccumulator(),
    studentScores: new CellScoreAccumulator(),
    keepSamples: 0,
    // The controller's commands (the planner's manoeuvre, before the safety gate).
    onStarted: (graph) => {
      graph.createNode("wire_crossing_commands").createSubscription<TwistStampedMsg>(
        "geometry_msgs/msg/TwistStamped", "/cmd_vel_raw", { qos: { ...QOS_DEFAULT, depth: 50 } },
        (m) => commands.push({ t: m.header.stamp.sec + m.header.stamp.nanosec / 1e9, vx: m.twist.linear.x, vz: m.twist.linear.z, wz: m.twist.angular.z }),
      );
      return Promise.resolve(() => Promise.resolve());
    },
  });
  return { record, sketch: world, commands };
}

/** Minimum distance from the drone's centre to any wire surface along the trajectory, and when. */
function wireClearance(world: World, r: FlightRecord): { clearance_m: number; time_s: number } {
  const s = world.segments;
  const { x, y, z, time_s } = r.series;
  const pair = { s: 0, t: 0, distance: 0 };
  let best = Number.POSITIVE_INFINITY;
  let at = Number.NaN;
  for (let k = 1; k < x.length; k++) {
    for (let i = 0; i < s.count; i++) {
      if (s.cls[i] !== CLASS_WIRE) continue;
      segmentSegmentClosest(x[k - 1]!, y[k - 1]!, z[k - 1]!, x[k]!, y[k]!, z[k]!, s.a[3 * i]!, s.a[3 * i + 1]!, s.a[3 * i + 2]!, s.b[3 * i]!, s.b[3 * i + 1]!, s.b[3 * i + 2]!, pair);
      const c = pair.distance - s.radius[i]!;
      if (c < best) {
        best = c;
        at = time_s[k - 1]! + pair.s * (time_s[k]! - time_s[k - 1]!);
      }
    }
  }
  return { clearance_m: best, time_s: at };
}

/** Sim times at which the plan-view trajectory crosses a wire's plan-view line (proper 2D segment intersection). */
function planViewCrossings(sketch: WorldSketch, r: FlightRecord): number[] {
  const { x, y, time_s } = r.series;
  const w = sketch.wires;
  const out: number[] = [];
  const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  for (let k = 1; k < x.length; k++) {
    const px = x[k - 1]!, py = y[k - 1]!, qx = x[k]!, qy = y[k]!;
    for (let i = 0; i + 3 < w.length; i += 4) {
      const ax = w[i]!, ay = w[i + 1]!, bx = w[i + 2]!, by = w[i + 3]!;
      const d1 = cross(ax, ay, bx, by, px, py), d2 = cross(ax, ay, bx, by, qx, qy);
      const d3 = cross(px, py, qx, qy, ax, ay), d4 = cross(px, py, qx, qy, bx, by);
      if (d1 * d2 < 0 && d3 * d4 < 0) {
        out.push(time_s[k]!);
        break;
      }
    }
  }
  return out;
}

/** The commands within `window_s` before `t` (the first crossing): how many climbed, turned, and the fastest forward speed. */
function manoeuvresBefore(commands: Command[], t: number, window_s: number): { climbs: number; turns: number; n: number; text: string } {
  const near = commands.filter((c) => c.t <= t && c.t >= t - window_s);
  const climbs = near.filter((c) => c.vz > 0.2).length;
  const turns = near.filter((c) => Math.abs(c.wz) > 0.1).length;
  const maxVx = Math.max(0, ...near.map((c) => c.vx));
  return { climbs, turns, n: near.length, text: `${near.length} commands in the ${window_s} s before: ${climbs} climbing (vz > 0.2), ${turns} turning, max vx ${maxVx.toFixed(2)} m/s` };
}

describe("closed-loop flight across a wire (launch/sim.launch.xml, lock-step, committed models)", () => {
  let models: LoadedModels;
  const scenario = loadScenarioFile(SCENARIO);
  const bodyRadius = scenario.drone.bodyRadius_m;

  beforeAll(async () => {
    models = await loadModels(`${findPackageRoot()}/models`);
  });
  afterAll(() => models.dispose());

  it("the planner on the detector climbs or turns at a wire across the path and passes it; blind, it does not pass as cleanly", async () => {
    expect(splitOfSeed(CROSSING_SEED)).toBe("test");
    const world = buildWorld(scenario, CROSSING_SEED);
    const seeing = await fly(models, CROSSING_SEED, FLIGHT_S);
    // The world rebuilt here for the 3D geometry is the one the sim node flew.
    expect(worldSketch(world)).toEqual(seeing.sketch);
    const blind = await fly(models, CROSSING_SEED, BLIND_FLIGHT_S, 0.01);
    const report = (name: string, f: Flight) => {
      const crossings = planViewCrossings(f.sketch, f.record);
      const c = wireClearance(world, f.record);
      const m = manoeuvresBefore(f.commands, crossings[0] ?? f.record.simTime_s, 8);
      process.stdout.write(
        `seed ${CROSSING_SEED} ${name}: ${f.record.status} at t=${f.record.simTime_s.toFixed(2)} s` +
          (f.record.collision === undefined ? "" : ` (collision with class ${f.record.collision.cls} at t=${f.record.collision.time_s.toFixed(2)} s)`) +
          `, plan-view wire crossings at t=${crossings.map((t) => t.toFixed(2)).join(", ")} s, min 3D clearance ${c.clearance_m.toFixed(3)} m at t=${c.time_s.toFixed(2)} s ` +
          `(body radius ${bodyRadius} m); ${m.text}\n`,
      );
      return { crossings, ...c, ...m };
    };
    const s = report("planner", seeing);
    const b = report("blind planner (threat_gain 0.01)", blind);
    // It really met the wire: the plan-view path crosses a wire line, and the closest approach is
    // within 5 m (the co-evolved pair climbs over it by 2.9 m at a 30 Hz camera without the vertical
    // commitment, by 4.2 m with the commitment config/ flies since the thirty-fifth session; a detour
    // that never came near the wire would be far more).
    expect(s.crossings.length).toBeGreaterThan(0);
    expect(s.clearance_m).toBeLessThan(5);
    expect(seeing.record.collision).toBeUndefined();
    expect(seeing.record.callbackErrors).toBe(0);
    expect(s.clearance_m).toBeGreaterThan(bodyRadius);
    // It manoeuvred for it: climbed or turned in the 8 s before crossing the line, and reached the
    // line seconds after the blind planner came closest to the wire (it slowed down for it).
    expect(s.climbs + s.turns).toBeGreaterThan(0);
    expect(s.crossings[0]!).toBeGreaterThan(b.time_s + 2);
    // Without seeing, the same flight does not pass as cleanly.
    expect(blind.record.collision !== undefined || b.clearance_m < s.clearance_m).toBe(true);
  });
});
