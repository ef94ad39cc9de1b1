/**
 * The controller's planner mode (the default, issue 12): harness/policy's near-threat cells, the
 * attitude, the GNSS fix and velocity and a goal -> the local planner's manoeuvre on cmd_vel_raw.
 * SimRig's sensors: identity orientation (heading east), a fix at 47.397 N, 8.545 E, 500 m, GNSS
 * velocity 3 m/s east.
 */
import { GEO_POSE_STAMPED_TYPE, controllerNode } from "../../nodes/controller";
import { toStudentOutputMsg, type StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { enuToGeodetic } from "../../src/control/geodesy";
import { QOS_DEFAULT, QOS_TRANSIENT_LOCAL } from "../../src/ros/graph/types";
import { nsToStamp } from "../../src/util/time";
import { MS } from "./fixtures";
import { SimRig } from "./SimRig";

const ROWS = 32, COLS = 32;
const ORIGIN = { lat_deg: 47.397, lon_deg: 8.545, alt_m: 500 };

/** A harness/policy message from the pipeline detector: no action logits, `threat` cells. */
function threatMsg(atNs: bigint, threat: Float32Array = new Float32Array(ROWS * COLS)): StudentOutputMsg {
  return toStudentOutputMsg(
    { stamp: nsToStamp(atNs), frame_id: "camera_optical" },
    { actionLogits: [], cellProbs: new Float32Array(ROWS * COLS * 4), gridRows: ROWS, gridCols: COLS, state: [], pooledSize: 0, pooledInput: [], threatProbs: threat },
    { width: 256, height: 256 },
    false,
  );
}

/** A threat band across the image rows around the horizon (a wire across the flight path). */
function wireAhead(): Float32Array {
  const t = new Float32Array(ROWS * COLS);
  for (const r of [15, 16, 17]) for (let c = 0; c < COLS; c++) t[r * COLS + c] = 0.95;
  return t;
}

function goalAt(east: number, north: number, up = 0) {
  const g = enuToGeodetic(ORIGIN, east, north, up, { latitude: 0, longitude: 0, altitude: 0 });
  return { header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "" }, geo_pose: { position: g, orientation: { x: 0, y: 0, z: 0, w: 1 } } };
}

type Diag = { status: Array<{ name: string; values: Array<{ key: string; value: string }> }> };

async function setup(params: Record<string, number | boolean | string> = {}, goal?: ReturnType<typeof goalAt>) {
  const r = new SimRig();
  // A goal published before the controller exists still arrives (transient local, depth 1).
  if (goal !== undefined) r.graph.createNode("mission").createPublisher(GEO_POSE_STAMPED_TYPE, "/goal", { qos: { ...QOS_TRANSIENT_LOCAL, depth: 1 } }).publish(goal);
  // Flying 10 m above the ground (a fix at 500 m), inside the planner's altitude band.
  await r.add(controllerNode, "controller", { max_accel_m_s2: 0, use_first_fix_as_home: false, home_altitude_m: 490, ...params });
  const pub = r.graph.createNode("fake_harness").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/policy");
  const cmd = r.record<TwistStamped>("/cmd_vel_raw", "geometry_msgs/msg/TwistStamped");
  const diag = r.record<Diag>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
  const value = (key: string): string | undefined => diag.at(-1)?.msg.status.flatMap((s) => s.values).find((v) => v.key === key)?.value;
  /** Runs to `ms` and answers one frame there; returns the command published for it. */
  const frame = (ms: bigint, threat?: Float32Array): TwistStamped["twist"] => {
    r.runTo(ms * MS);
    pub.publish(threatMsg(ms * MS, threat));
    r.graph.spinUntilIdle();
    const c = cmd.at(-1)!.msg;
    expect(c.header.stamp).toEqual(nsToStamp(ms * MS));
    return c.twist;
  };
  return { r, frame, value };
}

describe("controller node, planner mode", () => {
  it("hovers without a goal and says so on /diagnostics", async () => {
    const { r, frame, value } = await setup();
    const t = frame(300n);
    expect([t.linear.x, t.linear.y, t.linear.z, t.angular.z]).toEqual([0, 0, 0, 0]);
    r.runTo(1200n * MS);
    expect(value("navigation")).toMatch(/^no goal/);
    expect(value("goal")).toBe("none");
    await r.shutdown();
  });

  it("flies toward a goal from the goal topic: cruise when it is ahead and the way is free", async () => {
    const { r, frame, value } = await setup({}, goalAt(100, 0));
    const t = frame(300n);
    expect(t.linear.x).toBeCloseTo(4, 6);
    expect(t.linear.z).toBe(0);
    r.runTo(1200n * MS);
    expect(value("action")).toBe("cruise");
    expect(Number(value("goal_distance_m"))).toBeCloseTo(100, 0);
    await r.shutdown();
  });

  it("turns toward a goal on its left (north while heading east)", async () => {
    const { r, frame } = await setup({}, goalAt(0, 100));
    expect(frame(300n).angular.z).toBeGreaterThan(0);
    await r.shutdown();
  });

  it("leaves a wire across the path: climbs, where the free path would cruise", async () => {
    const { r, frame } = await setup({}, goalAt(100, 0));
    expect(frame(300n).linear.x).toBeCloseTo(4, 6);
    const t = frame(330n, wireAhead());
    expect(t.linear.z).toBeGreaterThan(0);
    expect(t.linear.x).toBeLessThan(4);
    await r.shutdown();
  });

  it("takes the goal from parameters with goal_source:=parameters", async () => {
    const g = goalAt(100, 0).geo_pose.position;
    const { r, frame } = await setup({ goal_source: "parameters", goal_latitude_deg: g.latitude, goal_longitude_deg: g.longitude, goal_altitude_m: g.altitude });
    expect(frame(300n).linear.x).toBeCloseTo(4, 6);
    await r.shutdown();
  });

  it("hovers when the fix goes stale, and names it", async () => {
    const { r, frame, value } = await setup({ navigation_timeout_s: 0.5 }, goalAt(100, 0));
    expect(frame(300n).linear.x).toBeCloseTo(4, 6);
    r.enabled.gps = false;
    expect(frame(1000n).linear.x).toBe(0);
    r.runTo(2100n * MS);
    expect(value("navigation")).toMatch(/GNSS fix \(gps\/fix\) is .* s old/);
    await r.shutdown();
  });

  it("drops a policy-head output (no threat cells) with the reason counted, and hovers", async () => {
    const { r, value } = await setup({}, goalAt(100, 0));
    r.runTo(300n * MS);
    const pub = r.graph.createNode("old_harness").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/policy");
    const old = threatMsg(300n * MS, new Float32Array(0));
    pub.publish({ ...old, action_logits: new Float32Array(7) });
    r.runTo(1200n * MS);
    expect(Number(value("drops/harness/policy:bad_content"))).toBe(1);
    await r.shutdown();
  });

  it("rejects a goal out of range on the topic (counted), keeping none", async () => {
    const bad = goalAt(100, 0);
    bad.geo_pose.position.latitude = 123;
    const { r, frame, value } = await setup({}, bad);
    expect(frame(300n).linear.x).toBe(0);
    r.runTo(1200n * MS);
    expect(value("goal")).toBe("none");
    expect(Number(value("drops/goal:bad_content"))).toBe(1);
    await r.shutdown();
  });
});

/** A harness/student_output message (the detector's own output): confident wire in `wireRows` (every column), background elsewhere. */
function uncorrectedMsg(atNs: bigint, wireRows: readonly number[], corrected = false): StudentOutputMsg {
  const probs = new Float32Array(ROWS * COLS * 4);
  for (let c = 0; c < ROWS * COLS; c++) probs[c * 4] = 1;
  for (const r of wireRows) for (let c = 0; c < COLS; c++) probs.set([0.04, 0.95, 0.005, 0.005], (r * COLS + c) * 4);
  return toStudentOutputMsg(
    { stamp: nsToStamp(atNs), frame_id: "camera_optical" },
    { actionLogits: [], cellProbs: probs, gridRows: ROWS, gridCols: COLS, state: [], pooledSize: 0, pooledInput: [], threatProbs: wireAhead() },
    { width: 256, height: 256 },
    corrected,
  );
}

describe("controller node, planner mode: the vertical commitment (vertical_commit_level)", () => {
  /** The frame of `setup` with the uncorrected frame of the same stamp published first (wire in `wireRows`; undefined: none). */
  async function committed(params: Record<string, number | boolean | string>) {
    const rig = await setup(params, goalAt(100, 0));
    const pub = rig.r.graph.createNode("fake_perception").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/student_output");
    const frame = (ms: bigint, wireRows?: readonly number[], corrected = false): TwistStamped["twist"] => {
      if (wireRows !== undefined) {
        rig.r.runTo(ms * MS);
        pub.publish(uncorrectedMsg(ms * MS, wireRows, corrected));
      }
      return rig.frame(ms, wireAhead());
    };
    return { ...rig, frame };
  }

  it("flies a blocked climb as a descend when the detector's own wire cells sit above the drone", async () => {
    const { r, frame, value } = await committed({ vertical_commit_level: 0.3 });
    // Rows 0-2 of 32 (the top of a 90-degree image): a wire well above; the planner alone climbs into it.
    const t = frame(300n, [0, 1, 2]);
    expect(t.linear.z).toBeLessThan(0);
    r.runTo(1200n * MS);
    expect(value("action")).toBe("descend");
    expect(value("vertical_commit")).toBe("level 0.3, 6 wire cells, side each, stall bound none");
    expect(value("vertical_commit_sides")).toBe("1 (by the wire cells 1), turned 1, left after a stall 0");
    expect(value("vertical_commit_unmatched_frames")).toBe("0");
    await r.shutdown();
  });

  it("leaves the climb as it is when the wire cells sit below (the side the planner chose), without evidence, and when off", async () => {
    const below = await committed({ vertical_commit_level: 0.3 });
    expect(below.frame(300n, [29, 30, 31]).linear.z).toBeGreaterThan(0);
    below.r.runTo(1200n * MS);
    expect(below.value("vertical_commit_sides")).toBe("1 (by the wire cells 1), turned 0, left after a stall 0");
    await below.r.shutdown();
    // No uncorrected frame for the policy message's stamp: no evidence, counted.
    const none = await committed({ vertical_commit_level: 0.3 });
    expect(none.frame(300n).linear.z).toBeGreaterThan(0);
    none.r.runTo(1200n * MS);
    expect(none.value("vertical_commit_unmatched_frames")).toBe("1");
    expect(none.value("vertical_commit_evidence")).toBe("closed");
    await none.r.shutdown();
    // Off (the default): the wire above is not read; no commitment keys.
    const off = await committed({});
    expect(off.frame(300n, [0, 1, 2]).linear.z).toBeGreaterThan(0);
    off.r.runTo(1200n * MS);
    expect(off.value("vertical_commit")).toBeUndefined();
    await off.r.shutdown();
  });

  it("with vertical_commit_stall_s leaves the planner's climb alone once the drone stalled that long (the rig's fix does not move), and reports it", async () => {
    const { r, frame, value } = await committed({ vertical_commit_level: 0.3, vertical_commit_stall_s: 1 });
    expect(frame(300n, [0, 1, 2]).linear.z).toBeLessThan(0);
    expect(frame(1200n, [0, 1, 2]).linear.z).toBeLessThan(0);
    // 1.2 s at the same distance from the goal: the climb the planner chose is flown.
    expect(frame(1500n, [0, 1, 2]).linear.z).toBeGreaterThan(0);
    r.runTo(2600n * MS);
    expect(value("vertical_commit")).toBe("level 0.3, 6 wire cells, side each, stall bound 1 s");
    expect(value("vertical_commit_sides")).toBe("3 (by the wire cells 3), turned 2, left after a stall 1");
    await r.shutdown();
  });

  it("keeps the evidence for 2 s of frames without wire, then lets it lapse", async () => {
    const { r, frame } = await committed({ vertical_commit_level: 0.3 });
    expect(frame(300n, [0, 1, 2]).linear.z).toBeLessThan(0);
    expect(frame(2200n, []).linear.z).toBeLessThan(0);
    expect(frame(2400n, []).linear.z).toBeGreaterThan(0);
    await r.shutdown();
  });

  it("says on /rosout that the level is ignored with mode:=policy", async () => {
    const r = new SimRig();
    const logs: string[] = [];
    r.graph.createNode("log_rec").createSubscription<{ msg: string }>("rcl_interfaces/msg/Log", "/rosout", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => logs.push(m.msg));
    await r.add(controllerNode, "controller", { mode: "policy", vertical_commit_level: 0.3 });
    r.runTo(100n * MS);
    expect(logs.some((m) => m.includes("vertical_commit_level=0.3 is ignored with mode:=policy"))).toBe(true);
    await r.shutdown();
  });

  it("refuses a corrected frame as evidence, and names it", async () => {
    const { r, frame, value } = await committed({ vertical_commit_level: 0.3 });
    expect(frame(300n, [0, 1, 2], true).linear.z).toBeGreaterThan(0);
    r.runTo(1200n * MS);
    expect(Number(value("drops/harness/student_output:bad_content"))).toBe(1);
    await r.shutdown();
  });
});

describe("controller node, planner mode: the final approach (arrival_radius_m)", () => {
  it("with arrival_radius_m descends to a goal 3 m ahead and 9 m below at the closing speed (0.5 m/s), and reports it", async () => {
    const { r, frame, value } = await setup({ arrival_radius_m: 6 }, goalAt(3, 0, -9));
    const t = frame(300n);
    expect(t.linear.z).toBeCloseTo(-1.5, 6);
    expect(t.linear.x).toBeCloseTo(0.5, 6);
    r.runTo(1200n * MS);
    expect(value("final_approach")).toBe("radius 6 m, guarded, 1 decisions");
    await r.shutdown();
    // Off (the default): the planner's own descend at the manoeuvre's speed, no key.
    const off = await setup({}, goalAt(3, 0, -9));
    expect(off.frame(300n).linear.x).toBeCloseTo(1.4, 6);
    off.r.runTo(1200n * MS);
    expect(off.value("final_approach")).toBeUndefined();
    await off.r.shutdown();
  });
});

describe("controller node, planner mode: the scan when stuck (scan_when_stuck_s)", () => {
  /** Every cell blocked: the planner hovers. */
  const wall = (): Float32Array => new Float32Array(ROWS * COLS).fill(0.99);

  it("with scan_when_stuck_s hovers until the drone has made no progress for that long, then yaws in place, and reports it", async () => {
    const { r, frame, value } = await setup({ scan_when_stuck_s: 1 }, goalAt(20, 0));
    const first = frame(300n, wall());
    expect([first.linear.x, first.linear.z, first.angular.z]).toEqual([0, 0, 0]);
    let t = frame(800n, wall());
    expect(t.angular.z).toBe(0);
    // The rig's fix does not move: 1 s after the first decision the hover becomes a yaw with no forward speed.
    t = frame(1300n, wall());
    expect(Math.abs(t.angular.z)).toBeCloseTo(0.6, 6);
    expect(t.linear.x).toBe(0);
    t = frame(1550n, wall());
    expect(Math.abs(t.angular.z)).toBeCloseTo(0.6, 6);
    r.runTo(2200n * MS);
    expect(value("scan_when_stuck")).toBe("after 1 s, 2 decisions in 1 episodes");
    await r.shutdown();
    // Off (the default): hover throughout, no key.
    const off = await setup({}, goalAt(20, 0));
    expect(off.frame(1300n, wall()).angular.z).toBe(0);
    off.r.runTo(2200n * MS);
    expect(off.value("scan_when_stuck")).toBeUndefined();
    await off.r.shutdown();
  });
});

describe("controller node, planner mode: the climb when stuck (stuck_climb_m)", () => {
  /** No cell blocked: the planner cruises toward a goal at its own altitude. */
  const open = (): Float32Array => new Float32Array(ROWS * COLS);

  it("once stuck, the planner reads the goal's altitude raised and climbs; within stuck_climb_release_m of the goal it does not", async () => {
    const { r, frame, value } = await setup({ scan_when_stuck_s: 1, stuck_climb_m: 8 }, goalAt(20, 0));
    // The rig's fix does not move: cruise level until 1 s without progress, then the raised goal makes the planner climb.
    expect(frame(300n, open()).linear.z).toBe(0);
    expect(frame(800n, open()).linear.z).toBe(0);
    const climbing = frame(1300n, open());
    expect(climbing.linear.z).toBeGreaterThan(0);
    expect(climbing.linear.x).toBeGreaterThan(0);
    r.runTo(2200n * MS);
    expect(value("stuck_climb")).toBe("8 m over the goal until 6 m from it, 1 climbs, climbing");
    await r.shutdown();
    // The goal 5 m away, inside the release distance: stuck, but level.
    const near = await setup({ scan_when_stuck_s: 1, stuck_climb_m: 8 }, goalAt(5, 0));
    near.frame(300n, open());
    expect(near.frame(1300n, open()).linear.z).toBe(0);
    near.r.runTo(2200n * MS);
    expect(near.value("stuck_climb")).toBe("8 m over the goal until 6 m from it, 0 climbs, not climbing");
    await near.r.shutdown();
    // Without the scan the climb is off (and warned about), no key.
    const off = await setup({ stuck_climb_m: 8 }, goalAt(20, 0));
    off.frame(300n, open());
    expect(off.frame(1300n, open()).linear.z).toBe(0);
    off.r.runTo(2200n * MS);
    expect(off.value("stuck_climb")).toBeUndefined();
    await off.r.shutdown();
  });
});

