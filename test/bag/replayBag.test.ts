import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { formatDifferences } from "../../src/bag/compareMessageStreams";
import { replayBag } from "../../src/bag/replayBag";
import { EmbeddedGraph, type RosNode } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";

type Vector3 = { x: number; y: number; z: number };
type Imu = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; linear_acceleration: Vector3 };
type TwistStamped = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; twist: { linear: Vector3; angular: Vector3 } };

const registry = defaultRegistry();
const T0 = 1_700_000_000_000_000_000n;

/**
 * A stand-in for the controller: on every IMU message it publishes /cmd_vel with
 * linear.x = gain * acceleration.x, stamped with the node's clock (sim time from /clock).
 * `asyncWork` makes it answer from a promise continuation, as a node awaiting inference would.
 */
function startController(graph: EmbeddedGraph, gain: number, asyncWork = false): RosNode {
  const node = graph.createNode("controller", { parameterOverrides: { use_sim_time: true } });
  const pub = node.createPublisher<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel");
  node.createSubscription<Imu>("sensor_msgs/msg/Imu", "/imu/data", {}, (m) => {
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
async function recordGolden(fs: MemoryBagFileSystem, dir: string, gain: number): Promise<void> {
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

async function replay(fs: MemoryBagFileSystem, dir: string, gain: number, asyncWork = false) {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  startController(graph, gain, asyncWork);
  const result = await replayBag(await Bag.open(fs, dir), graph, {
    compareTopics: ["/cmd_vel"],
    absTolerance: 1e-9,
    decode: (type, bytes) => registry.deserialize(type, bytes),
  });
  await graph.shutdown();
  return result;
}

describe("replayBag: inputs through the nodes in lock-step on sim time, outputs compared with the bag", () => {
  it("the same node reproduces the recorded outputs, stamps included (sim time from the replayed /clock)", async () => {
    const fs = new MemoryBagFileSystem();
    await recordGolden(fs, "/golden/flight", 0.5);
    const r = await replay(fs, "/golden/flight", 0.5);
    expect(r.played).toBe(50);
    expect(r.counts.get("/cmd_vel")).toEqual({ expected: 50, actual: 50 });
    expect(r.equal).toBe(true);
  });

  it("a node that answers asynchronously is waited for", async () => {
    const fs = new MemoryBagFileSystem();
    await recordGolden(fs, "/golden/flight", 0.5);
    const r = await replay(fs, "/golden/flight", 0.5, true);
    expect(r.equal).toBe(true);
  });

  it("a changed node fails with the first differences (topic, index, field path, expected, actual)", async () => {
    const fs = new MemoryBagFileSystem();
    await recordGolden(fs, "/golden/flight", 0.5);
    const r = await replay(fs, "/golden/flight", 0.6);
    expect(r.equal).toBe(false);
    const first = r.differences[0]!;
    // message 0 has sin(0) = 0 on both sides; message 1 is the first to differ
    expect(first).toMatchObject({ kind: "value", topic: "/cmd_vel", index: 1, path: "twist.linear.x" });
    expect(first.expected as number).toBeCloseTo(0.5 * Math.sin(0.2), 12);
    expect(first.actual as number).toBeCloseTo(0.6 * Math.sin(0.2), 12);
    expect(formatDifferences(r)).toContain("/cmd_vel #1 twist.linear.x: expected 0.0993");
  });
});
