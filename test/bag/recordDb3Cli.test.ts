/**
 * `drone-harness bag record --storage sqlite3` on a running launch, over its introspection socket
 * (as test/bag/recordCli.test.ts does for MCAP): a .db3 bag that reads back in order with the
 * publisher's QoS, and the record-time errors of the sqlite3 options.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Bag } from "../../src/bag/BagReader";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../../src/bag/offeredQosProfiles";
import { main } from "../../src/cli/main";
import { QOS_DEFAULT } from "../../src/ros/graph";
import { defaultRegistry } from "../../src/ros/msgs";
import { startTalkerLaunch, type TalkerLaunch } from "./talkerLaunch";

const startTalker = (): Promise<TalkerLaunch> => startTalkerLaunch("bag-record-db3-");

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(""), err: err.join("") };
}

describe("drone-harness bag record --storage sqlite3", () => {
  it("records /chatter into <dir>/<dir>_0.db3 that reads back in order, with the publisher's QoS and the type's definition", async () => {
    const rig = await startTalker();
    try {
      const bagDir = join(rig.dir, "rec");
      const res = await run(["bag", "record", "-o", bagDir, "-s", "sqlite3", "--socket", rig.socket, "--duration", "0.5", "/chatter"]);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      expect(res.out).toContain("(sqlite3; Ctrl-C to stop)");
      expect(res.out).toMatch(/wrote \d+ messages on 1 topics to 1 file\(s\)/);
      expect(readdirSync(bagDir).sort()).toEqual(["metadata.yaml", "rec_0.db3"]);
      const bag = await Bag.open(new NodeBagFileSystem(), bagDir);
      expect(bag.storageId).toBe("sqlite3");
      expect(bag.metadata?.storageIdentifier).toBe("sqlite3");
      const dec = new MessageDecoder();
      const values: number[] = [];
      let last = 0n;
      for await (const m of bag.messages()) {
        expect(m.channel.offeredQosProfiles).toBe(offeredQosProfilesYaml([QOS_DEFAULT]));
        const text = dec.decode<{ data: string }>(m.channel, m.data).data;
        expect(text).toMatch(/^Hello, world! \d+$/);
        values.push(Number(text.split(" ").pop()));
        expect(m.logTimeNs >= last).toBe(true);
        last = m.logTimeNs;
      }
      expect(values.length).toBeGreaterThanOrEqual(5);
      expect(values.length).toBe(bag.metadata?.messageCount);
      for (let i = 1; i < values.length; i++) expect(values[i]).toBe(values[i - 1]! + 1);
      const db = new Database(join(bagDir, "rec_0.db3"), { readonly: true });
      try {
        expect(db.prepare("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions").all()).toEqual([
          { topic_type: "std_msgs/msg/String", encoding: "ros2msg", encoded_message_definition: defaultRegistry().ros2msgText("std_msgs/msg/String") },
        ]);
        // The default preset's journal_mode=MEMORY is per connection (not stored in the file):
        // a new connection reports the file's default, and no journal file is left behind.
        expect(db.pragma("journal_mode", { simple: true })).toBe("delete");
      } finally {
        db.close();
      }
    } finally {
      await rig.stop();
    }
  });

  it("--storage-preset-profile resilient records in WAL mode", async () => {
    const rig = await startTalker();
    try {
      const bagDir = join(rig.dir, "res");
      const res = await run(["bag", "record", "-o", bagDir, "--storage", "sqlite3", "--storage-preset-profile", "resilient", "--socket", rig.socket, "--duration", "0.2", "/chatter"]);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      const db = new Database(join(bagDir, "res_0.db3"), { readonly: true });
      try {
        expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
        expect((db.prepare("SELECT COUNT(*) AS n FROM messages").get() as { n: number }).n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    } finally {
      await rig.stop();
    }
  });

  it("refuses an existing bag with exit 1 naming the file, and leaves it as it was", async () => {
    const rig = await startTalker();
    try {
      const bagDir = join(rig.dir, "twice");
      expect((await run(["bag", "record", "-o", bagDir, "-s", "sqlite3", "--socket", rig.socket, "--duration", "0.1", "/chatter"])).code).toBe(0);
      const again = await run(["bag", "record", "-o", bagDir, "-s", "sqlite3", "--socket", rig.socket, "--duration", "0.1", "/chatter"]);
      expect(again.code).toBe(1);
      expect(again.err).toBe(`drone-harness bag record: ${join(bagDir, "metadata.yaml")}: exists: refusing to overwrite a bag\n`);
      expect(readdirSync(bagDir).sort()).toEqual(["metadata.yaml", "twice_0.db3"]);
    } finally {
      await rig.stop();
    }
  });
});

describe("drone-harness bag record --storage sqlite3: option errors", () => {
  it("option errors exit 2 before connecting or creating anything", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bag-record-db3-opts-"));
    try {
      const out = join(dir, "x");
      const cases: Array<[string[], string]> = [
        [["--storage", "rosbag1"], "--storage rosbag1: expected mcap or sqlite3"],
        [["-s", "sqlite3", "--compression", "zstd"], "--compression zstd is MCAP chunk compression; --storage sqlite3 stores messages uncompressed (expected none)"],
        [["-s", "sqlite3", "--max-bag-size", "1000"], "--max-bag-size 1000: below the sqlite3 minimum split size, expected 0 or >= 86016"],
        [["--storage-preset-profile", "resilient"], "--storage-preset-profile applies to --storage sqlite3 only"],
        [["-s", "sqlite3", "--storage-preset-profile", "fast"], "--storage-preset-profile fast: expected none or resilient"],
      ];
      for (const [flags, message] of cases) {
        const res = await run(["bag", "record", "-o", out, ...flags, "--socket", join(dir, "none.sock"), "/chatter"]);
        expect(res.code).toBe(2);
        expect(res.err).toContain(`drone-harness bag: ${message}`);
      }
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
