import { safetyNode } from "../../nodes/safety";
import type { TwistStamped } from "../../nodes/common/sensorTypes";
import type { OffboardControlMode, TrajectorySetpoint } from "../../src/control/px4";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { nsToTime } from "../../src/ros/graph/wallClock";
import { MS, imu } from "./fixtures";
import { SimRig } from "./SimRig";

/** A stand-in controller publishing cmd_vel_raw (2 m/s forward, 1 m/s up, 0.3 rad/s left) every 50 ms. */
function fakeController(r: SimRig) {
  const pub = r.graph.createNode("fake_controller").createPublisher<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel_raw");
  let alive = true;
  r.graph.createNode("fake_controller_timer", { parameterOverrides: { use_sim_time: true } }).createTimer(50n * MS, () => {
    if (alive) pub.publish({ header: { stamp: nsToTime(r.nowNs), frame_id: "base_link" }, twist: { linear: { x: 2, y: 0, z: 1 }, angular: { x: 0, y: 0, z: 0.3 } } });
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
