import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { runBagPlay } from "../../src/cli/commands/bag";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { recordGolden } from "./standInController";

const LAUNCH = `<launch>
  <arg name="use_sim_time" default="false"/>
  <node pkg="drone_harness" exec="listener" name="listener">
    <param name="use_sim_time" value="$(var use_sim_time)"/>
  </node>
</launch>
`;

type Seen = { imu: number; clockNs: bigint[]; simTime: boolean };

/** A listener node that counts /imu/data and keeps the /clock values it sees. */
function registry(seen: Seen): NodeRegistry {
  return {
    listener: async (graph, o) => {
      const node = graph.createNode(o.name, { parameterOverrides: o.parameterOverrides });
      seen.simTime = node.getClock().isSimTime;
      // Deep enough for all 50: a player that falls behind on a loaded machine catches up in a
      // burst (absolute deadlines), which a depth-10 queue would partly drop (keep_last).
      node.createSubscription("sensor_msgs/msg/Imu", "/imu/data", { qos: { history: "keep_last", depth: 100, reliability: "reliable", durability: "volatile" } }, () => seen.imu++);
      // The same for /clock (one tick before every message plus the 200 Hz ticks): with the default
      // depth the count below failed under load when the burst overflowed the queue.
      node.createSubscription<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock", { qos: { history: "keep_last", depth: 1000, reliability: "reliable", durability: "volatile" } }, (m) =>
        seen.clockNs.push(BigInt(m.clock.sec) * 1_000_000_000n + BigInt(m.clock.nanosec)),
      );
      return { node, stop: async () => undefined };
    },
  };
}

describe("drone-harness bag play --launch", () => {
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bagplay-"));
    writeFileSync(path.join(dir, "listen.launch.xml"), LAUNCH);
    // 50 IMU messages 10 ms apart (0.49 s of bag time) and the stand-in's 50 /cmd_vel outputs
    await recordGolden(new NodeBagFileSystem(), path.join(dir, "flight"), 0.5);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("plays the chosen topics at the rate into the launched nodes, with /clock on sim time", async () => {
    const seen: Seen = { imu: 0, clockNs: [], simTime: false };
    const out: string[] = [];
    const err: string[] = [];
    const t0 = performance.now();
    const code = await runBagPlay(
      [path.join(dir, "flight"), "--launch", path.join(dir, "listen.launch.xml"), "--rate", "20", "--topics", "/imu/data", "--clock", "200"],
      { out: (t) => out.push(t), err: (t) => err.push(t) },
      { registry: () => registry(seen), packageRoot: path.resolve(__dirname, "../..") },
    );
    const elapsedMs = performance.now() - t0;
    expect(code).toBe(0);
    expect(out.join("")).toMatch(/^played 50 messages and \d+ \/clock ticks from .* into 1 nodes \(rate 20\)/);
    expect(seen.simTime).toBe(true);
    expect(seen.imu).toBe(50);
    // the last message is due 0.49 s / 20 = 24.5 ms after the start (absolute deadlines: never earlier)
    expect(elapsedMs).toBeGreaterThanOrEqual(24);
    for (let i = 1; i < seen.clockNs.length; i++) expect(seen.clockNs[i]! >= seen.clockNs[i - 1]!).toBe(true);
    expect(seen.clockNs.length).toBeGreaterThanOrEqual(50);
  });
});
