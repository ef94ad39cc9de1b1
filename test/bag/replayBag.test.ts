import { Bag } from "../../src/bag/BagReader";
import { formatDifferences } from "../../src/bag/compareMessageStreams";
import { replayBag } from "../../src/bag/replayBag";
import { EmbeddedGraph } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";
import { recordGolden, startController } from "./standInController";

const registry = defaultRegistry();

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
