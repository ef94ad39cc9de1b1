/**
 * PlannerPilot's final approach (PlannerOptions.arrivalRadius_m, src/control/arrival.ts): over the
 * goal and far above it, the pilot flies the descent with the closing forward speed (Pilot.forward_m_s)
 * instead of the planner's choice, and says so (lastArrival); off by default; refused for the
 * action-formula target, which decides from the corrected action logits alone.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend";
import { ACTIONS } from "../../../src/harness/actions";
import { parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { LocalPlanner } from "../../../src/control/LocalPlanner";
import { evaluateHarnessRows, formatHarnessReport } from "../../../src/harness/eval/harnessRows";
import { SimEnvironment } from "../../../src/harness/data/simEnvironment";
import { splitOfSeed } from "../../../sim";
import { WIRE_ACROSS } from "./wireAcross";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { Teacher } from "../../../src/harness/models/Teacher";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { FakeEnvironment } from "../training/fakeEnvironment";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

let detector: Teacher;
beforeAll(() => {
  // Every cell confident background: the way ahead is clear.
  detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  const out = detector.params.get("head/out/w");
  out.assign(tf.zerosLike(out));
  detector.params.get("head/out/b").assign(tf.tensor1d([20, -20, -20, -20, -20]));
});
afterAll(() => detector.dispose());

/** The fake corridor with the goal `dz` metres from the drone's altitude and 3 m ahead. */
function overGoal(dz: number): FakeEnvironment {
  const env = new FakeEnvironment(8);
  const navigation = env.navigation.bind(env);
  jest.spyOn(env, "navigation").mockImplementation((out) => {
    navigation(out);
    out.goalDistance_m = 3;
    out.goalDz_m = dz;
    return out;
  });
  return env;
}

function decide(pilot: PlannerPilot, env: FakeEnvironment): number {
  const rgb = new Uint8Array(64 * 64 * 3);
  env.render(rgb);
  return pilot.act(rgb, new Float32Array(0), env);
}

describe("PlannerPilot: the final approach (arrivalRadius_m)", () => {
  it("descends to a goal 9 m below at 0.5 m/s forward (3 m in the 6 s of the descent), and leaves the planner's decision at its altitude", () => {
    const pilot = new PlannerPilot({ type: "detector", detector }, { arrivalRadius_m: 6 });
    expect(decide(pilot, overGoal(-9))).toBe(ACTIONS.indexOf("descend"));
    expect(pilot.forward_m_s).toBeCloseTo(0.5, 9);
    expect(pilot.lastArrival).toBe(true);
    const level = new PlannerPilot({ type: "detector", detector }, { arrivalRadius_m: 6 });
    decide(level, overGoal(0.5));
    expect(level.lastArrival).toBe(false);
    expect(level.forward_m_s).toBeUndefined();
  });

  it("guarded, leaves the decision to the planner when the descent's own arc is blocked (the way ahead clear)", () => {
    const spy = jest.spyOn(LocalPlanner.prototype, "blockedOf").mockImplementation((a) => (a === ACTIONS.indexOf("descend") ? 0.9 : 0));
    try {
      const guarded = new PlannerPilot({ type: "detector", detector }, { arrivalRadius_m: 6, arrivalGuarded: true });
      decide(guarded, overGoal(-9));
      expect(guarded.lastArrival).toBe(false);
      const unguarded = new PlannerPilot({ type: "detector", detector }, { arrivalRadius_m: 6 });
      expect(decide(unguarded, overGoal(-9))).toBe(ACTIONS.indexOf("descend"));
      expect(unguarded.lastArrival).toBe(true);
      expect(spy).toHaveBeenCalledWith(ACTIONS.indexOf("descend"));
    } finally {
      spy.mockRestore();
    }
  });

  it("is off by default: the planner's own decision at the manoeuvre's own speed", () => {
    const pilot = new PlannerPilot({ type: "detector", detector });
    decide(pilot, overGoal(-9));
    expect(pilot.lastArrival).toBe(false);
    expect(pilot.forward_m_s).toBeUndefined();
  });

  it("is refused for the action-formula target, and read from eval's --arrival R", () => {
    const harness = new SpatialHarness({ seed: 1 });
    try {
      expect(() => new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, target: "actions" } }, { arrivalRadius_m: 6 })).toThrow(/cannot fly arrivalRadius_m/);
    } finally {
      harness.dispose();
    }
    expect(parseEvalHarnessArgs(["--scenario", "default", "--arrival", "6"]).arrival).toEqual({ radius_m: 6, guarded: false });
    expect(parseEvalHarnessArgs(["--scenario", "default", "--arrival", "6,guarded"]).arrival).toEqual({ radius_m: 6, guarded: true });
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--arrival", "0"])).toThrow("--arrival=0, expected a number in [0.1, 1000]");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--arrival", "6,safe"])).toThrow("--arrival=6,safe, expected R or R,guarded");
  });

  it("is counted in the eval's report: the final approach's decisions and the flights that reached the goal, the stall bound's releases, and the scans when stuck", () => {
    const options = { split: "val" as const, splitOf: splitOfSeed, factory: (seed: number) => new SimEnvironment(WIRE_ACROSS, seed, "val", false, { controlPeriod_s: 0.25 }), flights: 1, conditions: ["nominal" as const] };
    const report = evaluateHarnessRows([{ name: "clear", detector }], { ...options, planner: { verticalCommit: 0.3, verticalCommitWireCells: 6 } });
    const flight = report.conditions[0]!.rows[0]!.flights[0]!;
    expect(flight.trace.every((t) => Number.isFinite(t.goal_m))).toBe(true);
    // The flight's own trace marked by hand: 3 decisions of the approach, 2 released by a stall bound, a side fixed.
    for (const k of [0, 1, 2]) flight.trace[k]!.arrival = 1;
    Object.assign(flight.trace[3]!, { commit: "wire", released: 1 });
    Object.assign(flight.trace[4]!, { released: 1 });
    for (const k of [5, 6]) flight.trace[k]!.scan = 1;
    for (const k of [6, 7, 8]) flight.trace[k]!.climb = 1;
    const text = formatHarnessReport(report);
    expect(text).toContain(`clear: climb when stuck: 3 decisions with the goal's altitude raised in 1 flights, of them ${flight.outcome.type === "goal" ? 1 : 0} reached the goal`);
    expect(text).toContain(`clear: scan when stuck: 2 decisions in 1 flights, of them ${flight.outcome.type === "goal" ? 1 : 0} reached the goal, ${flight.outcome.type === "collision" ? 1 : 0} collided, ${flight.outcome.type === "timeout" ? 1 : 0} timed out`);
    expect(text).toContain(`clear: final approach (arrival radius): 3 decisions in 1 flights, of them ${flight.outcome.type === "goal" ? 1 : 0} reached the goal`);
    expect(text).toMatch(/decisions turned to the side held, 2 left as chosen after a stall \(the stall bound\);/);
  });
});

describe("PlannerPilot: the scan when stuck (scanWhenStuck_s)", () => {
  /** Every cell confident obstacle: every window blocked, so the planner hovers. */
  let wall: Teacher;
  beforeAll(() => {
    wall = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const out = wall.params.get("head/out/w");
    out.assign(tf.zerosLike(out));
    wall.params.get("head/out/b").assign(tf.tensor1d([-20, 20, 20, 20, 20]));
  });
  afterAll(() => wall.dispose());

  it("flies the planner's hover in front of a wall as a yaw in place once stuck, and says so; off by default", () => {
    const pilot = new PlannerPilot({ type: "detector", detector: wall }, { scanWhenStuck_s: 1 });
    const plain = new PlannerPilot({ type: "detector", detector: wall });
    const env = overGoal(0);
    const actions: number[] = [];
    for (let k = 0; k < 8; k++) {
      actions.push(decide(pilot, env));
      expect(decide(plain, env)).toBe(ACTIONS.indexOf("hover"));
      expect(plain.lastScan).toBe(false);
      if (pilot.lastScan) expect(pilot.forward_m_s).toBe(0);
      env.time_s += 0.25;
    }
    // Hover while the second passes, then the yaw (the same side every time).
    expect(actions.slice(0, 4).every((a) => a === ACTIONS.indexOf("hover"))).toBe(true);
    expect(new Set(actions.slice(4)).size).toBe(1);
    expect(["yaw_left", "yaw_right"]).toContain(ACTIONS[actions[4]!]);
    expect(pilot.lastScan).toBe(true);
  });

  it("is refused for the action-formula target, and read from eval's --scan-when-stuck S", () => {
    const harness = new SpatialHarness({ seed: 1 });
    try {
      expect(() => new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, target: "actions" } }, { scanWhenStuck_s: 10 })).toThrow(/cannot fly scanWhenStuck_s/);
    } finally {
      harness.dispose();
    }
    expect(parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "10"]).scanWhenStuck).toBe(10);
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "0"])).toThrow("--scan-when-stuck=0, expected a number in [0.5, 600]");
  });
});

describe("PlannerPilot: the climb when stuck (stuckClimb_m)", () => {
  /** A goal 20 m ahead at the drone's altitude; the fake drone never gets closer. */
  function farGoal(): FakeEnvironment {
    const env = new FakeEnvironment(8);
    const navigation = env.navigation.bind(env);
    jest.spyOn(env, "navigation").mockImplementation((out) => {
      navigation(out);
      Object.assign(out, { goalDistance_m: 20, goalBearing_rad: 0, goalDz_m: 0, altitude_m: 10 });
      return out;
    });
    return env;
  }

  it("once stuck, scores with the goal's altitude raised, so the planner climbs; the plain pilot keeps cruising", () => {
    const pilot = new PlannerPilot({ type: "detector", detector }, { scanWhenStuck_s: 1, stuckClimb_m: 8 });
    const plain = new PlannerPilot({ type: "detector", detector }, { scanWhenStuck_s: 1 });
    const env = farGoal();
    const actions: number[] = [];
    for (let k = 0; k < 8; k++) {
      actions.push(decide(pilot, env));
      expect(ACTIONS[decide(plain, env)]).not.toBe("climb");
      expect(plain.lastClimb).toBe(false);
      env.time_s += 0.25;
    }
    // Level for the first second (the planner's own choice), then the climb toward the raised goal.
    expect(actions.slice(0, 4).map((a) => ACTIONS[a])).not.toContain("climb");
    expect(actions.slice(5).map((a) => ACTIONS[a])).toEqual(["climb", "climb", "climb"]);
    expect(pilot.lastClimb).toBe(true);
  });

  it("is refused without the scan, and read from eval's --stuck-climb M[,R] (with --scan-when-stuck)", () => {
    expect(() => new PlannerPilot({ type: "detector", detector }, { stuckClimb_m: 8 })).toThrow("stuckClimb_m=8 climbs once the drone is stuck, as the scan when stuck reads it: set scanWhenStuck_s too");
    const a = parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "10", "--stuck-climb", "8,6"]);
    expect(a.stuckClimb).toEqual({ climb_m: 8, release_m: 6 });
    expect(parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "10", "--stuck-climb", "8"]).stuckClimb).toEqual({ climb_m: 8 });
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--stuck-climb", "8,6"])).toThrow("--stuck-climb climbs once the drone is stuck, as the scan when stuck reads it: give --scan-when-stuck S with it");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "10", "--stuck-climb", "8,6,1"])).toThrow("--stuck-climb=8,6,1, expected M or M,R");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--scan-when-stuck", "10", "--stuck-climb", "0"])).toThrow("--stuck-climb=0, expected a number in [0.5, 50]");
  });

  it("reads numeric planner options from eval --harness --planner-set", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default", "--planner-set", "stuckClimbRelease_m=10,wThreat=4"]).plannerSet).toEqual({ stuckClimbRelease_m: 10, wThreat: 4 });
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--planner-set", "limits=1"])).toThrow("--planner-set limits=1: expected key=number with a numeric LocalPlanner option");
  });
});

