/**
 * The odom_to_gps_vel node on the real EmbeddedGraph in lock-step (sim time from /clock): Gazebo
 * odometry in (nav_msgs/Odometry, body-frame twist, as the bridged OdometryPublisher output) ->
 * geometry_msgs/TwistStamped in ENU out, header stamp copied, frame_id from its parameter;
 * sensor-data QoS; silent until active; bad messages dropped and counted on /diagnostics.
 */
import { odomToGpsVelNode, type OdometryMsg } from "../../nodes/odom_to_gps_vel";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { EmbeddedGraph } from "../../src/ros/graph";
import { nsToStamp } from "../../src/util/time";
import { QOS_SENSOR_DATA, type LifecycleRosNode, type ParameterValue } from "../../src/ros/graph/types";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import { eulerToQuaternion } from "../../sim/sensors";

const MS = 1_000_000n;
const ODOM_TOPIC = "/model/drone/odometry";
type Diag = { status: Array<{ name: string; level: number; values: Array<{ key: string; value: string }> }> };

function odometry(atNs: bigint, yaw: number, body: { x: number; y: number; z: number }, over: Partial<OdometryMsg> = {}): OdometryMsg {
  const q = { x: 0, y: 0, z: 0, w: 1 };
  eulerToQuaternion(yaw, 0, 0, q);
  return {
    header: { stamp: nsToStamp(atNs), frame_id: "odom" },
    child_frame_id: "base_link",
    pose: { pose: { position: { x: 1, y: 2, z: 10 }, orientation: q }, covariance: new Float64Array(36) },
    twist: { twist: { linear: body, angular: { x: 0, y: 0, z: 0.2 } }, covariance: new Float64Array(36) },
    ...over,
  };
}

async function setup(params: Record<string, ParameterValue> = {}, activate = true) {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const gz = graph.createNode("gz_bridge");
  const clock = gz.createPublisher<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock");
  const odomPub = gz.createPublisher<OdometryMsg>("nav_msgs/msg/Odometry", ODOM_TOPIC);
  const launched = await odomToGpsVelNode(graph, { name: "odom_to_gps_vel", namespace: "/", parameterOverrides: { use_sim_time: true, ...params }, remappings: { odom: ODOM_TOPIC } });
  if (activate) await activateIfLifecycle(launched);
  const out: TwistStamped[] = [];
  const rec = graph.createNode("rec");
  rec.createSubscription<TwistStamped>("geometry_msgs/msg/TwistStamped", "/gps/vel", { qos: QOS_SENSOR_DATA }, (m) => out.push(m));
  const diags: Diag[] = [];
  rec.createSubscription<Diag>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", {}, (m) => diags.push(m));
  let nowNs = 0n;
  /** Advances /clock to `t` and publishes `msg` (stamped by the caller), then spins. */
  const step = (t: bigint, msg?: OdometryMsg): void => {
    nowNs = t;
    clock.publish({ clock: nsToStamp(t) });
    graph.spinUntilIdle();
    if (msg !== undefined) odomPub.publish(msg);
    graph.spinUntilIdle();
  };
  const shutdown = async (): Promise<void> => {
    await launched.stop();
    await graph.shutdown();
  };
  return { graph, launched, out, diags, step, now: () => nowNs, shutdown };
}

describe("odom_to_gps_vel node", () => {
  it("converts the body-frame odometry twist to ENU on /gps/vel at every message, stamp copied, frame_id gps_link, sensor-data QoS", async () => {
    const s = await setup();
    // Heading north (yaw 90 deg in ENU), 4 m/s forward and 0.5 m/s up in the body frame -> (0, 4, 0.5) ENU.
    for (let k = 1; k <= 5; k++) s.step(BigInt(k) * 20n * MS, odometry(BigInt(k) * 20n * MS, Math.PI / 2, { x: 4, y: 0, z: 0.5 }));
    expect(s.out).toHaveLength(5);
    const last = s.out.at(-1)!;
    expect(last.header).toEqual({ stamp: { sec: 0, nanosec: 100_000_000 }, frame_id: "gps_link" });
    expect(last.twist.linear.x).toBeCloseTo(0, 12);
    expect(last.twist.linear.y).toBeCloseTo(4, 12);
    expect(last.twist.linear.z).toBeCloseTo(0.5, 12);
    expect(last.twist.angular.z).toBeCloseTo(0.2, 12);
    expect(s.graph.topicInfo("/gps/vel").publishers[0]!.qos).toEqual(QOS_SENSOR_DATA);
    expect(s.graph.topicInfo(ODOM_TOPIC).subscriptions.find((x) => x.node === "/odom_to_gps_vel")!.qos).toEqual(QOS_SENSOR_DATA);
    await s.shutdown();
  });

  it("declares frame_id and the plausibility limits with defaults, takes overrides and rejects an out-of-range one", async () => {
    const s = await setup({ frame_id: "gps_antenna" });
    expect(s.launched.node.getParameter("frame_id").value).toBe("gps_antenna");
    expect(s.launched.node.getParameter("max_speed_m_s").value).toBe(100);
    expect(s.launched.node.getParameter("max_angular_speed_rad_s").value).toBe(35);
    s.step(20n * MS, odometry(20n * MS, 0, { x: 1, y: 0, z: 0 }));
    expect(s.out[0]!.header.frame_id).toBe("gps_antenna");
    expect(s.out[0]!.twist.linear.x).toBeCloseTo(1, 12);
    await s.shutdown();
    await expect(setup({ max_speed_m_s: 0 })).rejects.toThrow("/odom_to_gps_vel: override for parameter 'max_speed_m_s'=0 is out of range [0.1, 1000]");
  });

  it("is silent until activated and after deactivation", async () => {
    const s = await setup({}, false);
    const node = s.launched.node as LifecycleRosNode;
    s.step(20n * MS, odometry(20n * MS, 0, { x: 1, y: 0, z: 0 }));
    expect(await node.configure()).toBe("success");
    s.step(40n * MS, odometry(40n * MS, 0, { x: 1, y: 0, z: 0 }));
    expect(s.out).toHaveLength(0);
    expect(await node.activate()).toBe("success");
    s.step(60n * MS, odometry(60n * MS, 0, { x: 1, y: 0, z: 0 }));
    expect(s.out).toHaveLength(1);
    expect(await node.deactivate()).toBe("success");
    s.step(80n * MS, odometry(80n * MS, 0, { x: 1, y: 0, z: 0 }));
    expect(s.out).toHaveLength(1);
    await s.shutdown();
  });

  it("drops NaN, non-unit orientation, absurd speed, duplicate and future stamps; counts them on /diagnostics and keeps converting", async () => {
    const s = await setup();
    s.step(20n * MS, odometry(20n * MS, 0, { x: 1, y: 0, z: 0 }));
    s.step(40n * MS, odometry(40n * MS, 0, { x: Number.NaN, y: 0, z: 0 }));
    s.step(60n * MS, odometry(60n * MS, 0, { x: 1, y: 0, z: 0 }, { pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 0 } }, covariance: new Float64Array(36) } }));
    s.step(80n * MS, odometry(80n * MS, 0, { x: 300, y: 0, z: 0 }));
    s.step(100n * MS, odometry(20n * MS, 0, { x: 1, y: 0, z: 0 })); // the same stamp as the last accepted one (20 ms): duplicate
    s.step(120n * MS, odometry(5000n * MS, 0, { x: 1, y: 0, z: 0 })); // 4.9 s ahead of the clock
    s.step(140n * MS, odometry(140n * MS, 0, { x: 2, y: 0, z: 0 }));
    expect(s.out.map((m) => m.twist.linear.x)).toEqual([1, 2]);
    s.step(1200n * MS);
    const status = s.diags.at(-1)!.status.find((x) => x.name === "odom_to_gps_vel: odom_to_gps_vel")!;
    const v = Object.fromEntries(status.values.map((x) => [x.key, x.value]));
    expect(v).toMatchObject({
      state: "active",
      received: "7",
      published: "2",
      odom_child_frame_id: "base_link",
      drops_total: "5",
      "drops/odom:non_finite": "1",
      "drops/odom:absurd_magnitude": "2",
      "drops/odom:duplicate": "1",
      "drops/odom:future_stamp": "1",
    });
    await s.shutdown();
  });
});
