/**
 * Writing rosbag2 sqlite3 (.db3) bags: round trip through our reader, the table layout against
 * the real rosbag2 fixture, metadata.yaml and `bag info` against the MCAP bag of the same
 * messages, split files, and refused output.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { parseBagMetadata } from "../../src/bag/BagMetadata";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter, DB3_MIN_SPLIT_BYTES, type BagTopic, type BagWriterOptions } from "../../src/bag/BagWriter";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../../src/bag/offeredQosProfiles";
import type { BagMessage } from "../../src/bag/types";
import { BagError } from "../../src/bag/types";
import { main } from "../../src/cli/main";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { defaultRegistry } from "../../src/ros/msgs";
import { TALKER_SQLITE3 } from "./fixtures";

const registry = defaultRegistry();
const fs = new NodeBagFileSystem();
const T0 = 1_700_000_000_000_000_000n;

function topic(name: string, type: string, qos = QOS_DEFAULT): BagTopic {
  return { topic: name, type, schemaText: registry.ros2msgText(type), offeredQosProfiles: offeredQosProfilesYaml([qos]), typeHash: "" };
}

const TOPICS: BagTopic[] = [
  topic("/camera/image_raw", "sensor_msgs/msg/Image", QOS_SENSOR_DATA),
  topic("/imu/data", "sensor_msgs/msg/Imu", QOS_SENSOR_DATA),
  topic("/cmd_vel", "geometry_msgs/msg/TwistStamped"),
  topic("/harness/student_output", "drone_harness_msgs/msg/StudentOutput"),
];

function header(i: number): unknown {
  return { stamp: { sec: 1_700_000_000 + Math.floor(i / 10), nanosec: (i % 10) * 100_000_000 }, frame_id: `frame_${i}` };
}

function value(type: string, i: number): unknown {
  switch (type) {
    case "sensor_msgs/msg/Image": {
      const data = new Uint8Array(16 * 12 * 3);
      for (let k = 0; k < data.length; k++) data[k] = (k * 13 + i * 7) & 0xff;
      return { header: header(i), height: 12, width: 16, encoding: "rgb8", is_bigendian: 0, step: 48, data };
    }
    case "sensor_msgs/msg/Imu":
      return {
        header: header(i),
        orientation: { x: 0, y: 0, z: Math.sin(i), w: Math.cos(i) },
        orientation_covariance: new Float64Array(9).fill(0.01 * i),
        angular_velocity: { x: 0.1 * i, y: -0.2, z: 0.3 },
        angular_velocity_covariance: new Float64Array(9),
        linear_acceleration: { x: 0, y: 0, z: 9.81 + i * 1e-3 },
        linear_acceleration_covariance: new Float64Array(9),
      };
    case "geometry_msgs/msg/TwistStamped":
      return { header: header(i), twist: { linear: { x: 1.5 + i, y: 0, z: -0.25 }, angular: { x: 0, y: 0, z: 0.125 * i } } };
    default:
      return {
        header: header(i),
        corrected: i % 2 === 0,
        action_names: ["left", "straight", "right"],
        action_logits: new Float32Array([0.5, i, -1.25]),
        grid_rows: 2,
        grid_cols: 2,
        class_names: ["background", "wire"],
        cell_probs: new Float32Array([0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4]),
        state: new Float32Array([i, 2 * i]),
        pooled_size: 1,
        pooled_input: new Float32Array([0.25, -0.5, 0.75, 1]),
        image_width: 256,
        image_height: 256,
      };
  }
}

type Sample = { topic: string; type: string; time: bigint; data: Uint8Array };

/** 80 messages over 4 topics, 10 ms apart, with two messages sharing a timestamp. */
function samples(): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < 80; i++) {
    const t = TOPICS[i % TOPICS.length]!;
    const time = T0 + BigInt(i === 41 ? 40 : i) * 10_000_000n;
    out.push({ topic: t.topic, type: t.type, time, data: registry.serialize(t.type, value(t.type, i)) });
  }
  return out;
}

async function writeBag(dir: string, options: Partial<BagWriterOptions> = {}, list = samples()): Promise<void> {
  const w = await BagWriter.create({ fs, directory: dir, ...options });
  for (const t of TOPICS) await w.addTopic(t);
  for (const m of list) await w.write(m.topic, m.time, m.data);
  await w.close();
}

async function readAll(bag: Bag): Promise<BagMessage[]> {
  const out: BagMessage[] = [];
  for await (const m of bag.messages()) out.push(m);
  return out;
}

/** The schema of a .db3: its tables and indexes with their columns, as sqlite reports them. */
function db3Layout(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    const objects = db.prepare("SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name").all() as Array<{ type: string; name: string }>;
    return objects.map((o) => ({
      ...o,
      columns:
        o.type === "table"
          ? (db.pragma(`table_info(${o.name})`) as Array<{ name: string; type: string; notnull: number; pk: number }>).map((c) => [
              c.name,
              c.type.toUpperCase(),
              c.notnull,
              c.pk,
            ])
          : db.pragma(`index_xinfo(${o.name})`),
    }));
  } finally {
    db.close();
  }
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "db3-writer-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("BagWriter storage sqlite3", () => {
  it("reads back the same bytes, timestamps, topics, types and QoS strings, in timestamp order", async () => {
    const dir = join(root, "roundtrip");
    await writeBag(dir, { storage: "sqlite3" });
    expect(readdirSync(dir).sort()).toEqual(["metadata.yaml", "roundtrip_0.db3"]);
    const bag = await Bag.open(fs, dir);
    expect(bag.storageId).toBe("sqlite3");
    const got = await readAll(bag);
    const want = samples();
    expect(got.map((m) => [m.topic, m.logTimeNs])).toEqual(want.map((m) => [m.topic, m.time]));
    got.forEach((m, i) => {
      expect(Buffer.from(m.data).equals(Buffer.from(want[i]!.data))).toBe(true);
      const t = TOPICS.find((x) => x.topic === m.topic)!;
      expect(m.channel.type).toBe(t.type);
      expect(m.channel.offeredQosProfiles).toBe(t.offeredQosProfiles);
      expect(m.channel.serializationFormat).toBe("cdr");
    });
    const md = bag.metadata!;
    expect(md.storageIdentifier).toBe("sqlite3");
    expect(md.relativeFilePaths).toEqual(["roundtrip_0.db3"]);
    expect(md.messageCount).toBe(80);
    expect(md.startingTimeNs).toBe(T0);
    expect(md.durationNs).toBe(79n * 10_000_000n);
    expect(md.topics.map((t) => [t.name, t.type, t.messageCount, t.offeredQosProfiles])).toEqual(
      TOPICS.map((t) => [t.topic, t.type, 20, t.offeredQosProfiles]),
    );
  });

  it("stores message_definitions, so the messages decode with nothing but the file's text", async () => {
    const dir = join(root, "definitions");
    await writeBag(dir, { storage: "sqlite3" });
    // A reader that knows no types at all (lookup always undefined) takes the file's definitions.
    const bag = await Bag.open(fs, dir, { lookupSchema: () => undefined });
    const dec = new MessageDecoder();
    const want = samples();
    let n = 0;
    for await (const m of bag.messages()) {
      expect(m.channel.schemaEncoding).toBe("ros2msg");
      expect(m.channel.schemaText).toBe(registry.ros2msgText(m.channel.type));
      const fromFile = dec.decode(m.channel, m.data);
      expect(fromFile).toEqual(registry.deserialize(want[n]!.type, want[n]!.data));
      n++;
    }
    expect(n).toBe(80);
    const db = new Database(join(dir, "definitions_0.db3"), { readonly: true });
    try {
      const rows = db.prepare("SELECT topic_type, encoding FROM message_definitions ORDER BY id").all();
      expect(rows).toEqual(TOPICS.map((t) => ({ topic_type: t.type, encoding: "ros2msg" })));
      expect(db.prepare("SELECT schema_version, ros_distro FROM schema").all()).toEqual([{ schema_version: 4, ros_distro: "jazzy" }]);
      // rosbag2 keeps a copy of the metadata in the file (update_metadata): the same as metadata.yaml.
      const meta = db.prepare("SELECT metadata_version, metadata FROM metadata").all() as Array<{ metadata_version: number; metadata: string }>;
      expect(meta).toHaveLength(1);
      expect(meta[0]!.metadata_version).toBe(8);
      const inner = meta[0]!.metadata.split("\n").map((l) => (l === "" ? l : `  ${l}`)).join("\n");
      expect(parseBagMetadata(`rosbag2_bagfile_information:\n${inner}`)).toEqual(parseBagMetadata(readFileSync(join(dir, "metadata.yaml"), "utf8")));
    } finally {
      db.close();
    }
  });

  it("creates the tables and index of the rosbag2 fixture (columns, types, NOT NULL, keys), modulo order", async () => {
    const dir = join(root, "layout");
    await writeBag(dir, { storage: "sqlite3" });
    const fixtureFile = join(TALKER_SQLITE3, readdirSync(TALKER_SQLITE3).find((f) => f.endsWith(".db3"))!);
    expect(db3Layout(join(dir, "layout_0.db3"))).toEqual(db3Layout(fixtureFile));
  });
});

describe("BagWriter storage sqlite3: bag info and split files", () => {
  it("gives the same `bag info` as the MCAP bag of the same messages, except files, size and storage id", async () => {
    const mcapDir = join(root, "info-mcap");
    const db3Dir = join(root, "info-db3");
    await writeBag(mcapDir, { storage: "mcap" });
    await writeBag(db3Dir, { storage: "sqlite3" });
    const info = async (dir: string): Promise<string[]> => {
      const out: string[] = [];
      expect(await main(["bag", "info", dir], { out: (t) => out.push(t), err: (t) => out.push(t) })).toBe(0);
      return out.join("").split("\n");
    };
    const a = await info(mcapDir);
    const b = await info(db3Dir);
    const storageLine = /^(Files|Bag size|Storage id):/;
    expect(b.filter((l) => !storageLine.test(l))).toEqual(a.filter((l) => !storageLine.test(l)));
    expect(b).toContain("Storage id:        sqlite3");
    expect(b).toContain("Files:             info-db3_0.db3");
    expect(b.join("\n")).toContain("Messages:          80");
    // Opening the .db3 alone (no metadata.yaml) gives the same figures from the table contents.
    const single = await info(join(db3Dir, "info-db3_0.db3"));
    const figures = /^(Duration|Start|End|Messages|Topic information| {19}Topic):?/;
    expect(single.filter((l) => figures.test(l))).toEqual(b.filter((l) => figures.test(l)));
  });

  it("splits by duration and by size into _0.db3, _1.db3, ... that read back as one sequence", async () => {
    const many: Sample[] = [];
    for (let r = 0; r < 10; r++) for (const m of samples()) many.push({ ...m, time: m.time + BigInt(r) * 800_000_000n });
    const byDuration = join(root, "split-duration");
    await writeBag(byDuration, { storage: "sqlite3", maxBagDurationNs: 2_000_000_000n }, many);
    const bySize = join(root, "split-size");
    await writeBag(bySize, { storage: "sqlite3", maxBagSizeBytes: DB3_MIN_SPLIT_BYTES, db3BatchBytes: 16 * 1024 }, many);
    for (const dir of [byDuration, bySize]) {
      const bag = await Bag.open(fs, dir);
      const md = bag.metadata!;
      expect(md.relativeFilePaths.length).toBeGreaterThan(1);
      expect(md.relativeFilePaths.every((p, i) => p.endsWith(`_${i}.db3`))).toBe(true);
      expect(md.files.reduce((n, f) => n + f.messageCount, 0)).toBe(800);
      const got = await readAll(bag);
      expect(got.map((m) => m.logTimeNs)).toEqual([...many].sort((x, y) => (x.time < y.time ? -1 : x.time > y.time ? 1 : 0)).map((m) => m.time));
    }
    // Duration: no file spans 2 s or more of log time.
    const md = (await Bag.open(fs, byDuration)).metadata!;
    for (const f of md.files) expect(f.durationNs < 2_000_000_000n).toBe(true);
    // Size: every file but the last stopped within one batch (16 KiB of data + rows) of the limit.
    const sizes = (await Bag.open(fs, bySize)).metadata!.relativeFilePaths.map((p) => readFileSync(join(bySize, p)).byteLength);
    for (const s of sizes.slice(0, -1)) expect(s).toBeLessThan(DB3_MIN_SPLIT_BYTES + 64 * 1024);
  });
});

describe("BagWriter storage sqlite3: a recording cut short, and the resilient preset", () => {
  it("a recording that never closes (killed) keeps every committed transaction, readable as a single .db3", async () => {
    const want = samples();
    // Batches of >= 1 byte: each message is committed as it is written.
    const eager = join(root, "killed-eager");
    const w1 = await BagWriter.create({ fs, directory: eager, storage: "sqlite3", db3BatchBytes: 1 });
    for (const t of TOPICS) await w1.addTopic(t);
    for (const m of want) await w1.write(m.topic, m.time, m.data);
    expect(readdirSync(eager)).toEqual(["killed-eager_0.db3"]);
    const got = await readAll(await Bag.open(fs, join(eager, "killed-eager_0.db3")));
    expect(got.map((m) => m.logTimeNs)).toEqual(want.map((m) => m.time));
    // Batches of 0.5 s of log time: messages 0..50 (t = 0 .. 0.50 s) were committed together;
    // 51..79 are in the open transaction and lost with it.
    const lazy = join(root, "killed-lazy");
    const w2 = await BagWriter.create({ fs, directory: lazy, storage: "sqlite3", db3BatchDurationNs: 500_000_000n });
    for (const t of TOPICS) await w2.addTopic(t);
    for (const m of want) await w2.write(m.topic, m.time, m.data);
    const kept = await readAll(await Bag.open(fs, join(lazy, "killed-lazy_0.db3")));
    expect(kept.map((m) => m.logTimeNs)).toEqual(want.slice(0, 51).map((m) => m.time));
  });

  it("resilient preset: write-ahead log while recording, a self-contained file after close", async () => {
    const dir = join(root, "resilient");
    await writeBag(dir, { storage: "sqlite3", storagePreset: "resilient" });
    expect(readdirSync(dir).sort()).toEqual(["metadata.yaml", "resilient_0.db3"]);
    const db = new Database(join(dir, "resilient_0.db3"), { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      db.close();
    }
    expect(await readAll(await Bag.open(fs, dir))).toHaveLength(80);
  });
});

describe("BagWriter storage sqlite3: refused output leaves no bag", () => {
  it("a directory that cannot be created: BagError naming it, nothing written", async () => {
    const blocker = join(root, "not-a-dir");
    writeFileSync(blocker, "x");
    const dir = join(blocker, "bag");
    const err = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BagError);
    expect((err as Error).message).toContain(dir);
    expect((err as Error).message).toMatch(/cannot create the bag directory: .*ENOTDIR/);
    expect(readFileSync(blocker, "utf8")).toBe("x");
  });

  it("an existing bag (metadata.yaml) or an existing .db3: BagError naming the file; the files are untouched", async () => {
    const dir = join(root, "existing");
    await writeBag(dir, { storage: "sqlite3" });
    const before = readFileSync(join(dir, "existing_0.db3"));
    const err = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BagError);
    expect((err as Error).message).toBe(`${join(dir, "metadata.yaml")}: exists: refusing to overwrite a bag`);
    rmSync(join(dir, "metadata.yaml"));
    const err2 = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(BagError);
    expect((err2 as Error).message).toBe(`${join(dir, "existing_0.db3")}: exists: refusing to overwrite a bag file`);
    expect(readFileSync(join(dir, "existing_0.db3")).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(["existing_0.db3"]);
  });

  it("a symlink in place of the .db3 (dangling or not) is refused; nothing is created at its target", async () => {
    const dir = join(root, "linked");
    mkdirSync(dir);
    const target = join(root, "link-target.db3");
    symlinkSync(target, join(dir, "linked_0.db3"));
    const err = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BagError);
    expect((err as Error).message).toBe(`${join(dir, "linked_0.db3")}: cannot create the sqlite3 file: already exists`);
    expect(existsSync(target)).toBe(false);
    writeFileSync(target, "precious");
    const err2 = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect((err2 as Error).message).toBe(`${join(dir, "linked_0.db3")}: exists: refusing to overwrite a bag file`);
    expect(readFileSync(target, "utf8")).toBe("precious");
  });

  it("a .db3 that cannot be set up: BagError naming the file and sqlite's error; the connection is closed and the file removed", async () => {
    const dir = join(root, "setup-fails");
    let closed = 0;
    const failing = Object.assign(Object.create(fs) as NodeBagFileSystem, {
      createDb3: (path: string) => {
        const real = fs.createDb3(path);
        return {
          exec: (sql: string) => {
            if (sql.startsWith("CREATE TABLE messages")) throw new Error("disk I/O error");
            real.exec(sql);
          },
          prepare: (sql: string) => real.prepare(sql),
          sizeBytes: () => real.sizeBytes(),
          close: () => {
            closed++;
            real.close();
          },
        };
      },
    });
    const err = await BagWriter.create({ fs: failing, directory: dir, storage: "sqlite3" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BagError);
    expect((err as Error).message).toBe(`${join(dir, "setup-fails_0.db3")}: cannot create the sqlite3 file: disk I/O error`);
    expect(closed).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("BagWriter storage sqlite3: refused options and timestamps", () => {
  it("options that do not apply to sqlite3 are refused with the value and valid range, before anything is created", async () => {
    const dir = join(root, "bad-options");
    await expect(BagWriter.create({ fs, directory: dir, storage: "sqlite3", compression: "zstd" })).rejects.toThrow(
      'compression="zstd" is MCAP chunk compression; storage "sqlite3" stores messages uncompressed, expected "none"',
    );
    await expect(BagWriter.create({ fs, directory: dir, storage: "sqlite3", maxBagSizeBytes: 1000 })).rejects.toThrow(
      `maxBagSizeBytes=1000 is below the sqlite3 minimum split size, expected 0 or >= ${DB3_MIN_SPLIT_BYTES}`,
    );
    expect(existsSync(dir)).toBe(false);
  });

  it("a timestamp outside sqlite's signed 64-bit INTEGER is refused naming the value; the messages before it are kept", async () => {
    const dir = join(root, "bad-time");
    const w = await BagWriter.create({ fs, directory: dir, storage: "sqlite3" });
    await w.addTopic(TOPICS[2]!);
    const data = registry.serialize("geometry_msgs/msg/TwistStamped", value("geometry_msgs/msg/TwistStamped", 1));
    await w.write("/cmd_vel", T0, data);
    await expect(w.write("/cmd_vel", 1n << 63n, data)).rejects.toThrow(
      "/cmd_vel: timestamp 9223372036854775808 ns, expected 0 .. 9223372036854775807 (sqlite INTEGER, rosbag2 int64)",
    );
    await expect(w.write("/cmd_vel", -1n, data)).rejects.toThrow("timestamp -1 ns, expected 0 ..");
    await w.close();
    const got = await readAll(await Bag.open(fs, dir));
    expect(got.map((m) => m.logTimeNs)).toEqual([T0]);
  });
});
