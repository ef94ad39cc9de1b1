import { Bag } from "../../src/bag/BagReader";
import { BagRecorder, type RawTopicSource } from "../../src/bag/BagRecorder";
import { BagWriter } from "../../src/bag/BagWriter";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import type { PlayClock } from "../../src/bag/PlayScheduler";
import { encodeClock, playBag } from "../../src/bag/playBag";
import { EmbeddedGraph } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";
import { TALKER_MCAP, TALKER_SQLITE3 } from "./fixtures";

class SimClock implements PlayClock {
  now = 0n;
  nowNs(): bigint {
    return this.now;
  }
  async sleepUntilNs(t: bigint): Promise<void> {
    if (t > this.now) this.now = t;
  }
}

function graphSource(graph: EmbeddedGraph): RawTopicSource {
  return {
    listTopics: async () => graph.topicNamesAndTypes(),
    subscribeRaw: async (topic, cb) => {
      const sub = graph.subscribeRaw(topic, (bytes, typeName, receiveTimeNs) => cb({ bytes, typeName, receiveTimeNs }));
      return { unsubscribe: async () => sub.destroy() };
    },
  };
}

describe("playBag into the embedded graph", () => {
  it.each([
    ["mcap", TALKER_MCAP],
    ["sqlite3", TALKER_SQLITE3],
  ])("typed subscribers receive the talker bag (%s) in order at the recorded pace, with /clock", async (_s, dir) => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const node = graph.createNode("listener");
    const clock = new SimClock();
    const got: [string, bigint][] = [];
    const clockSeen: bigint[] = [];
    node.createSubscription<{ data: string }>("std_msgs/msg/String", "/topic", {}, (m) => got.push([m.data, clock.now]));
    node.createSubscription<{ clock: { sec: number; nanosec: number } }>("rosgraph_msgs/msg/Clock", "/clock", {}, (m) =>
      clockSeen.push(BigInt(m.clock.sec) * 1_000_000_000n + BigInt(m.clock.nanosec)),
    );
    const bag = await Bag.open(new NodeBagFileSystem(), dir);
    const target = {
      publishRaw: (...args: Parameters<EmbeddedGraph["publishRaw"]>) => {
        graph.publishRaw(...args);
        graph.spinUntilIdle();
      },
    };
    const res = await playBag(bag, target, clock, { rate: 4, clockPeriodNs: 100_000_000n });
    expect(res.published).toBe(20);
    expect(got.map((g) => g[0])).toEqual(Array.from({ length: 10 }, (_, i) => `Hello, world! ${i}`));
    // pace: /topic messages are ~0.5 s apart in the bag -> ~125 ms at rate 4 (bag times / 4 exactly on sim time)
    const times: bigint[] = [];
    for await (const m of bag.messages({ topics: ["/topic"] })) times.push(m.logTimeNs);
    const start = bag.metadata!.startingTimeNs;
    got.forEach(([, wall], i) => expect(Math.abs(Number(wall) - Number(times[i]! - start) / 4)).toBeLessThanOrEqual(1));
    expect(clockSeen.length).toBeGreaterThan(20);
    for (let i = 1; i < clockSeen.length; i++) expect(clockSeen[i]! >= clockSeen[i - 1]!).toBe(true);
    await graph.shutdown();
  });

  it("encodes rosgraph_msgs/Clock exactly as the registry does", () => {
    const t = 1_585_866_235_112_411_371n;
    const ours = encodeClock(t);
    const reg = defaultRegistry().serialize("rosgraph_msgs/msg/Clock", { clock: { sec: 1_585_866_235, nanosec: 112_411_371 } });
    expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(reg).toString("hex"));
  });
});

describe("BagRecorder on the embedded graph", () => {
  it("records every topic (-a), including one that appears later, and reads back the same values", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const node = graph.createNode("talker");
    const chatter = node.createPublisher<{ data: string }>("std_msgs/msg/String", "/chatter");
    const fs = new MemoryBagFileSystem();
    const writer = await BagWriter.create({ fs, directory: "/rec/flight" });
    const registry = defaultRegistry();
    const problems: string[] = [];
    const recorder = new BagRecorder(graphSource(graph), writer, {
      all: true,
      schemaText: (t) => registry.ros2msgText(t),
      onProblem: (p) => problems.push(p),
    });
    await recorder.refresh();
    for (let i = 0; i < 5; i++) {
      chatter.publish({ data: `hi ${i}` });
      graph.spinUntilIdle();
    }
    const vel = node.createPublisher("geometry_msgs/msg/TwistStamped", "/cmd_vel");
    await recorder.refresh();
    vel.publish({ header: { stamp: { sec: 3, nanosec: 4 }, frame_id: "base_link" }, twist: { linear: { x: 1.5, y: 0, z: -0.25 }, angular: { x: 0, y: 0, z: 0.1 } } });
    graph.spinUntilIdle();
    const md = await recorder.stop();
    expect(problems).toEqual([]);
    expect(md.messageCount).toBe(6);
    const counts = Object.fromEntries(md.topics.map((t) => [t.name, t.messageCount]));
    expect(counts["/chatter"]).toBe(5);
    expect(counts["/cmd_vel"]).toBe(1);
    const dec = new MessageDecoder();
    const values: unknown[] = [];
    for await (const m of (await Bag.open(fs, "/rec/flight")).messages({ topics: ["/chatter", "/cmd_vel"] })) values.push(dec.decode(m.channel, m.data));
    expect(values.slice(0, 5)).toEqual([0, 1, 2, 3, 4].map((i) => ({ data: `hi ${i}` })));
    expect(values[5]).toMatchObject({ header: { frame_id: "base_link" }, twist: { linear: { x: 1.5, z: -0.25 } } });
    await graph.shutdown();
  });
});
