import fc from "fast-check";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { decodeItems } from "../../src/bag/decodeItems";
import { MemoryBagFileSystem } from "./MemoryBagFileSystem";

/** A small recorded bag (two topics, 60 String messages, small chunks) as bytes. */
async function bagBytes(compression: "zstd" | "none", chunkCrc: boolean): Promise<Uint8Array> {
  const fs = new MemoryBagFileSystem();
  const w = await BagWriter.create({ fs, directory: "/c/bag", chunkSizeBytes: 400, compression, chunkCrc });
  for (const topic of ["/a", "/b"]) await w.addTopic({ topic, type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
  for (let i = 0; i < 60; i++) {
    const text = `message ${i}`;
    const data = new Uint8Array(9 + text.length);
    data.set([0, 1, 0, 0]);
    new DataView(data.buffer).setUint32(4, text.length + 1, true);
    data.set(new TextEncoder().encode(text), 8);
    await w.write(i % 2 === 0 ? "/a" : "/b", BigInt(i) * 1000n, data);
  }
  await w.close();
  return fs.files.get("/c/bag/bag_0.mcap")!;
}

describe("property: a corrupted or truncated bag never throws out of the reader", () => {
  it("flipped bytes and truncation yield messages and at most problem items, each naming the file", async () => {
    const originals = {
      "zstd/crc": await bagBytes("zstd", true),
      "none/crc": await bagBytes("none", true),
      "none/nocrc": await bagBytes("none", false),
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(originals) as (keyof typeof originals)[])),
        fc.array(fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }), { minLength: 1, maxLength: 4 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (kind, flips, cut) => {
          const bytes = originals[kind].slice();
          for (const f of flips) {
            const i = f.at % bytes.length;
            bytes[i] = (bytes[i] ?? 0) ^ f.xor;
          }
          const fs = new MemoryBagFileSystem();
          fs.files.set("/x/bag.mcap", cut === undefined ? bytes : bytes.slice(0, cut % bytes.length));
          let bag: Bag;
          try {
            bag = await Bag.open(fs, "/x/bag.mcap");
          } catch (err) {
            // only a damaged magic can make the file unrecognisable
            expect(String(err)).toContain("/x/bag.mcap: not a rosbag2 bag file");
            return;
          }
          let messages = 0;
          for await (const item of decodeItems(bag.items())) {
            if (item.type === "problem") expect(item.file).toBe("/x/bag.mcap");
            else messages++;
          }
          expect(messages).toBeLessThanOrEqual(60);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });
});
