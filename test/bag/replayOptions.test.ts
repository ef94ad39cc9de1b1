/**
 * replayBag's `batchByLogTime` and `expectedTopics` options, with a stand-in node whose timer
 * output depends on how many messages of the current instant it has seen: the situation of the
 * safety node in test/bag/goldenPipeline.test.ts (its 50 ms watchdog timer and the GPS fix that
 * arrives in the same simulator tick).
 */
import { Bag } from "../../src/bag/BagReader";
import type { BagFileSystem } from "../../src/bag/BagStorage";
import { BagWriter } from "../../src/bag/BagWriter";
import { formatDifferences } from "../../src/bag/compareMessageStreams";
import { encodeClock } from "../../src/bag/playBag";
import { replayBag } from "../../src/bag/replayBag";
import { EmbeddedGraph } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";

const registry = defaultRegistry();
const STRING = "std_msgs/msg/String";
const INT32 = "std_msgs/msg/Int32";
const CLOCK = "rosgraph_msgs/msg/Clock";
const TICK_NS = 10_000_000n;
const TICKS = 12;

/** Counts /in messages; every 20 ms of sim time its timer publishes the count on /count. */
function startCounter(graph: EmbeddedGraph): void {
  const node = graph.createNode("counter", { parameterOverrides: { use_sim_time: true } });
  let count = 0;
  node.createSubscription<{ data: string }>(STRING, "/in", { qos: { history: "keep_last", depth: 10, reliability: "reliable", durability: "volatile" } }, () => count++);
  const pub = node.createPublisher<{ data: number }>(INT32, "/count");
  node.createTimer(2n * TICK_NS, () => pub.publish({ data: count }));
}

/**
 * A lock-step "simulator": per tick /clock and two /in messages published together, then one
 * spin; the inputs and the /count outputs are written with the tick's time (outputs on `outputTopic`).
 */
async function record(fs: BagFileSystem, dir: string, outputTopic: string): Promise<number[]> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  startCounter(graph);
  const w = await BagWriter.create({ fs, directory: dir });
  for (const [topic, type] of [["/clock", CLOCK], ["/in", STRING], [outputTopic, INT32]] as const) {
    await w.addTopic({ topic, type, schemaText: registry.ros2msgText(type), offeredQosProfiles: "" });
  }
  const counts: number[] = [];
  const outputs: Uint8Array[] = [];
  graph.subscribeRaw("/count", (bytes) => outputs.push(bytes));
  for (let i = 1; i <= TICKS; i++) {
    const t = BigInt(i) * TICK_NS;
    const tick: [string, string, Uint8Array][] = [
      ["/clock", CLOCK, encodeClock(t)],
      ["/in", STRING, registry.serialize(STRING, { data: `${i}a` })],
      ["/in", STRING, registry.serialize(STRING, { data: `${i}b` })],
    ];
    for (const [topic, type, bytes] of tick) graph.publishRaw(topic, type, bytes);
    graph.spinUntilIdle();
    for (const [topic, , bytes] of tick) await w.write(topic, t, bytes);
    for (const bytes of outputs.splice(0)) {
      counts.push(registry.deserialize<{ data: number }>(INT32, bytes).data);
      await w.write(outputTopic, t, bytes);
    }
  }
  await w.close();
  await graph.shutdown();
  return counts;
}

async function replay(fs: BagFileSystem, dir: string, options: { batchByLogTime: boolean; expectedTopics?: Record<string, string> }) {
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  startCounter(graph);
  try {
    return await replayBag(await Bag.open(fs, dir), graph, {
      compareTopics: ["/count"],
      publishClock: false,
      absTolerance: 0,
      decode: (type, bytes) => registry.deserialize(type, bytes),
      ...options,
    });
  } finally {
    await graph.shutdown();
  }
}

describe("replayBag options", () => {
  it("the recording's timer saw every message up to and including its own tick", async () => {
    const counts = await record(new MemoryBagFileSystem(), "/b", "/count");
    expect(counts).toEqual([4, 8, 12, 16, 20, 24]);
  });

  it("batchByLogTime: one settle per log time reproduces a lock-step recording exactly", async () => {
    const fs = new MemoryBagFileSystem();
    await record(fs, "/b", "/count");
    const r = await replay(fs, "/b", { batchByLogTime: true });
    if (!r.equal) throw new Error(formatDifferences(r));
    expect(r.played).toBe(3 * TICKS);
    expect(r.counts.get("/count")).toEqual({ expected: 6, actual: 6 });
  });

  it("without it, the timer runs after the tick's /clock and before its messages and the replay differs", async () => {
    const fs = new MemoryBagFileSystem();
    await record(fs, "/b", "/count");
    const r = await replay(fs, "/b", { batchByLogTime: false });
    expect(r.equal).toBe(false);
    expect(r.differences[0]).toMatchObject({ topic: "/count", index: 0, path: "data", expected: 4, actual: 2 });
  });

  it("expectedTopics: outputs recorded under another name are the expectation and are never played", async () => {
    const fs = new MemoryBagFileSystem();
    await record(fs, "/b", "/arm_b/count");
    const r = await replay(fs, "/b", { batchByLogTime: true, expectedTopics: { "/count": "/arm_b/count" } });
    if (!r.equal) throw new Error(formatDifferences(r));
    expect(r.counts.get("/count")).toEqual({ expected: 6, actual: 6 });
    // Without the mapping the bag has no /count: every replayed message is extra.
    const unmapped = await replay(fs, "/b", { batchByLogTime: true });
    expect(unmapped.counts.get("/count")).toEqual({ expected: 0, actual: 6 });
  });
});
