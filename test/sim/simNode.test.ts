/**
 * The sim node on the embedded graph, in lock-step: the topics, types, QoS and frame ids of the
 * SPEC contract (topic table in SPEC.md: camera/image_raw Image rgb8 256x256, camera_info,
 * imu/data, gps/fix, gps/vel TwistStamped ENU with sensor-data QoS; /clock reliable; cmd_vel
 * TwistStamped body FLU reliable), sensor rates, command following and determinism.
 */
import { createHash } from "node:crypto";
import { EmbeddedGraph } from "../../src/ros/graph";
import { QOS_DEFAULT, QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL, type QoSProfile } from "../../src/ros/graph/types";
import { createSimNode, type SimLaunchedNode } from "../../nodes/sim";
import { SIM_TOPICS } from "../../sim/topics";
import { fastScenario } from "./fixtures";

const RECORD_QOS: QoSProfile = { history: "keep_last", depth: 1000, reliability: "best_effort", durability: "volatile" };

async function rig(seed = 3, params: Record<string, number> = {}): Promise<{ graph: EmbeddedGraph; sim: SimLaunchedNode }> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const factory = createSimNode({ loadScenario: () => fastScenario("default", 64) });
  const sim = (await factory(graph, { name: "sim", namespace: "/", parameterOverrides: { mode: "lockstep", seed, use_sim_time: true, ...params }, remappings: {} })) as SimLaunchedNode;
  return { graph, sim };
}

function record<T>(graph: EmbeddedGraph, topic: string, type: string): T[] {
  const out: T[] = [];
  graph.createNode(`rec_${topic.replace(/\W/g, "_")}`).createSubscription<T>(type, topic, { qos: RECORD_QOS }, (m) => out.push(m));
  return out;
}

function run(graph: EmbeddedGraph, sim: SimLaunchedNode, seconds: number): void {
  const n = Math.round(seconds / sim.controller.tick_s);
  for (let i = 0; i < n; i++) {
    sim.controller.tick();
    graph.spinUntilIdle();
  }
}

/** Sim time behind wall time after about 0.5 s of real-time mode in which a subscriber blocks the event loop for 25 ms at every 20th /clock. */
async function lagWithBlockedLoop(catchUp_s: number): Promise<number> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const factory = createSimNode({ loadScenario: () => fastScenario("default", 64) });
  const sim = (await factory(graph, { name: "sim", namespace: "/", parameterOverrides: { mode: "realtime", image_width: 32, image_height: 32, realtime_catch_up_s: catchUp_s }, remappings: {} })) as SimLaunchedNode;
  let first: { wall: number; sim: number } | undefined;
  let lag = 0;
  let count = 0;
  await new Promise<void>((resolve) => {
    graph.createNode("listener").createSubscription<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock", { qos: RECORD_QOS }, (m) => {
      const t = m.clock.sec + m.clock.nanosec / 1e9;
      const wall = performance.now() / 1000;
      first ??= { wall, sim: t };
      lag = wall - first.wall - (t - first.sim);
      if (++count % 20 === 0) while (performance.now() / 1000 - wall < 0.025); // a busy event loop, e.g. a long render
      if (wall - first.wall > 0.5) resolve();
    });
    graph.spin();
  });
  graph.stop();
  await sim.stop();
  await graph.shutdown();
  return lag;
}

describe("sim node", () => {
  it("advertises the contract's topics with their types and QoS", async () => {
    const { graph, sim } = await rig();
    const topics = new Map(graph.topicNamesAndTypes().map((t) => [t.name, t.types]));
    // Expected values from SPEC.md "Topic contract" (+ /sim/ground_truth, the custom GroundTruth).
    const expected: Array<[string, string, QoSProfile]> = [
      ["/camera/image_raw", "sensor_msgs/msg/Image", QOS_SENSOR_DATA],
      ["/camera/camera_info", "sensor_msgs/msg/CameraInfo", QOS_SENSOR_DATA],
      ["/imu/data", "sensor_msgs/msg/Imu", QOS_SENSOR_DATA],
      ["/gps/fix", "sensor_msgs/msg/NavSatFix", QOS_SENSOR_DATA],
      ["/gps/vel", "geometry_msgs/msg/TwistStamped", QOS_SENSOR_DATA],
      ["/clock", "rosgraph_msgs/msg/Clock", QOS_DEFAULT],
      ["/goal", "geographic_msgs/msg/GeoPoseStamped", { ...QOS_TRANSIENT_LOCAL, depth: 1 }],
      ["/sim/ground_truth", "drone_harness_msgs/msg/GroundTruth", QOS_DEFAULT],
      ["/cmd_vel", "geometry_msgs/msg/TwistStamped", QOS_DEFAULT],
    ];
    expect(SIM_TOPICS.map((t) => [t.topic, t.type])).toEqual(expected.map(([a, b]) => [a, b]));
    for (const [topic, type, qos] of expected) {
      expect(topics.get(topic)).toEqual([type]);
      const info = graph.topicInfo(topic);
      const endpoint = topic === "/cmd_vel" ? info.subscriptions[0] : info.publishers[0];
      expect(endpoint?.qos.reliability).toBe(qos.reliability);
    }
    await sim.stop();
    await graph.shutdown();
  });

  it("publishes at the sensor rates with the contract's frame ids and a 256x256 rgb8 image", async () => {
    const { graph, sim } = await rig();
    const images = record<{ header: { frame_id: string; stamp: { sec: number; nanosec: number } }; encoding: string; width: number; height: number; step: number; data: Uint8Array }>(graph, "/camera/image_raw", "sensor_msgs/msg/Image");
    const infos = record<{ header: { frame_id: string }; k: ArrayLike<number> }>(graph, "/camera/camera_info", "sensor_msgs/msg/CameraInfo");
    const imus = record<{ header: { frame_id: string }; linear_acceleration: { z: number } }>(graph, "/imu/data", "sensor_msgs/msg/Imu");
    const fixes = record<{ header: { frame_id: string } }>(graph, "/gps/fix", "sensor_msgs/msg/NavSatFix");
    const vels = record<{ header: { frame_id: string } }>(graph, "/gps/vel", "geometry_msgs/msg/TwistStamped");
    const clocks = record<{ clock: { sec: number; nanosec: number } }>(graph, "/clock", "rosgraph_msgs/msg/Clock");
    const truths = record<{ width: number; height: number; mask: ArrayLike<number>; header: { stamp: { sec: number; nanosec: number } } }>(graph, "/sim/ground_truth", "drone_harness_msgs/msg/GroundTruth");
    run(graph, sim, 1);
    expect(imus).toHaveLength(200);
    expect(clocks).toHaveLength(200);
    expect(images).toHaveLength(30);
    expect(infos).toHaveLength(30);
    expect(truths).toHaveLength(30);
    expect(fixes).toHaveLength(10);
    expect(vels).toHaveLength(10);
    const img = images[0]!;
    expect([img.width, img.height, img.encoding, img.step, img.data.length]).toEqual([256, 256, "rgb8", 768, 256 * 256 * 3]);
    expect(img.header.frame_id).toBe("camera_optical_frame");
    expect(infos[0]!.header.frame_id).toBe("camera_optical_frame");
    // fx = (W / 2) / tan(hfov / 2) = 128 for 256 px and 90 deg; principal point (W - 1) / 2.
    Array.from(infos[0]!.k).forEach((v, i) => expect(v).toBeCloseTo([128, 0, 127.5, 0, 128, 127.5, 0, 0, 1][i]!, 9));
    expect(imus[0]!.header.frame_id).toBe("imu_link");
    expect(fixes[0]!.header.frame_id).toBe("gps_link");
    expect(vels[0]!.header.frame_id).toBe("gps_link");
    expect(truths[0]!.header.stamp).toEqual(img.header.stamp);
    expect(truths[0]!.mask.length).toBe(256 * 256);
    // Hovering: the accelerometer reads about +g.
    expect(imus[100]!.linear_acceleration.z).toBeGreaterThan(9.3);
    expect(clocks[199]!.clock).toEqual({ sec: 1, nanosec: 0 });
    await sim.stop();
    await graph.shutdown();
  });
});

describe("sim node: commands, determinism and real-time mode", () => {
  it("follows cmd_vel (body FLU) and hovers when commands stop", async () => {
    const { graph, sim } = await rig(3, { image_width: 32, image_height: 32 });
    const drone = sim.controller.sim.drone;
    const y0 = drone.position[1]!; // the start faces north (+y)
    const pub = graph.createNode("pilot").createPublisher<{ header: { stamp: { sec: number; nanosec: number }; frame_id: string }; twist: { linear: { x: number; y: number; z: number }; angular: { x: number; y: number; z: number } } }>("geometry_msgs/msg/TwistStamped", "/cmd_vel", { qos: QOS_DEFAULT });
    for (let k = 0; k < 20; k++) {
      pub.publish({ header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "base_link" }, twist: { linear: { x: 3, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
      graph.spinUntilIdle();
      run(graph, sim, 0.1);
    }
    expect(drone.position[1]! - y0).toBeGreaterThan(4);
    expect(drone.velocity[1]!).toBeCloseTo(3, 0);
    run(graph, sim, 3); // no more commands: after cmd_timeout_s the drone stops
    expect(Math.hypot(drone.velocity[0]!, drone.velocity[1]!)).toBeLessThan(0.5);
    pub.publish({ header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "base_link" }, twist: { linear: { x: NaN, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
    graph.spinUntilIdle();
    expect(sim.controller.droppedCommands).toBe(1);
    await sim.stop();
    await graph.shutdown();
  });

  it("is deterministic in lock-step: same seed, same image bytes", async () => {
    const hashes: string[] = [];
    for (let r = 0; r < 2; r++) {
      const { graph, sim } = await rig(5);
      const images = record<{ data: Uint8Array }>(graph, "/camera/image_raw", "sensor_msgs/msg/Image");
      run(graph, sim, 0.2);
      const h = createHash("sha256");
      for (const m of images) h.update(m.data);
      hashes.push(h.digest("hex"));
      await sim.stop();
      await graph.shutdown();
    }
    expect(hashes[0]).toBe(hashes[1]);
  });

  it("keeps sim time to wall time in real-time mode when the event loop is busy at times (late ticks caught up)", async () => {
    // Every block makes 5 ticks (25 ms) late: with no catch-up they are lost, about 0.1 s over
    // the run; caught up, the sim is behind by at most the last callback's latency.
    const skipped = await lagWithBlockedLoop(0);
    const caughtUp = await lagWithBlockedLoop(0.1);
    expect(skipped).toBeGreaterThan(0.05);
    expect(caughtUp).toBeLessThan(skipped / 2);
    expect(caughtUp).toBeLessThan(0.04);
  });

  it("runs by itself in real-time mode, publishing /clock on the wall-clock tick", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const factory = createSimNode({ loadScenario: () => fastScenario("default", 64) });
    const sim = (await factory(graph, { name: "sim", namespace: "/", parameterOverrides: { mode: "realtime", image_width: 32, image_height: 32 }, remappings: {} })) as SimLaunchedNode;
    const stamps: number[] = [];
    // Wait on the 40th /clock message (a signal, not a sleep); jest's timeout bounds the wait.
    await new Promise<void>((resolve) => {
      graph.createNode("listener").createSubscription<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock", { qos: RECORD_QOS }, (m) => {
        stamps.push(m.clock.sec + m.clock.nanosec / 1e9);
        if (stamps.length === 40) resolve();
      });
      graph.spin();
    });
    graph.stop();
    expect(sim.controller.mode).toBe("realtime");
    // Consecutive ticks 5 ms of sim time apart (imu_rate_hz 200).
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]! - stamps[i - 1]!).toBeCloseTo(0.005, 9);
    await sim.stop();
    await graph.shutdown();
  });
});
