/** A stand-in controller node and a golden "flight" recorded through it (tests of replay). */
import type { BagFileSystem } from "../../src/bag/BagStorage";
import { BagWriter } from "../../src/bag/BagWriter";
import { EmbeddedGraph, type RosGraph, type RosNode } from "../../src/ros/graph";
import type { ParameterValue } from "../../src/ros/graph/types";
import { defaultRegistry } from "../../src/ros/msgs";

type Vector3 = { x: number; y: number; z: number };
type Imu = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; linear_acceleration: Vector3 };
type TwistStamped = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; twist: { linear: Vector3; angular: Vector3 } };

const registry = defaultRegistry();
export const T0 = 1_700_000_000_000_000_000n;

/**
 * A stand-in for the controller: on every IMU message it publishes /cmd_vel with
 * linear.x = gain * acceleration.x, stamped with the node's clock (sim time from /clock).
 * `asyncWork` makes it answer from a promise continuation, as a node awaiting inference would.
 */
export function startController(
  graph: RosGraph,
  gain: number,
  asyncWork = false,
  parameterOverrides: Record<string, ParameterValue> = { use_sim_time: true },
): RosNode {
  const node = graph.createNode("controller", { parameterOverrides });
  const pub = node.createPublisher<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel");
  // A deep queue: under load a player catching up publishes a burst of IMU messages before the
  // executor spins, and the default depth (10) would drop the oldest (seen in CI: 17 of 20).
  node.createSubscription<Imu>("sensor_msgs/msg/Imu", "/imu/data", { qos: { history: "keep_last", depth: 1000, reliability: "reliable", durability: "volatile" } }, (m) => {
    const send = (): void =>
      pub.publish({
        header: { stamp: node.getClock().now(), frame_id: "base_link" },
        twist: { linear: { x: gain * m.linear_acceleration.x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } },
      });
    if (asyncWork) void Promise.resolve().then(send);
    else send();
  });
  return node;
}

/** Records a "flight": the IMU inputs and the controller's /cmd_vel outputs, on sim time. */
export async function recordGolden(fs: BagFileSystem, dir: string, gain: number): Promise<void> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  startController(graph, gain);
  const w = await BagWriter.create({ fs, directory: dir, chunkSizeBytes: 4096 });
  for (const [topic, type] of [
    ["/imu/data", "sensor_msgs/msg/Imu"],
    ["/cmd_vel", "geometry_msgs/msg/TwistStamped"],
  ] as const) {
    await w.addTopic({ topic, type, schemaText: registry.ros2msgText(type), offeredQosProfiles: "" });
  }
  const pending: [bigint, Uint8Array][] = [];
  let now = T0;
  graph.subscribeRaw("/cmd_vel", (bytes) => pending.push([now, bytes]));
  for (let i = 0; i < 50; i++) {
    now = T0 + BigInt(i) * 10_000_000n;
    const clock = registry.serialize("rosgraph_msgs/msg/Clock", { clock: { sec: Number(now / 1_000_000_000n), nanosec: Number(now % 1_000_000_000n) } });
    graph.publishRaw("/clock", "rosgraph_msgs/msg/Clock", clock);
    const imu = registry.defaultMessage<Imu>("sensor_msgs/msg/Imu");
    imu.linear_acceleration.x = Math.sin(i / 5);
    const bytes = registry.serialize("sensor_msgs/msg/Imu", imu);
    graph.publishRaw("/imu/data", "sensor_msgs/msg/Imu", bytes);
    await w.write("/imu/data", now, bytes);
    graph.spinUntilIdle();
    for (const [t, b] of pending.splice(0)) await w.write("/cmd_vel", t, b);
  }
  await w.close();
  await graph.shutdown();
}

