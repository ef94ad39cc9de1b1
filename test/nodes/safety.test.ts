import { safetyNode } from "../../nodes/safety";
import type { Image, TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import type { OffboardControlMode, TrajectorySetpoint } from "../../src/control/px4";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { nsToStamp } from "../../src/util/time";
import { MS, image, imu } from "./fixtures";
import { SimRig } from "./SimRig";

/** A stand-in controller publishing cmd_vel_raw (2 m/s forward, 1 m/s up, 0.3 rad/s left) every 50 ms. */
function fakeController(r: SimRig) {
  const pub = r.graph.createNode("fake_controller").createPublisher<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel_raw");
  let alive = true;
  r.graph.createNode("fake_controller_timer", { parameterOverrides: { use_sim_time: true } }).createTimer(50n * MS, () => {
    if (alive) pub.publish({ header: { stamp: nsToStamp(r.nowNs), frame_id: "base_link" }, twist: { linear: { x: 2, y: 0, z: 1 }, angular: { x: 0, y: 0, z: 0.3 } } });
  });
  return { kill: () => void (alive = false) };
}

describe("safety node", () => {
  it("passes fresh commands through to cmd_vel and sets its QoS per SPEC", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety");
    fakeController(r);
    const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    r.runTo(1000n * MS);
    expect(cmd.at(-1)!.msg.twist).toEqual({ linear: { x: 2, y: 0, z: 1 }, angular: { x: 0, y: 0, z: 0.3 } });
    expect(cmd.at(-1)!.msg.header.frame_id).toBe("base_link");
    const subQos = (t: string) => r.graph.topicInfo(t).subscriptions.find((s) => s.node === "/safety")!.qos;
    expect(subQos("/camera/image_raw")).toEqual(QOS_SENSOR_DATA);
    expect(subQos("/imu/data")).toEqual(QOS_SENSOR_DATA);
    expect(subQos("/gps/fix")).toEqual(QOS_SENSOR_DATA);
    expect(subQos("/cmd_vel_raw")).toEqual(QOS_DEFAULT);
    expect(r.graph.topicInfo("/cmd_vel").publishers[0]!.qos).toEqual(QOS_DEFAULT);
    await r.shutdown();
  });

  it("answers every cmd_vel_raw with its stamp: hover while gps/fix has never arrived (WARN 'waiting for first gps/fix'), the command after", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety");
    fakeController(r);
    const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    const raw = r.record<TwistStamped>("/cmd_vel_raw", "geometry_msgs/msg/TwistStamped");
    const diag = r.record<{ status: Array<{ level: number; message: string }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    r.enabled.gps = false;
    r.runTo(500n * MS);
    r.enabled.gps = true;
    r.runTo(1000n * MS);
    const ns = (m: TwistStamped) => BigInt(m.header.stamp.sec) * 1_000_000_000n + BigInt(m.header.stamp.nanosec);
    for (const c of raw) {
      const answers = cmd.filter((o) => ns(o.msg) === ns(c.msg));
      // One answer per command (the timer's hover carries the clock stamp; at equal times it may
      // also match, so count at least one answer with the command's own stamp).
      expect({ at: c.atNs, answered: answers.length >= 1 }).toEqual({ at: c.atNs, answered: true });
      const x = answers.map((a) => a.msg.twist.linear.x);
      // The first fix is published at 600 ms, after the fake controller's command of that step.
      if (c.atNs <= 600n * MS) expect({ at: c.atNs, x }).toEqual({ at: c.atNs, x: x.map(() => 0) });
      else expect({ at: c.atNs, x: x.at(-1) }).toEqual({ at: c.atNs, x: 2 });
    }
    expect(raw.filter((c) => c.atNs < 500n * MS).length).toBeGreaterThanOrEqual(9);
    const first = diag.map((d) => d.msg.status[0]!).find((s) => s.level !== 0);
    expect(first).toEqual(expect.objectContaining({ level: 1, message: "active: HOVER: waiting for first gps/fix" }));
    await r.shutdown();
  });

  it("with output:=px4 streams NED TrajectorySetpoint + OffboardControlMode on fmu/in/* at >= 10 Hz", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety", { output: "px4" });
    fakeController(r);
    const sp = r.record<TrajectorySetpoint>("/fmu/in/trajectory_setpoint", "px4_msgs/msg/TrajectorySetpoint");
    const mode = r.record<OffboardControlMode>("/fmu/in/offboard_control_mode", "px4_msgs/msg/OffboardControlMode");
    r.runTo(2000n * MS);
    const inLastSecond = sp.filter((s) => s.atNs > 1000n * MS);
    expect(inLastSecond.length).toBeGreaterThanOrEqual(10);
    expect(mode.filter((s) => s.atNs > 1000n * MS).length).toBeGreaterThanOrEqual(10);
    // IMU orientation is identity: the body faces ENU east. Forward 2 m/s east = NED y; up 1 = NED z -1;
    // yaw rate +0.3 (left, about up) = yawspeed -0.3 about down.
    const last = sp.at(-1)!.msg;
    expect(last.velocity[0]).toBeCloseTo(0, 6);
    expect(last.velocity[1]).toBeCloseTo(2, 6);
    expect(last.velocity[2]).toBeCloseTo(-1, 6);
    expect(last.yawspeed).toBeCloseTo(-0.3, 6);
    expect(Array.from(last.position).every(Number.isNaN)).toBe(true);
    expect(last.timestamp).toBe(sp.at(-1)!.atNs / 1000n);
    expect(mode.at(-1)!.msg.velocity).toBe(true);
    expect(mode.at(-1)!.msg.position).toBe(false);
    await r.shutdown();
  });
});

describe("safety node: a dead controller and non-finite IMU samples", () => {
  it("holds hover within 200 ms when the controller dies, and when the IMU turns to NaN (dropped, counted)", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety");
    const ctl = fakeController(r);
    const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    r.runTo(1000n * MS);
    ctl.kill();
    r.runTo(1300n * MS);
    const hover = cmd.find((c) => c.atNs > 1000n * MS && c.msg.twist.linear.x === 0);
    expect(hover!.atNs - 1000n * MS).toBeLessThanOrEqual(200n * MS);

    const r2 = new SimRig();
    await r2.add(safetyNode, "safety");
    fakeController(r2);
    const cmd2 = r2.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    r2.runTo(1000n * MS);
    r2.enabled.imu = false;
    const badImu = r2.graph.createNode("bad_imu").createPublisher("sensor_msgs/msg/Imu", "/imu/data");
    for (let t = 1010n; t <= 1500n; t += 10n) {
      r2.runTo(t * MS);
      badImu.publish(imu(t * MS, { angular_velocity: { x: Number.NaN, y: 0, z: 0 } }));
    }
    r2.graph.spinUntilIdle();
    // The last valid IMU sample came at 1000 ms: hover from at most 1200 ms on.
    const afterBound = cmd2.filter((c) => c.atNs > 1200n * MS);
    expect(afterBound.length).toBeGreaterThan(0);
    expect(afterBound.every((c) => c.msg.twist.linear.x === 0 && c.msg.twist.linear.z === 0)).toBe(true);
    await r.shutdown();
    await r2.shutdown();
  });

  it("counts NaN IMU messages as drops in /diagnostics", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety");
    const diag = r.record<{ status: Array<{ values: Array<{ key: string; value: string }> }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    r.enabled.imu = false;
    const badImu = r.graph.createNode("bad_imu").createPublisher("sensor_msgs/msg/Imu", "/imu/data");
    for (let t = 10n; t <= 1200n; t += 10n) {
      r.runTo(t * MS);
      badImu.publish(imu(t * MS, { linear_acceleration: { x: Number.POSITIVE_INFINITY, y: 0, z: 0 } }));
      r.graph.spinUntilIdle();
    }
    r.runTo(2100n * MS);
    const values = diag.at(-1)!.msg.status[0]!.values;
    expect(values).toContainEqual({ key: "drops/imu/data:non_finite", value: "120" });
    expect(values).toContainEqual({ key: "override", value: "true" });
    await r.shutdown();
  });
});

describe("safety node: frozen camera pixels", () => {
  it("camera pixels frozen under fresh stamps: hover within frozen_image_timeout_s + check_period_s, reason on /diagnostics, recovery when they change", async () => {
    const r = new SimRig();
    await r.add(safetyNode, "safety", { frozen_image_timeout_s: 0.15 });
    fakeController(r);
    const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    const diag = r.record<{ status: Array<{ level: number; message: string }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    r.enabled.camera = false;
    const cam = r.graph.createNode("usb_cam").createPublisher<Image>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA });
    // 64x64 rgb8 frames; "live" frames differ in one byte (the frame counter), frozen ones repeat
    // the frame of 990 ms: the driver failure, from 1000 ms to 1500 ms.
    let held: Uint8Array | undefined;
    for (let t = 10n; t <= 2200n; t += 10n) {
      r.runTo(t * MS);
      if (t % 30n !== 0n) continue;
      const frozen = t > 990n && t < 1500n;
      let data: Uint8Array;
      if (frozen && held !== undefined) data = held;
      else {
        data = new Uint8Array(64 * 64 * 3);
        data[(Number(t) * 7) % data.length] = Number(t % 251n) + 1;
        held = data;
      }
      cam.publish(image(t * MS, { width: 64, height: 64, step: 192, data }));
      r.graph.spinUntilIdle();
    }
    const moving = (c: { msg: TwistStamped }) => c.msg.twist.linear.x !== 0;
    expect(cmd.filter((c) => c.atNs > 300n * MS && c.atNs <= 990n * MS).every(moving)).toBe(true);
    // The held frame arrived at 990 ms: hover is due by 990 + 150 + 50 = 1190 ms.
    const firstHover = cmd.find((c) => c.atNs > 990n * MS && !moving(c));
    expect(firstHover!.atNs).toBeGreaterThan(1140n * MS);
    expect(firstHover!.atNs).toBeLessThanOrEqual(1190n * MS);
    expect(cmd.filter((c) => c.atNs >= firstHover!.atNs && c.atNs < 1500n * MS).some(moving)).toBe(false);
    // Frame 1500 ms has new pixels: the commands after it pass again.
    expect(cmd.filter((c) => c.atNs > 1500n * MS).every(moving)).toBe(true);
    const reasons = diag.flatMap((d) => d.msg.status.map((s) => `${s.level} ${s.message}`));
    expect(reasons.some((m) => /^2 active: HOVER: camera frozen: identical pixels for 0\.\d\d s with advancing stamps/.test(m))).toBe(true);
    await r.shutdown();
  });
});
