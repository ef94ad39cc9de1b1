/**
 * Truncated and bit-flipped bag files into the bag reader: MCAP bags written by our BagWriter
 * (zstd and uncompressed chunks, with and without chunk CRCs) and the rosbag2 sqlite3 fixture.
 * Every case ends in messages, a `problem` item naming the file, or a BagError naming the file;
 * messages that come out decode or fail with an error naming the topic; `recoverMcap` on the same
 * bytes returns a result. No other exception, no hang (per-case deadline).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { loadDecompressHandlers } from "../../src/bag/mcap";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { recoverMcap } from "../../src/bag/recoverMcap";
import { BagError } from "../../src/bag/types";
import { defaultRegistry } from "../../src/ros/msgs";
import { randomMessage } from "../ros/graph/randomMessage";
import { MemoryBagFileSystem, bytesReadable } from "../bag/MemoryBagFileSystem";
import { TALKER_SQLITE3 } from "../bag/fixtures";
import { FuzzTally, fcParams, fuzzRuns, mutate, mutationsArb } from "./fuzzSupport";

const RUNS = fuzzRuns(400);
const T0 = 1_700_000_000_000_000_000n;
const registry = defaultRegistry();
const TOPICS = [
  { topic: "/imu/data", type: "sensor_msgs/msg/Imu" },
  { topic: "/cmd_vel", type: "geometry_msgs/msg/TwistStamped" },
  { topic: "/harness/correction", type: "drone_harness_msgs/msg/HarnessCorrection" },
];

async function writeBag(compression: "zstd" | "none", chunkCrc: boolean): Promise<{ fs: MemoryBagFileSystem; file: string }> {
  const fs = new MemoryBagFileSystem();
  const w = await BagWriter.create({
    fs,
    directory: "/b/f",
    compression,
    chunkSizeBytes: 700,
    chunkCrc,
  });
  for (const t of TOPICS) await w.addTopic({ topic: t.topic, type: t.type, schemaText: registry.ros2msgText(t.type), offeredQosProfiles: "" });
  for (let i = 0; i < 60; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    await w.write(t.topic, T0 + BigInt(i) * 10_000_000n, registry.serialize(t.type, randomMessage(registry, t.type, i + 1)));
  }
  await w.close();
  return { fs, file: "/b/f/f_0.mcap" };
}

/** Reads everything; returns the outcome label. Throws on anything that is not a named problem. */
async function readAll(open: () => Promise<Bag>, file: string): Promise<string> {
  let bag: Bag;
  try {
    bag = await open();
  } catch (err) {
    if (err instanceof BagError && err.message.startsWith(path.dirname(file))) return "rejected at open (BagError)";
    throw err;
  }
  const decoder = new MessageDecoder();
  let messages = 0;
  let undecodable = 0;
  let problem: string | undefined;
  for await (const item of bag.items()) {
    switch (item.type) {
      case "message":
        messages++;
        try {
          decoder.decode(item.message.channel, item.message.data);
        } catch (err) {
          if (!(err instanceof Error) || !err.message.includes(item.message.channel.topic)) throw err;
          undecodable++;
        }
        break;
      case "problem":
        expect(item.file).toBe(file);
        expect(item.message.length).toBeGreaterThan(0);
        problem = item.message;
        break;
    }
  }
  if (problem !== undefined) return messages > 0 ? "messages then a problem" : "problem only";
  return undecodable > 0 ? "messages, some undecodable" : "all messages";
}

describe("bag fuzz", () => {
  const tallies: FuzzTally[] = [];
  afterAll(() => tallies.forEach((t) => t.print()));

  it.each([
    ["zstd", true],
    ["none", false],
  ] as const)("MCAP (%s chunks, chunk CRC %s): truncated and bit-flipped files are read up to a named problem", async (compression, crc) => {
    const tally = new FuzzTally(`bag mcap ${compression}${crc ? " crc" : ""}`);
    const recover = new FuzzTally(`bag recover mcap ${compression}${crc ? " crc" : ""}`);
    tallies.push(tally, recover);
    const { fs, file } = await writeBag(compression, crc);
    const base = fs.files.get(file)!;
    expect(await readAll(() => Bag.open(fs, "/b/f"), file)).toBe("all messages");
    const handlers = await loadDecompressHandlers();
    await fc.assert(
      fc.asyncProperty(mutationsArb, async (ops) => {
        const bytes = mutate(base, ops);
        fs.files.set(file, bytes);
        await tally.runAsync(() => readAll(() => Bag.open(fs, "/b/f"), file));
        await recover.runAsync(async () => {
          let pos = 0n;
          const out = {
            position: () => pos,
            write: async (b: Uint8Array): Promise<void> => {
              pos += BigInt(b.byteLength);
            },
          };
          try {
            const r = await recoverMcap(bytesReadable(bytes), out, { decompressHandlers: handlers });
            expect(r.messages).toBeLessThanOrEqual(60);
            return r.complete ? "recovered, complete" : "recovered, partial";
          } catch (err) {
            if (err instanceof Error && err.message.length > 0 && !(err instanceof RangeError) && !(err instanceof TypeError)) return "rejected (Error)";
            throw err;
          }
        });
      }),
      fcParams(Math.ceil(RUNS / 2)),
    );
  });

  it("sqlite3 (rosbag2 talker fixture): truncated and bit-flipped .db3 files give messages or a problem naming the file", async () => {
    const tally = new FuzzTally("bag db3");
    tallies.push(tally);
    const dir = mkdtempSync(path.join(tmpdir(), "dh-fuzz-db3-"));
    try {
      const base = new Uint8Array(readFileSync(path.join(TALKER_SQLITE3, "talker.db3")));
      copyFileSync(path.join(TALKER_SQLITE3, "metadata.yaml"), path.join(dir, "metadata.yaml"));
      const file = path.join(dir, "talker.db3");
      const nodeFs = new NodeBagFileSystem();
      let k = 0;
      await fc.assert(
        fc.asyncProperty(mutationsArb, async (ops) => {
          // A fresh file name per case: SQLite must not see a previous case's -wal/-shm.
          const caseDir = path.join(dir, `c${k++}`);
          const f = path.join(caseDir, "talker.db3");
          mkdirSync(caseDir);
          copyFileSync(path.join(dir, "metadata.yaml"), path.join(caseDir, "metadata.yaml"));
          writeFileSync(f, mutate(base, ops));
          await tally.runAsync(() => readAll(() => Bag.open(nodeFs, caseDir), f));
          rmSync(caseDir, { recursive: true, force: true });
        }),
        // SQLite opens a file per case: a fifth of the MCAP count keeps the suite fast.
        fcParams(Math.max(1, Math.ceil(RUNS / 5))),
      );
      expect(file).toContain("talker.db3");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("db3 rows of the wrong SQLite type (found by the fuzz run)", () => {
  it("a TEXT data column (the schema has no type check) is a problem naming the file and topic, after the good messages", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dh-db3-null-"));
    try {
      copyFileSync(path.join(TALKER_SQLITE3, "metadata.yaml"), path.join(dir, "metadata.yaml"));
      const file = path.join(dir, "talker.db3");
      copyFileSync(path.join(TALKER_SQLITE3, "talker.db3"), file);
      const db = new Database(file);
      const total = (db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n;
      db.prepare("UPDATE messages SET data = 'not a blob' WHERE id = (SELECT id FROM messages ORDER BY timestamp, id LIMIT 1 OFFSET 3)").run();
      db.close();
      const items: string[] = [];
      for await (const it of (await Bag.open(new NodeBagFileSystem(), dir)).items()) items.push(it.type === "message" ? "message" : `${it.file}: ${it.message}`);
      expect(total).toBeGreaterThan(4);
      expect(items).toEqual(["message", "message", "message", `${file}: message row on /topic: data is string, expected a BLOB`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
