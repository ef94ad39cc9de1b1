import { Bag } from "../../src/bag/BagReader";
import { compareMessageStreams, formatDifferences, type StreamMessage } from "../../src/bag/compareMessageStreams";
import { expectBagOutputsToMatch } from "./expectBagOutputsToMatch";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { TALKER_MCAP, TALKER_SQLITE3 } from "./fixtures";

function twist(i: number, dx = 0): StreamMessage {
  return {
    topic: "/cmd_vel",
    value: { header: { stamp: { sec: i, nanosec: 0 }, frame_id: "base_link" }, twist: { linear: { x: 1 + i / 10 + dx, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0.1 } } },
  };
}
function dets(i: number, n: number, score = 0.9): StreamMessage {
  return { topic: "/harness/obstacles", value: { detections: Array.from({ length: n }, (_, k) => ({ id: `w${k}`, score, data: new Float32Array([i, k]) })) } };
}

describe("compareMessageStreams", () => {
  it("equal streams (interleaved differently across topics) are equal", async () => {
    const e = [twist(0), dets(0, 2), twist(1), dets(1, 2)];
    const a = [dets(0, 2), twist(0), twist(1), dets(1, 2)];
    const r = await compareMessageStreams(e, a);
    expect(r.equal).toBe(true);
    expect(r.counts.get("/cmd_vel")).toEqual({ expected: 2, actual: 2 });
  });

  it("numbers within the absolute tolerance pass; beyond it the difference names topic, index, path, values", async () => {
    const e = [twist(0), twist(1), twist(2)];
    const within = [twist(0, 5e-4), twist(1, -5e-4), twist(2)];
    expect((await compareMessageStreams(e, within, { absTolerance: 1e-3 })).equal).toBe(true);
    const beyond = [twist(0), twist(1, 0.25), twist(2)];
    const r = await compareMessageStreams(e, beyond, { absTolerance: 1e-3 });
    expect(r.equal).toBe(false);
    expect(r.differences).toEqual([{ kind: "value", topic: "/cmd_vel", index: 1, path: "twist.linear.x", expected: 1.1, actual: 1.35 }]);
    expect(formatDifferences(r)).toContain("/cmd_vel #1 twist.linear.x: expected 1.1, actual 1.35");
  });

  it("relative and per-field tolerances, ignored fields, NaN == NaN", async () => {
    const e = [{ topic: "/x", value: { big: 1000, small: 0.001, stamp: 5, n: NaN } }];
    const a = [{ topic: "/x", value: { big: 1000.5, small: 0.0019, stamp: 99, n: NaN } }];
    expect((await compareMessageStreams(e, a, { relTolerance: 1e-3, fieldTolerance: { small: 1e-3 }, ignoreFields: ["stamp"] })).equal).toBe(true);
    const r = await compareMessageStreams(e, a, { relTolerance: 1e-3, ignoreFields: ["stamp"] });
    expect(r.differences.map((d) => d.path)).toEqual(["small"]);
  });

  it("reports array length, missing fields, typed-array elements, and missing/extra messages", async () => {
    const e = [dets(0, 3), dets(1, 2), dets(2, 1)];
    const a = [dets(0, 2), { topic: "/harness/obstacles", value: { detections: [{ id: "w0", score: 0.9, data: new Float32Array([1, 7]) }, { id: "w1", data: new Float32Array([1, 1]) }] } }];
    const r = await compareMessageStreams(e, a);
    expect(r.differences.map((d) => [d.kind, d.index, d.path])).toEqual([
      ["length", 0, "detections.length"],
      ["value", 1, "detections[0].data[1]"],
      ["missing_field", 1, "detections[1].score"],
      ["missing_message", 2, ""],
    ]);
  });

  it("stops after maxDifferences", async () => {
    const e = Array.from({ length: 50 }, (_, i) => twist(i));
    const a = Array.from({ length: 50 }, (_, i) => twist(i, 1));
    const r = await compareMessageStreams(e, a, { maxDifferences: 3 });
    expect(r.differences).toHaveLength(3);
  });
});

describe("expectBagOutputsToMatch", () => {
  it("passes for the same recording in MCAP and sqlite3 storage (decoded, compared on /topic and /rosout)", async () => {
    const fs = new NodeBagFileSystem();
    const r = await expectBagOutputsToMatch(await Bag.open(fs, TALKER_MCAP), await Bag.open(fs, TALKER_SQLITE3), { topics: ["/topic", "/rosout"] });
    expect(r.counts.get("/topic")).toEqual({ expected: 10, actual: 10 });
  });

  it("throws listing the first difference when outputs differ", async () => {
    const bag = await Bag.open(new NodeBagFileSystem(), TALKER_MCAP);
    const changed: StreamMessage[] = Array.from({ length: 10 }, (_, i) => ({ topic: "/topic", value: { data: i === 4 ? "Hello, moon! 4" : `Hello, world! ${i}` } }));
    await expect(expectBagOutputsToMatch(bag, changed, { topics: ["/topic"] })).rejects.toThrow(
      '/topic #4 data: expected "Hello, world! 4", actual "Hello, moon! 4"',
    );
  });

  it("refuses to pass vacuously when the expected bag has nothing on a topic", async () => {
    const bag = await Bag.open(new NodeBagFileSystem(), TALKER_MCAP);
    await expect(expectBagOutputsToMatch(bag, [], { topics: ["/cmd_vel"] })).rejects.toThrow("expected outputs have no messages on /cmd_vel");
  });
});
