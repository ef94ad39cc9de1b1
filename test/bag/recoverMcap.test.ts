import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { McapIndexedReader, loadDecompressHandlers } from "../../src/bag/mcap";
import { recoverMcap } from "../../src/bag/recoverMcap";
import { zstdChunkCompressor } from "../../src/bag/zstdChunkCompressor";
import { MemoryBagFileSystem, bytesReadable } from "./MemoryBagFileSystem";

const T0 = 1_700_000_000_000_000_000n;
const N = 120;

/** A bag of N messages of growing size on two topics, times T0 + i ms, small chunks. */
async function recordedFile(compression: "zstd" | "none", chunkCrc = false): Promise<Uint8Array> {
  const fs = new MemoryBagFileSystem();
  const w = await BagWriter.create({ fs, directory: "/b/rec", compression, chunkSizeBytes: 600, chunkCrc });
  for (const topic of ["/a", "/b"]) {
    await w.addTopic({ topic, type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
  }
  for (let i = 0; i < N; i++) {
    const text = `payload ${i} ${"x".repeat(i % 37)}`;
    const data = new Uint8Array(8 + text.length + 1);
    data.set([0, 1, 0, 0]);
    new DataView(data.buffer).setUint32(4, text.length + 1, true);
    data.set(new TextEncoder().encode(text), 8);
    await w.write(i % 2 === 0 ? "/a" : "/b", T0 + BigInt(i) * 1_000_000n, data);
  }
  await w.close();
  return fs.files.get("/b/rec/rec_0.mcap")!;
}

function memoryWritable() {
  const parts: Uint8Array[] = [];
  let pos = 0n;
  return {
    position: () => pos,
    write: async (b: Uint8Array) => {
      parts.push(b.slice());
      pos += BigInt(b.byteLength);
    },
    bytes: () => new Uint8Array(Buffer.concat(parts)),
  };
}

/** Mulberry32: a small seeded PRNG so the cut points are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(["zstd", "none"] as const)("recoverMcap on a killed recording (%s chunks)", (compression) => {
  it("recovers every complete chunk at 60 seeded random truncation points", async () => {
    const handlers = await loadDecompressHandlers();
    const full = await recordedFile(compression);
    const original = await McapIndexedReader.Initialize({ readable: bytesReadable(full), decompressHandlers: handlers });
    expect(original.chunkIndexes.length).toBeGreaterThan(5);
    const originalMessages = [];
    for await (const m of original.readMessages()) originalMessages.push(m);
    const rand = mulberry32(compression === "zstd" ? 7 : 11);
    const compress = compression === "zstd" ? await zstdChunkCompressor() : undefined;
    for (let k = 0; k < 60; k++) {
      const cut = Math.floor(rand() * full.byteLength);
      // Expected: the messages of every chunk that lies entirely before the cut (times are
      // T0 + i ms, so a chunk holds the messages whose index is in its time range).
      let expected = 0;
      for (const ci of original.chunkIndexes) {
        if (ci.chunkStartOffset + ci.chunkLength <= BigInt(cut)) {
          expected += Number((ci.messageEndTime - ci.messageStartTime) / 1_000_000n) + 1;
        }
      }
      const out = memoryWritable();
      const result = await recoverMcap(bytesReadable(full.slice(0, cut)), out, { decompressHandlers: handlers, compressChunk: compress });
      expect(result.messages).toBe(expected);
      expect(result.complete).toBe(false);
      expect(result.problem).toMatch(/truncated/);
      const fixed = await McapIndexedReader.Initialize({ readable: bytesReadable(out.bytes()), decompressHandlers: handlers });
      const got = [];
      for await (const m of fixed.readMessages({ validateCrcs: true })) got.push(m);
      expect(got.map((m) => [m.logTime, Buffer.from(m.data).toString("hex")])).toEqual(
        originalMessages.slice(0, expected).map((m) => [m.logTime, Buffer.from(m.data).toString("hex")]),
      );
      if (expected > 0) expect(fixed.header.profile).toBe("ros2");
    }
  });

  it("keeps all messages of a complete file and reports it complete", async () => {
    const handlers = await loadDecompressHandlers();
    const full = await recordedFile(compression);
    const out = memoryWritable();
    const result = await recoverMcap(bytesReadable(full), out, { decompressHandlers: handlers });
    expect(result).toMatchObject({ messages: N, complete: true, problem: undefined });
  });
});

describe("recoverMcap on corrupt data", () => {
  it("stops at a chunk whose bytes were flipped and keeps the chunks before it", async () => {
    const handlers = await loadDecompressHandlers();
    const full = await recordedFile("none", true);
    const original = await McapIndexedReader.Initialize({ readable: bytesReadable(full), decompressHandlers: handlers });
    const third = original.chunkIndexes[2]!;
    const bad = full.slice();
    // flip a byte in the middle of the third chunk's records (its CRC no longer matches)
    const at = Number(third.chunkStartOffset + third.chunkLength / 2n);
    bad[at] = bad[at]! ^ 0xff;
    const before = original.chunkIndexes.slice(0, 2).reduce((n, ci) => n + Number((ci.messageEndTime - ci.messageStartTime) / 1_000_000n) + 1, 0);
    const out = memoryWritable();
    const result = await recoverMcap(bytesReadable(bad), out, { decompressHandlers: handlers });
    expect(result.messages).toBe(before);
    expect(result.problem).toMatch(/corrupt/);
  });
});

describe("a topic added in the middle of a chunk", () => {
  it("has its Channel record before its messages: a streaming read of the file without summary gets every message", async () => {
    const fs = new MemoryBagFileSystem();
    const w = await BagWriter.create({ fs, directory: "/b/mid", compression: "none", chunkSizeBytes: 1 << 20 });
    const topic = (name: string) => ({ topic: name, type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
    await w.addTopic(topic("/a"));
    const data = new Uint8Array([0, 1, 0, 0, 2, 0, 0, 0, 120, 0]);
    for (let i = 0; i < 5; i++) await w.write("/a", T0 + BigInt(i), data);
    await w.addTopic(topic("/b"));
    for (let i = 5; i < 10; i++) await w.write(i % 2 === 0 ? "/a" : "/b", T0 + BigInt(i), data);
    await w.close();
    const full = fs.files.get("/b/mid/mid_0.mcap")!;
    const handlers = await loadDecompressHandlers();
    const indexed = await McapIndexedReader.Initialize({ readable: bytesReadable(full), decompressHandlers: handlers });
    expect(indexed.chunkIndexes).toHaveLength(1);
    // cut right after the chunk and its message indexes (before DataEnd and the summary)
    const ci = indexed.chunkIndexes[0]!;
    const cut = Number(ci.chunkStartOffset + ci.chunkLength + ci.messageIndexLength);
    const out = memoryWritable();
    const result = await recoverMcap(bytesReadable(full.slice(0, cut)), out, { decompressHandlers: handlers });
    expect(result.messages).toBe(10);
    const fixed = await McapIndexedReader.Initialize({ readable: bytesReadable(out.bytes()), decompressHandlers: handlers });
    expect([...fixed.channelsById.values()].map((c) => c.topic).sort()).toEqual(["/a", "/b"]);
  });
});
