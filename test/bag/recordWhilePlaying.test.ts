/**
 * `bag record -a` started on a fresh launch before `bag play` (issue 16 item 11): the played
 * sensor topics exist in the launch with subscribers only (the nodes listen, nobody publishes yet)
 * and must be recorded once the player publishes them, with the sensor QoS (best effort) the bag
 * offers; `--duration` ends the recording normally while the launch runs on.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../../src/bag/offeredQosProfiles";
import { runBagPlay } from "../../src/cli/commands/bag";
import { main } from "../../src/cli/main";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { defaultRegistry } from "../../src/ros/msgs";
import { startRunningLaunch } from "./runningLaunch";

const LAUNCH = `<launch>
  <node pkg="drone_harness" exec="listener" name="listener"/>
</launch>
`;
const N = 60;
const T0 = 1_700_000_000_000_000_000n;

/** A node that subscribes /imu/data with sensor QoS (best effort) and /chatter reliably, as the nodes do. */
const registry = (heard: { imu: number }): NodeRegistry => ({
  listener: async (graph, o) => {
    const node = graph.createNode(o.name, { parameterOverrides: o.parameterOverrides });
    node.createSubscription("sensor_msgs/msg/Imu", "/imu/data", { qos: { ...QOS_SENSOR_DATA, depth: 100 } }, () => heard.imu++);
    node.createSubscription("std_msgs/msg/String", "/chatter", { qos: QOS_DEFAULT }, () => undefined);
    return { node, stop: async () => node.destroy() };
  },
});

describe("bag record -a before bag play on a fresh launch", () => {
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bag-record-play-"));
    writeFileSync(path.join(dir, "listen.launch.xml"), LAUNCH);
    const msgs = defaultRegistry();
    const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: path.join(dir, "input") });
    await w.addTopic({ topic: "/imu/data", type: "sensor_msgs/msg/Imu", schemaText: msgs.ros2msgText("sensor_msgs/msg/Imu"), offeredQosProfiles: offeredQosProfilesYaml([QOS_SENSOR_DATA]) });
    await w.addTopic({ topic: "/chatter", type: "std_msgs/msg/String", schemaText: msgs.ros2msgText("std_msgs/msg/String"), offeredQosProfiles: offeredQosProfilesYaml([QOS_DEFAULT]) });
    for (let i = 0; i < N; i++) {
      await w.write("/imu/data", T0 + BigInt(i) * 5_000_000n, msgs.serialize("sensor_msgs/msg/Imu", msgs.defaultMessage("sensor_msgs/msg/Imu")));
      await w.write("/chatter", T0 + BigInt(i) * 5_000_000n + 1n, msgs.serialize("std_msgs/msg/String", { data: `c${i}` }));
    }
    await w.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("records every played message of the subscriber-only topics; --duration ends without '(the launch went away)'", async () => {
    const heard = { imu: 0 };
    const launch = await startRunningLaunch(path.join(dir, "listen.launch.xml"), registry(heard), path.join(dir, "sockets"));
    try {
      // The topics exist (the listener subscribes) before anything publishes them.
      expect(launch.graph.topicInfo("/imu/data").publishers).toEqual([]);
      expect(launch.graph.topicInfo("/imu/data").subscriptions.length).toBe(1);
      const recOut: string[] = [];
      const recErr: string[] = [];
      let recording: () => void = () => undefined;
      const started = new Promise<void>((r) => (recording = r));
      const out = path.join(dir, "recorded");
      const rec = main(["bag", "record", "-o", out, "-a", "--socket", launch.socketPath, "--duration", "1.5"], {
        out: (t) => {
          recOut.push(t);
          if (t.startsWith("recording")) recording();
        },
        err: (t) => recErr.push(t),
      });
      await started;
      const played = await runBagPlay([path.join(dir, "input"), "--socket", launch.socketPath, "--rate", "5"], { out: () => undefined, err: () => undefined }, { registry: () => ({}) });
      expect(played).toBe(0);
      expect(await rec).toBe(0);
      expect(recErr.join("")).toBe("");
      expect(recOut.join("")).toMatch(/wrote \d+ messages on \d+ topics/);
      expect(recOut.join("")).not.toContain("the launch went away");
      expect(heard.imu).toBe(N);
      const counts = new Map<string, number>();
      for await (const m of (await Bag.open(new NodeBagFileSystem(), out)).messages()) counts.set(m.topic, (counts.get(m.topic) ?? 0) + 1);
      expect(counts.get("/imu/data")).toBe(N);
      expect(counts.get("/chatter")).toBe(N);
    } finally {
      expect(await launch.stop()).toBe(0);
    }
  });
});
