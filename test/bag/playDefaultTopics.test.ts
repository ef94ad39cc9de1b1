/**
 * What `bag play` feeds into running nodes by default (issue 16 item 12). A bag recorded from a
 * launch holds the sensor input (/imu/data), the node's output (/cmd_vel), the recorded /clock and
 * another arm's output (/off/cmd_vel). Played into a launch whose controller publishes /cmd_vel,
 * the default plays the input only and says what it leaves out, so the live nodes see each
 * /cmd_vel once and one clock; `--all-topics` plays everything (rosbag2's behaviour). `--launch`
 * and a running launch select the same topics.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BagWriter } from "../../src/bag/BagWriter";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { encodeClock } from "../../src/bag/playBag";
import { runBagPlay } from "../../src/cli/commands/bag";
import type { EmbeddedGraph } from "../../src/ros/graph";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { defaultRegistry } from "../../src/ros/msgs";
import { startRunningLaunch } from "./runningLaunch";
import { startController } from "./standInController";

const N = 20;
const TOPICS = ["/imu/data", "/cmd_vel", "/clock", "/off/cmd_vel"] as const;
type Counts = Record<(typeof TOPICS)[number], number>;

/** The stand-in controller (wall clock) plus a raw counter of every topic of the bag, in the same graph. */
function controllerRegistry(counts: Counts): NodeRegistry {
  return {
    controller: async (graph) => {
      const node = startController(graph, 2, false, {});
      const qos = { history: "keep_last", depth: 1000, reliability: "best_effort", durability: "volatile" } as const;
      const subs = TOPICS.map((t) => (graph as EmbeddedGraph).subscribeRaw(t, () => counts[t]++, { qos }));
      return { node, stop: async () => (subs.forEach((s) => s.destroy()), node.destroy()) };
    },
  };
}

const zero = (): Counts => ({ "/imu/data": 0, "/cmd_vel": 0, "/clock": 0, "/off/cmd_vel": 0 });

describe("bag play's default topics", () => {
  let dir = "";
  const bag = (): string => path.join(dir, "flight");
  const launchFile = (): string => path.join(dir, "controller.launch.xml");
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bag-play-default-"));
    writeFileSync(launchFile(), `<launch>\n  <node pkg="drone_harness" exec="controller" name="controller"/>\n</launch>\n`);
    const msgs = defaultRegistry();
    const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: bag() });
    const types: Record<string, string> = { "/imu/data": "sensor_msgs/msg/Imu", "/cmd_vel": "geometry_msgs/msg/TwistStamped", "/clock": "rosgraph_msgs/msg/Clock", "/off/cmd_vel": "geometry_msgs/msg/TwistStamped" };
    for (const t of TOPICS) await w.addTopic({ topic: t, type: types[t]!, schemaText: msgs.ros2msgText(types[t]!), offeredQosProfiles: "" });
    for (let i = 0; i < N; i++) {
      const t = 1_000_000_000n + BigInt(i) * 10_000_000n;
      await w.write("/clock", t, encodeClock(t));
      await w.write("/imu/data", t, msgs.serialize("sensor_msgs/msg/Imu", msgs.defaultMessage("sensor_msgs/msg/Imu")));
      for (const out of ["/cmd_vel", "/off/cmd_vel"]) await w.write(out, t + 1n, msgs.serialize("geometry_msgs/msg/TwistStamped", msgs.defaultMessage("geometry_msgs/msg/TwistStamped")));
    }
    await w.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function play(mode: "launch" | "socket", extra: string[]): Promise<{ code: number; counts: Counts; err: string }> {
    const counts = zero();
    const err: string[] = [];
    const io = { out: () => undefined, err: (t: string) => err.push(t) };
    let code: number;
    if (mode === "launch") {
      code = await runBagPlay([bag(), "--launch", launchFile(), "--rate", "1", ...extra], io, { registry: () => controllerRegistry(counts), packageRoot: path.resolve(__dirname, "../..") });
    } else {
      const launch = await startRunningLaunch(launchFile(), controllerRegistry(counts), path.join(dir, "sockets"));
      try {
        code = await runBagPlay([bag(), "--socket", launch.socketPath, "--rate", "1", ...extra], io, { registry: () => ({}) });
        // Every played IMU message gets its live /cmd_vel: wait for the last one to be delivered.
        await new Promise<void>((resolve) => {
          const check = (): void => (counts["/imu/data"] >= N && counts["/cmd_vel"] >= N ? resolve() : void setImmediate(check));
          check();
        });
      } finally {
        await launch.stop();
      }
    }
    return { code, counts, err: err.join("") };
  }

  it.each(["launch", "socket"] as const)("default (%s): only the input plays, each live /cmd_vel once, no recorded clock; what is left out is said", async (mode) => {
    const r = await play(mode, []);
    expect(r.code).toBe(0);
    expect(r.counts).toEqual({ "/imu/data": N, "/cmd_vel": N, "/clock": 0, "/off/cmd_vel": 0 });
    expect(r.err).toContain("bag play: playing 1 of 4 recorded topics: /imu/data\n");
    expect(r.err).toContain("bag play: not playing /cmd_vel: node outputs (published live by the running nodes)\n");
    expect(r.err).toContain("bag play: not playing /clock: the recorded clock (the nodes would see two clocks");
    expect(r.err).toContain("bag play: not playing /off/cmd_vel: not a sensor input (the bag holds node outputs");
    expect(r.err).toContain("--all-topics plays every recorded topic");
  });

  it("--all-topics plays everything, the recorded outputs and clock included (as rosbag2 does)", async () => {
    const r = await play("launch", ["--all-topics"]);
    expect(r.code).toBe(0);
    expect(r.counts).toEqual({ "/imu/data": N, "/cmd_vel": 2 * N, "/clock": N, "/off/cmd_vel": N });
    expect(r.err).toContain("bag play: playing 4 of 4 recorded topics");
  });
});
