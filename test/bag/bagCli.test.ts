import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { main } from "../../src/cli/main";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { TALKER_MCAP, TALKER_SQLITE3 } from "./fixtures";

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join(""), err: err.join("") };
}

type RawMeta = {
  rosbag2_bagfile_information: {
    storage_identifier: string;
    relative_file_paths: string[];
    duration: { nanoseconds: bigint };
    starting_time: { nanoseconds_since_epoch: bigint };
    message_count: bigint;
    topics_with_message_count: { message_count: bigint; topic_metadata: { name: string; type: string; serialization_format: string } }[];
  };
};

const nine = (ns: bigint): string => `${ns / 1_000_000_000n}.${(ns % 1_000_000_000n).toString().padStart(9, "0")}`;

describe("drone-harness bag info", () => {
  it.each([
    ["talker-mcap", TALKER_MCAP, "talker.mcap"],
    ["talker-sqlite3", TALKER_SQLITE3, "talker.db3"],
  ])("on %s matches its metadata.yaml", async (_n, dir, file) => {
    // expected values straight from the bag's metadata.yaml as rosbag2 wrote it
    const md = (parseYaml(readFileSync(path.join(dir, "metadata.yaml"), "utf8"), { intAsBigInt: true }) as RawMeta).rosbag2_bagfile_information;
    const r = await run(["bag", "info", dir]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe("");
    expect(lines).toContain(`Files:             ${md.relative_file_paths[0]}`);
    expect(md.relative_file_paths).toEqual([file]);
    expect(lines).toContain(`Storage id:        ${md.storage_identifier}`);
    expect(lines).toContain(`Duration:          ${nine(md.duration.nanoseconds)}s`);
    expect(lines).toContain(`Messages:          ${md.message_count}`);
    const start = md.starting_time.nanoseconds_since_epoch;
    const end = start + md.duration.nanoseconds;
    // local time of day depends on the machine's zone; minutes and seconds do not (whole-hour zones)
    expect(r.out).toMatch(new RegExp(`Start: +Apr {1,2}[23] 2020 \\d\\d:23:55\\.112411371 \\(${nine(start).replace(".", "\\.")}\\)`));
    expect(r.out).toMatch(new RegExp(`End: +Apr {1,2}[23] 2020 \\d\\d:23:59\\.643508139 \\(${nine(end).replace(".", "\\.")}\\)`));
    const topicLines = md.topics_with_message_count.map(
      (t) => `Topic: ${t.topic_metadata.name} | Type: ${t.topic_metadata.type} | Count: ${t.message_count} | Serialization Format: ${t.topic_metadata.serialization_format}`,
    );
    expect(lines).toContain(`Topic information: ${topicLines[0]}`);
    for (const t of topicLines.slice(1)) expect(lines).toContain(`${" ".repeat(19)}${t}`);
    const size = readFileSync(path.join(dir, file)).byteLength;
    expect(lines).toContain(`Bag size:          ${(size / 1024).toFixed(1)} KiB`);
  });

  it("names the file and the problem for a non-bag, exit code 1", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bagcli-"));
    try {
      const f = path.join(dir, "notes.txt");
      writeFileSync(f, "hello");
      const r = await run(["bag", "info", f]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${f}: not a rosbag2 bag file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("drone-harness bag recover", () => {
  it("rebuilds a truncated recording and reports the messages saved", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bagrec-"));
    try {
      const fs = new NodeBagFileSystem();
      const w = await BagWriter.create({ fs, directory: path.join(dir, "killed"), chunkSizeBytes: 256 });
      await w.addTopic({ topic: "/s", type: "std_msgs/msg/String", schemaText: commonSchemaText("std_msgs/msg/String"), offeredQosProfiles: "" });
      for (let i = 0; i < 100; i++) {
        const text = `message ${i}`;
        const data = new Uint8Array(9 + text.length);
        data.set([0, 1, 0, 0]);
        new DataView(data.buffer).setUint32(4, text.length + 1, true);
        data.set(new TextEncoder().encode(text), 8);
        await w.write("/s", BigInt(i) * 1000n, data);
      }
      await w.close();
      const file = path.join(dir, "killed", "killed_0.mcap");
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.byteLength * 0.6)));
      const r = await run(["bag", "recover", file]);
      expect(r.code).toBe(0);
      const m = /recovered (\d+) messages from (\d+) complete chunks/.exec(r.out);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThan(20);
      expect(Number(m![1])).toBeLessThan(100);
      expect(r.out).toContain("the input ended early: truncated");
      const info = await run(["bag", "info", file.replace(/\.mcap$/, ".recovered.mcap")]);
      expect(info.code).toBe(0);
      expect(info.out).toContain(`Messages:          ${m![1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("drone-harness bag info on a bare .db3 file (no metadata.yaml)", () => {
  it("lists every topic of the topics table with its message count", async () => {
    const r = await run(["bag", "info", path.join(TALKER_SQLITE3, "talker.db3")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Messages:          20");
    expect(r.out).toContain("Topic: /topic | Type: std_msgs/msg/String | Count: 10 | Serialization Format: cdr");
    expect(r.out).toContain("Topic: /rosout | Type: rcl_interfaces/msg/Log | Count: 10 | Serialization Format: cdr");
    expect(r.out).toContain("Topic: /parameter_events | Type: rcl_interfaces/msg/ParameterEvent | Count: 0 | Serialization Format: cdr");
  });
});
