/**
 * Closed-loop wire crossing (issue 6, "a short closed-loop flight in lock-step ... that avoids a
 * wire placed across its path when the harness is on"): the nodes of launch/sim.launch.xml flown
 * in lock-step by the main job's own loop (src/app/flyFlight.ts), harness ON and OFF.
 *
 * Models: the committed models/ (trained by `drone-harness train --scenario default --out models
 * --seed 1`). `train --quick` models are for smoke tests only: their policy does not fly a
 * sensible path, so a wire crossing with them would test nothing.
 *
 * Scenario: test-split seed 228 of sim/scenarios/default.yaml (never a training seed,
 * sim/splits.ts). Its first power line crosses the straight-north path 29 m from the start with a
 * conductor 0.6 m below the start altitude, so the drone reaches it after about 8 s at the 4 m/s
 * cruise. It was picked by scanning the first 60 test seeds for crossings within 45 m and 1 m of
 * the start altitude. What was measured with these models (see docs/mainjob.md): the policy
 * chooses "cruise" in every frame around the wire in both arms and ON and OFF fly the same path;
 * seed 228 passes because the drone cruises 0.6 m above the conductor, not because it manoeuvres.
 * Seeds 80, 147 and 242, whose conductor crosses within 0.3 m of the start altitude, hit the wire
 * at 10.2-10.5 s in the ON arm (seed 80 in both arms, the same way). This test therefore asserts
 * what holds for seed 228 (crossing, no collision, clearance above the body radius,
 * determinism) and prints the actions; it does not claim the harness steers around the wire.
 *
 * Clearance: the 3D distance from the drone's centre to a conductor's surface, minimised
 * exactly over the piecewise-linear trajectory through the camera-frame positions (30 Hz) and
 * every wire segment (sim/geometry.ts segmentSegmentClosest, Ericson 2005 section 5.1.9). The
 * simulator counts a collision when it falls below the body radius (sim/Scenario.ts
 * drone.bodyRadius_m, 0.35 m in default.yaml).
 */
import { CellScoreAccumulator } from "../../src/app/CellScoreAccumulator";
import { flyFlight } from "../../src/app/flyFlight";
import { loadModels, type LoadedModels } from "../../src/app/loadModels";
import type { Arm, FlightRecord, WorldSketch } from "../../src/app/types";
import { worldSketch } from "../../src/app/worldSketch";
import { ACTIONS } from "../../src/harness/actions";
import type { drone_harness_msgs__msg__StudentOutput as StudentOutputMsg } from "../../src/ros/msgs/generated";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { loadLaunchFile, resolveLaunchPath } from "../../src/ros/launch/loadLaunchFile";
import { findPackageRoot } from "../../src/ros/launch/packageRoot";
import { buildWorld } from "../../sim/buildWorld";
import { segmentSegmentClosest } from "../../sim/geometry";
import { loadScenarioFile } from "../../sim/io/loadScenarioFile";
import { splitOfSeed } from "../../sim/splits";
import { CLASS_WIRE, type World } from "../../sim/World";

// Each test flies at most 9 s of sim time (about 25 s idle); 300 s leaves room for a loaded 2-core machine.
jest.setTimeout(300_000);

const SCENARIO = "default";
const CROSSING_SEED = 228;
/** The crossing happens at about 8.1 s; 9 s of flight carry the drone past it. */
const CROSSING_DURATION_S = 9;
/** The repeat flights that check determinism: this prefix of each arm's flight, flown again. */
const REPEAT_DURATION_S = 2;

type Action = { t: number; action: string };
type Flight = { record: FlightRecord; sketch: WorldSketch; actions: Action[] };

async function fly(models: LoadedModels, seed: number, arm: Arm, duration_s: number): Promise<Flight> {
  const packageRoot = findPackageRoot();
  const plan = loadLaunchFile(resolveLaunchPath(packageRoot, "sim.launch.xml"), {
    packageRoot,
    arguments: { scenario: SCENARIO, seed: String(seed), harness: arm === "on" ? "true" : "false" },
  });
  const actions: Action[] = [];
  const { record, world } = await flyFlight({
    arm,
    seed,
    plan,
    registry: models.registry,
    duration_s,
    policyScores: new CellScoreAccumulator(),
    studentScores: new CellScoreAccumulator(),
    keepSamples: 0,
    // The action the controller follows: argmax of harness/policy's logits (corrected in the ON arm).
    onStarted: (graph) => {
      graph.createNode("wire_crossing_actions").createSubscription<StudentOutputMsg>(
        "drone_harness_msgs/msg/StudentOutput", "/harness/policy", { qos: { ...QOS_DEFAULT, depth: 50 } },
        (m) => {
          let best = 0;
          for (let i = 1; i < m.action_logits.length; i++) if (m.action_logits[i]! > m.action_logits[best]!) best = i;
          actions.push({ t: m.header.stamp.sec + m.header.stamp.nanosec / 1e9, action: ACTIONS[best] ?? `#${best}` });
        },
      );
      return Promise.resolve(() => Promise.resolve());
    },
  });
  return { record, sketch: world, actions };
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

function maxPositionDifference(a: FlightRecord, b: FlightRecord): number {
  const n = Math.min(a.series.x.length, b.series.x.length);
  let d = 0;
  for (let k = 0; k < n; k++) d = Math.max(d, Math.hypot(a.series.x[k]! - b.series.x[k]!, a.series.y[k]! - b.series.y[k]!, a.series.z[k]! - b.series.z[k]!));
  return d;
}

/** The policy's actions within `window_s` of `t`, run-length encoded: "7.07-9.00 s cruise x58". */
function actionsNear(actions: Action[], t: number, window_s: number): string {
  const runs: Array<{ from: number; to: number; action: string; n: number }> = [];
  for (const a of actions) {
    if (Math.abs(a.t - t) > window_s) continue;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.action === a.action) {
      last.to = a.t;
      last.n++;
    } else runs.push({ from: a.t, to: a.t, action: a.action, n: 1 });
  }
  return runs.map((r) => `${r.from.toFixed(2)}-${r.to.toFixed(2)} s ${r.action} x${r.n}`).join(", ");
}

describe("closed-loop flight across a wire (launch/sim.launch.xml, lock-step, committed models)", () => {
  let models: LoadedModels;
  const scenario = loadScenarioFile(SCENARIO);
  const bodyRadius = scenario.drone.bodyRadius_m;

  beforeAll(async () => {
    models = await loadModels(`${findPackageRoot()}/models`);
  });
  afterAll(() => models.dispose());

  // Split in three tests (issue 16 item 15: one 22-s-of-flight test ran past its 300 s limit on a
  // loaded machine): the ON crossing, then determinism of each arm on a short prefix. The OFF arm
  // is checked for determinism on two 2-s flights (it used to fly 9 s only to be printed; the ON
  // vs OFF comparison over whole flights is the main job's and `npm run bench -- e2e`'s).
  let on1: Flight;
  const world = buildWorld(scenario, CROSSING_SEED);

  it("harness ON crosses the wire's line without collision, clearance above the body radius", async () => {
    expect(splitOfSeed(CROSSING_SEED)).toBe("test");
    on1 = await fly(models, CROSSING_SEED, "on", CROSSING_DURATION_S);
    // The world rebuilt here for the 3D geometry is the one the sim node flew.
    expect(worldSketch(world)).toEqual(on1.sketch);

    const crossings = planViewCrossings(on1.sketch, on1.record);
    const { clearance_m, time_s } = wireClearance(world, on1.record);
    process.stdout.write(
      `seed ${CROSSING_SEED} harness ON: ${on1.record.status} at t=${on1.record.simTime_s.toFixed(2)} s, ` +
        `plan-view wire crossings at t=${crossings.map((t) => t.toFixed(2)).join(", ")} s, ` +
        `min 3D clearance to a wire surface ${clearance_m.toFixed(3)} m at t=${time_s.toFixed(2)} s (body radius ${bodyRadius} m)\n` +
        `  actions within 1 s of the closest approach: ${actionsNear(on1.actions, time_s, 1)}\n`,
    );
    // It really met the wire: the plan-view path crosses a wire line, and the closest approach is within 2 m.
    expect(crossings.length).toBeGreaterThan(0);
    expect(clearance_m).toBeLessThan(2);
    expect(on1.record.collision).toBeUndefined();
    expect(on1.record.status).toBe("flying");
    expect(on1.record.callbackErrors).toBe(0);
    expect(clearance_m).toBeGreaterThan(bodyRadius);
  });

  /** A repeat flies exactly the positions and actions of the first flight's prefix (lock-step determinism). */
  const expectSamePrefix = (first: Flight, again: Flight): void => {
    const n = again.record.series.x.length;
    expect(n).toBeGreaterThanOrEqual(Math.floor(REPEAT_DURATION_S * scenario.camera.rate_hz) - 1);
    expect(again.record.series.x).toEqual(first.record.series.x.slice(0, n));
    expect(again.record.series.y).toEqual(first.record.series.y.slice(0, n));
    expect(again.record.series.z).toEqual(first.record.series.z.slice(0, n));
    expect(again.actions).toEqual(first.actions.slice(0, again.actions.length));
    expect(again.actions.length).toBeGreaterThan(0);
  };

  it("harness ON repeats the crossing flight's first 2 s exactly", async () => {
    expect(on1).toBeDefined();
    expectSamePrefix(on1, await fly(models, CROSSING_SEED, "on", REPEAT_DURATION_S));
  });

  it("harness OFF flies the same 2 s twice exactly", async () => {
    expect(on1).toBeDefined();
    const off1 = await fly(models, CROSSING_SEED, "off", REPEAT_DURATION_S);
    expectSamePrefix(off1, await fly(models, CROSSING_SEED, "off", REPEAT_DURATION_S));
    const differingActions = on1.actions.slice(0, off1.actions.length).filter((a, i) => off1.actions[i]?.action !== a.action).length;
    process.stdout.write(
      `seed ${CROSSING_SEED} first ${REPEAT_DURATION_S} s, ON vs OFF: max position difference ${maxPositionDifference(on1.record, off1.record).toFixed(4)} m, ` +
        `${differingActions} of ${off1.actions.length} policy actions differ\n`,
    );
  });
});
