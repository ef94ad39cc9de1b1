/**
 * /gps/vel under Gazebo vs the embedded simulator: the embedded drone flies a climbing turn, an
 * emulation of Gazebo's OdometryPublisher turns its pose into nav_msgs/Odometry the way
 * gz-sim src/systems/odometry_publisher/OdometryPublisher.cc does with <dimensions>3 (body-frame
 * linear velocity = pose.Rot().RotateVectorReverse(world displacement) / dt, a rolling mean over
 * the last 10 steps; published at odom_publish_frequency), the odom_to_gps_vel node converts it
 * on the lock-step EmbeddedGraph, and its /gps/vel must equal the simulator's true ENU velocity.
 *
 * Expected error: in a steady turn the body-frame velocity is constant, so the rolling mean adds
 * no lag once the first-order responses have settled (after 4 s of flight); what remains is their
 * residual transient. Bound 1e-3 m/s; measured 4.2e-6 m/s (seed 11, no wind). Treating the body
 * twist as ENU without the rotation is off by 7.8 m/s or more over the same seconds (asserted
 * > 1 m/s), so the test sees the frame.
 */
import { odomToGpsVelNode, type OdometryMsg } from "../../nodes/odom_to_gps_vel";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { createSimulation } from "../../sim";
import { rotateByQuaternion } from "../../sim/gazebo/odometryToEnu";
import { eulerToQuaternion } from "../../sim/sensors";
import { EmbeddedGraph } from "../../src/ros/graph";
import { nsToStamp } from "../../src/util/time";
import { QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import { fastScenario } from "./fixtures";

/** OdometryPublisher's linear-velocity window (RollingMean SetWindowSize(10)). */
const WINDOW = 10;

describe("Gazebo odometry -> odom_to_gps_vel -> /gps/vel matches the embedded simulator's ENU velocity", () => {
  it("in a climbing turn (4 m/s forward, 0.5 m/s up, 0.3 rad/s yaw rate), within 1e-3 m/s after 4 s", async () => {
    const scenario = fastScenario("trees_only", 64);
    scenario.wind = { ...scenario.wind, meanSpeed_m_s: { min: 0, max: 0 }, gustStd_m_s: { min: 0, max: 0 } };
    scenario.trees.count = { min: 0, max: 0 };
    const sim = createSimulation(scenario, { seed: 11 });
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const gz = graph.createNode("gz_bridge");
    const clock = gz.createPublisher<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock");
    const odomPub = gz.createPublisher<OdometryMsg>("nav_msgs/msg/Odometry", "/model/drone/odometry");
    const launched = await odomToGpsVelNode(graph, { name: "odom_to_gps_vel", namespace: "/", parameterOverrides: { use_sim_time: true }, remappings: { odom: "/model/drone/odometry" } });
    await activateIfLifecycle(launched);
    const out: TwistStamped[] = [];
    graph.createNode("rec").createSubscription<TwistStamped>("geometry_msgs/msg/TwistStamped", "/gps/vel", { qos: QOS_SENSOR_DATA }, (m) => out.push(m));

    const tickNs = 5_000_000n; // 200 Hz physics
    const dt = Number(tickNs) / 1e9;
    const publishEvery = 20; // 10 Hz, the GPS rate the export sets as odom_publish_frequency
    const q = { x: 0, y: 0, z: 0, w: 1 };
    const qInv = { x: 0, y: 0, z: 0, w: 1 };
    const body = { x: 0, y: 0, z: 0 };
    const ring = { x: new Float64Array(WINDOW), y: new Float64Array(WINDOW), z: new Float64Array(WINDOW) };
    let filled = 0;
    const last = Float64Array.from(sim.drone.position);
    const truth: Array<{ stampNs: bigint; v: [number, number, number]; naive: [number, number, number] }> = [];
    let tNs = 0n;
    for (let k = 1; k <= 6 * 200; k++) {
      expect(sim.step({ vx_m_s: 4, vy_m_s: 0, vz_m_s: 0.5, yawRate_rad_s: 0.3 }, dt)).toBe("flying");
      tNs += tickNs;
      const d = sim.drone;
      eulerToQuaternion(d.yaw, d.pitch, d.roll, q);
      qInv.x = -q.x;
      qInv.y = -q.y;
      qInv.z = -q.z;
      qInv.w = q.w;
      body.x = (d.position[0]! - last[0]!) / dt;
      body.y = (d.position[1]! - last[1]!) / dt;
      body.z = (d.position[2]! - last[2]!) / dt;
      last.set(d.position);
      rotateByQuaternion(qInv, body, body); // RotateVectorReverse: world -> body
      const slot = (k - 1) % WINDOW;
      ring.x[slot] = body.x;
      ring.y[slot] = body.y;
      ring.z[slot] = body.z;
      filled = Math.min(WINDOW, filled + 1);
      if (k % publishEvery !== 0) continue;
      const mean = (a: Float64Array): number => a.subarray(0, filled).reduce((s, x) => s + x, 0) / filled;
      const linear = { x: mean(ring.x), y: mean(ring.y), z: mean(ring.z) };
      clock.publish({ clock: nsToStamp(tNs) });
      graph.spinUntilIdle();
      odomPub.publish({
        header: { stamp: nsToStamp(tNs), frame_id: "odom" },
        child_frame_id: "base_link",
        pose: { pose: { position: { x: d.position[0]!, y: d.position[1]!, z: d.position[2]! }, orientation: { ...q } }, covariance: new Float64Array(36) },
        twist: { twist: { linear, angular: { x: d.angularVelocity[0]!, y: d.angularVelocity[1]!, z: d.angularVelocity[2]! } }, covariance: new Float64Array(36) },
      });
      graph.spinUntilIdle();
      truth.push({ stampNs: tNs, v: [d.velocity[0]!, d.velocity[1]!, d.velocity[2]!], naive: [linear.x, linear.y, linear.z] });
    }
    expect(out).toHaveLength(truth.length);
    let maxErr = 0;
    let minNaiveErr = Number.POSITIVE_INFINITY;
    for (let i = 0; i < out.length; i++) {
      const m = out[i]!, t = truth[i]!;
      expect(BigInt(m.header.stamp.sec) * 1_000_000_000n + BigInt(m.header.stamp.nanosec)).toBe(t.stampNs);
      if (t.stampNs < 4_000_000_000n) continue;
      const l = m.twist.linear;
      maxErr = Math.max(maxErr, Math.hypot(l.x - t.v[0], l.y - t.v[1], l.z - t.v[2]));
      minNaiveErr = Math.min(minNaiveErr, Math.hypot(t.naive[0] - t.v[0], t.naive[1] - t.v[1], t.naive[2] - t.v[2]));
    }
    expect(maxErr).toBeLessThan(1e-3);
    expect(minNaiveErr).toBeGreaterThan(1);
    await launched.stop();
    await graph.shutdown();
  });
});
