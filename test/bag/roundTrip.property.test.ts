import fc from "fast-check";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { McapIndexedReader, loadDecompressHandlers } from "../../src/bag/mcap";
import { MemoryBagFileSystem, bytesReadable } from "./MemoryBagFileSystem";

const TOPICS = ["/a", "/b", "/c"];
const schemaText = commonSchemaText("std_msgs/msg/String");

/** Arbitrary recordings: up to 80 messages on 3 topics, times in any order, payloads 0..3000 bytes. */
const recording = fc.array(
  fc.record({ topic: fc.constantFrom(...TOPICS), t: fc.bigInt({ min: 0n, max: 10_000_000_000n }), size: fc.nat({ max: 3000 }), seed: fc.nat({ max: 255 }) }),
  { maxLength: 80 },
);

describe("property: whatever we write reads back as the same messages in log-time order", () => {
  it("for random recordings, chunk sizes, compression, splits and CRC settings", async () => {
    const handlers = await loadDecompressHandlers();
    await fc.assert(
      fc.asyncProperty(
        recording,
        fc.integer({ min: 64, max: 20_000 }),
        fc.constantFrom("zstd" as const, "none" as const),
        fc.constantFrom(0, 4096),
        fc.boolean(),
        async (msgs, chunkSizeBytes, compression, maxBagSizeBytes, chunkCrc) => {
          const fs = new MemoryBagFileSystem();
          const w = await BagWriter.create({ fs, directory: "/p/bag", chunkSizeBytes, compression, maxBagSizeBytes, chunkCrc });
          for (const topic of TOPICS) await w.addTopic({ topic, type: "std_msgs/msg/String", schemaText, offeredQosProfiles: "" });
          const written = msgs.map((m) => ({ topic: m.topic, t: m.t, data: Uint8Array.from({ length: m.size }, (_, i) => (i * 31 + m.seed) & 0xff) }));
          for (const m of written) await w.write(m.topic, m.t, m.data);
          const md = await w.close();
          expect(md.messageCount).toBe(msgs.length);
          const got = [];
          for await (const m of (await Bag.open(fs, "/p/bag")).messages()) got.push(m);
          // log-time order; equal times may come in any order, so compare as sorted multisets
          for (let i = 1; i < got.length; i++) expect(got[i]!.logTimeNs >= got[i - 1]!.logTimeNs).toBe(true);
          const key = (topic: string, t: bigint, d: Uint8Array): string => `${t.toString().padStart(12, "0")} ${topic} ${Buffer.from(d).toString("hex")}`;
          expect(got.map((m) => key(m.topic, m.logTimeNs, m.data)).sort()).toEqual(written.map((m) => key(m.topic, m.t, m.data)).sort());
          // every file is a valid indexed MCAP for @mcap/core
          let n = 0;
          for (const f of md.relativeFilePaths) {
            const r = await McapIndexedReader.Initialize({ readable: bytesReadable(fs.files.get(`/p/bag/${f}`)!), decompressHandlers: handlers });
            for await (const _m of r.readMessages({ validateCrcs: true })) n++;
          }
          expect(n).toBe(msgs.length);
        },
      ),
      { numRuns: 40, seed: 20261130 },
    );
  });
});
