/**
 * `bag play <bag>` without --launch: a launch runs in this process (runLaunch with its
 * introspection socket, as `drone-harness launch` does) with a listener node on sim time, and
 * `bag play` publishes into it over the socket.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { BagWriter } from "../../src/bag/BagWriter";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../../src/bag/offeredQosProfiles";
import { runBagPlay } from "../../src/cli/commands/bag";
import { QOS_DEFAULT } from "../../src/ros/graph";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { defaultRegistry } from "../../src/ros/msgs";
import { startRunningLaunch, type RunningLaunch } from "./runningLaunch";

const LAUNCH = `<launch>
  <node pkg="drone_harness" exec="listener" name="listener">
    <param name="use_sim_time" value="true"/>
  </node>
</launch>
`;
const T0 = 1_700_000_000_000_000_000n;
const STEP = 20_000_000n; // 20 ms between recorded messages
const N = 20;

type Heard = { data: string; simNs: bigint };

/** A listener on sim time that keeps each /chatter message with its node clock's time at delivery. */
function listenerRegistry(heard: Heard[], onMessage: () => void): NodeRegistry {
  return {
    listener: async (graph, o) => {
      const node = graph.createNode(o.name, { parameterOverrides: o.parameterOverrides });
      node.createSubscription<{ data: string }>("std_msgs/msg/String", "/chatter", { qos: { ...QOS_DEFAULT, depth: 1000 } }, (m) => {
        heard.push({ data: m.data, simNs: node.getClock().nowNs() });
        onMessage();
      });
      return { node, stop: async () => node.destroy() };
    },
  };
}

/** Starts the launch; resolves with its socket path and a function that stops it. */
function startLaunch(dir: string, registry: NodeRegistry): Promise<RunningLaunch> {
  return startRunningLaunch(path.join(dir, "listen.launch.xml"), registry, path.join(dir, "sockets"));
}

describe("drone-harness bag play into a running launch (introspection socket)", () => {
  let dir = "";
  const registry = defaultRegistry();
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bagplay-ipc-"));
    writeFileSync(path.join(dir, "listen.launch.xml"), LAUNCH);
    const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: path.join(dir, "flight") });
    for (const topic of ["/chatter", "/other"]) {
      await w.addTopic({ topic, type: "std_msgs/msg/String", schemaText: registry.ros2msgText("std_msgs/msg/String"), offeredQosProfiles: offeredQosProfilesYaml([{ ...QOS_DEFAULT, depth: 50 }]) });
    }
    for (let i = 0; i < N; i++) {
      const t = T0 + BigInt(i) * STEP;
      await w.write("/chatter", t, registry.serialize("std_msgs/msg/String", { data: `m${i}` }));
      await w.write("/other", t + 1n, registry.serialize("std_msgs/msg/String", { data: `o${i}` }));
    }
    await w.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("delivers the chosen topic in order, each message at its recorded time on sim time, at the rate", async () => {
    const heard: Heard[] = [];
    const launch = await startLaunch(dir, listenerRegistry(heard, () => undefined));
    try {
      const out: string[] = [];
      const t0 = performance.now();
      const code = await runBagPlay(
        [path.join(dir, "flight"), "--socket", launch.socketPath, "--rate", "5", "--clock", "100", "--topics", "/chatter"],
        { out: (t) => out.push(t), err: (t) => out.push(t) },
        { registry: () => ({}) },
      );
      const elapsedMs = performance.now() - t0;
      expect(code).toBe(0);
      expect(out.join("")).toMatch(new RegExp(`^played ${N} messages and \\d+ /clock ticks from .* into the launch at .*launch-\\d+\\.sock \\(rate 5\\)`));
      // The bag plays to its end before runBagPlay returns and every publish is acknowledged
      // after the launch queued it; the launch delivers on its next turns.
      await new Promise<void>((resolve) => {
        const check = (): void => (heard.length >= N ? resolve() : void setImmediate(check));
        check();
      });
      expect(heard.map((h) => h.data)).toEqual(Array.from({ length: N }, (_, i) => `m${i}`));
      // /clock goes out just before each message with the message's log time, so the listener's
      // sim time at delivery is exactly the recorded time (rosbag2 --clock semantics).
      expect(heard.map((h) => h.simNs)).toEqual(Array.from({ length: N }, (_, i) => T0 + BigInt(i) * STEP));
      // Absolute deadlines: the last message is due 19 * 20 ms / 5 = 76 ms after the first.
      expect(elapsedMs).toBeGreaterThanOrEqual(76);
      // Published with the QoS the bag's recorder offered (depth 50), as rosbag2's player does.
      expect(launch.graph.topicInfo("/chatter").publishers).toEqual([{ node: "/_embedded_raw", qos: { ...QOS_DEFAULT, depth: 50 } }]);
    } finally {
      expect(await launch.stop()).toBe(0);
    }
  });

  it("honours --start-offset and --loop, and stops on the stop signal", async () => {
    const heard: Heard[] = [];
    const stop = new AbortController();
    const launch = await startLaunch(
      dir,
      listenerRegistry(heard, () => {
        if (heard.length === 15) stop.abort();
      }),
    );
    try {
      const code = await runBagPlay(
        [path.join(dir, "flight"), "--socket", launch.socketPath, "--rate", "20", "--topics", "/chatter", "--start-offset", "0.2", "--loop"],
        { out: () => undefined, err: () => undefined },
        { registry: () => ({}), stop: stop.signal },
      );
      expect(code).toBe(0);
      // 0.2 s skips m0..m9 (m10 is recorded exactly at +0.2 s); the loop restarts at the offset.
      const expected = [...Array.from({ length: 10 }, (_, i) => `m${i + 10}`), ...Array.from({ length: 5 }, (_, i) => `m${i + 10}`)];
      expect(heard.slice(0, 15).map((h) => h.data)).toEqual(expected);
    } finally {
      await launch.stop();
    }
  });

  it("without a running launch exits 1 and names the directory it searched", async () => {
    const err: string[] = [];
    const empty = path.join(dir, "no-sockets");
    const code = await runBagPlay([path.join(dir, "flight")], { out: () => undefined, err: (t) => err.push(t) }, { registry: () => ({}), socketDir: empty });
    expect(code).toBe(1);
    expect(err.join("")).toContain(`no running drone-harness launch found (looked in ${empty})`);
  });

  it("refuses launch arguments without --launch", async () => {
    await expect(runBagPlay([path.join(dir, "flight"), "x:=1"], { out: () => undefined, err: () => undefined }, { registry: () => ({}) })).rejects.toThrow(
      "launch arguments (x:=...) need --launch <file>",
    );
  });
});
