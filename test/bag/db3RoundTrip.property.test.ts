import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";

const TOPICS = ["/a", "/b", "/c"];
const schemaText = commonSchemaText("std_msgs/msg/String");

/**
 * Arbitrary recordings: up to 60 messages on 3 topics, times anywhere in rosbag2's int64 range
 * (0 .. 2^63-1, so sqlite's 64-bit INTEGER is exercised at its ends), in any order, payloads
 * 0..3000 bytes (an empty BLOB included).
 */
const recording = fc.array(
  fc.record({
    topic: fc.constantFrom(...TOPICS),
    t: fc.oneof(fc.bigInt({ min: 0n, max: 10_000_000_000n }), fc.bigInt({ min: 0n, max: (1n << 63n) - 1n })),
    size: fc.nat({ max: 3000 }),
    seed: fc.nat({ max: 255 }),
  }),
  { maxLength: 60 },
);

describe("property: whatever we write to a .db3 bag reads back as the same messages in timestamp order", () => {
  const fs = new NodeBagFileSystem();
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "db3-property-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("for random recordings and transaction batch sizes", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(recording, fc.integer({ min: 1, max: 20_000 }), fc.constantFrom("none" as const, "resilient" as const), async (msgs, db3BatchBytes, storagePreset) => {
        const dir = join(root, `bag${run++}`);
        const w = await BagWriter.create({ fs, directory: dir, storage: "sqlite3", db3BatchBytes, storagePreset });
        for (const topic of TOPICS) await w.addTopic({ topic, type: "std_msgs/msg/String", schemaText, offeredQosProfiles: "" });
        const written = msgs.map((m) => ({ topic: m.topic, t: m.t, data: Uint8Array.from({ length: m.size }, (_, i) => (i * 31 + m.seed) & 0xff) }));
        for (const m of written) await w.write(m.topic, m.t, m.data);
        const md = await w.close();
        expect(md.messageCount).toBe(msgs.length);
        const got = [];
        for await (const m of (await Bag.open(fs, dir)).messages()) got.push(m);
        // rosbag2's read order: timestamp, then insertion (messages.id); a stable sort of what was written.
        const expected = written
          .map((m, i) => ({ ...m, i }))
          .sort((x, y) => (x.t < y.t ? -1 : x.t > y.t ? 1 : x.i - y.i));
        expect(got.map((m) => [m.topic, m.logTimeNs, Buffer.from(m.data).toString("hex")])).toEqual(
          expected.map((m) => [m.topic, m.t, Buffer.from(m.data).toString("hex")]),
        );
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 30, seed: 20261130 },
    );
  });
});
