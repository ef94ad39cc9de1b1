import { parse } from "@foxglove/rosmsg";
import { MessageReader, MessageWriter } from "@foxglove/rosmsg2-serialization";
import type { MessageDefinition } from "@foxglove/message-definition";
import { ros2jazzy } from "@foxglove/rosmsg-msgs-common";
import { parseBagMetadata } from "../../src/bag/BagMetadata";
import { Bag } from "../../src/bag/BagReader";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { BagWriter, type BagTopic } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { McapIndexedReader, loadDecompressHandlers } from "../../src/bag/mcap";
import { offeredQosProfilesYaml } from "../../src/bag/offeredQosProfiles";
import type { BagMessage } from "../../src/bag/types";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { MemoryBagFileSystem, bytesReadable } from "./MemoryBagFileSystem";

const defs = ros2jazzy as Record<string, MessageDefinition>;
function writerFor(type: string): MessageWriter {
  const root = defs[type]!;
  return new MessageWriter([root, ...Object.values(defs).filter((d) => d.name !== type)]);
}

const STRING_TOPIC: BagTopic = {
  topic: "/chatter",
  type: "std_msgs/msg/String",
  schemaText: commonSchemaText("std_msgs/msg/String"),
  offeredQosProfiles: offeredQosProfilesYaml([QOS_DEFAULT]),
  typeHash: "",
};
const IMAGE_TOPIC: BagTopic = {
  topic: "/camera/image_raw",
  type: "sensor_msgs/msg/Image",
  schemaText: commonSchemaText("sensor_msgs/msg/Image"),
  offeredQosProfiles: offeredQosProfilesYaml([QOS_SENSOR_DATA]),
};

const T0 = 1_700_000_000_000_000_000n;
const stringW = writerFor("std_msgs/String");
const imageW = writerFor("sensor_msgs/Image");

function image(i: number): unknown {
  const data = new Uint8Array(8 * 6 * 3);
  for (let k = 0; k < data.length; k++) data[k] = (k * 7 + i) & 0xff;
  return {
    header: { stamp: { sec: 1_700_000_000 + i, nanosec: 500 }, frame_id: "camera" },
    height: 6,
    width: 8,
    encoding: "rgb8",
    is_bigendian: 0,
    step: 24,
    data,
  };
}

/** 40 messages alternating String / Image, 50 ms apart. */
function sample(): { topic: string; time: bigint; data: Uint8Array; value: unknown }[] {
  const out = [];
  for (let i = 0; i < 40; i++) {
    const isImage = i % 2 === 1;
    const value = isImage ? image(i) : { data: `message ${i}` };
    const data = isImage ? imageW.writeMessage(value) : stringW.writeMessage(value);
    out.push({ topic: isImage ? IMAGE_TOPIC.topic : STRING_TOPIC.topic, time: T0 + BigInt(i) * 50_000_000n, data, value });
  }
  return out;
}

async function writeBag(fs: MemoryBagFileSystem, dir: string, extra: Partial<Parameters<typeof BagWriter.create>[0]> = {}) {
  const w = await BagWriter.create({ fs, directory: dir, chunkSizeBytes: 512, ...extra });
  await w.addTopic(STRING_TOPIC);
  await w.addTopic(IMAGE_TOPIC);
  for (const m of sample()) await w.write(m.topic, m.time, m.data);
  return await w.close();
}

async function readAll(bag: Bag): Promise<BagMessage[]> {
  const out: BagMessage[] = [];
  for await (const m of bag.messages()) out.push(m);
  return out;
}

describe.each([
  ["zstd", true],
  ["zstd", false],
  ["none", true],
  ["none", false],
] as const)("BagWriter (%s chunks, chunk CRC %s)", (compression, chunkCrc) => {
  it("is read back identically by our reader and by McapIndexedReader with CRC validation", async () => {
    const fs = new MemoryBagFileSystem();
    const md = await writeBag(fs, "/bags/flight", { compression, chunkCrc });
    expect(md.relativeFilePaths).toEqual(["flight_0.mcap"]);
    const expected = sample();
    const ours = await readAll(await Bag.open(fs, "/bags/flight"));
    expect(ours.map((m) => [m.topic, m.logTimeNs, Buffer.from(m.data).toString("hex")])).toEqual(
      expected.map((m) => [m.topic, m.time, Buffer.from(m.data).toString("hex")]),
    );

    const file = fs.files.get("/bags/flight/flight_0.mcap")!;
    const reader = await McapIndexedReader.Initialize({ readable: bytesReadable(file), decompressHandlers: await loadDecompressHandlers() });
    expect(reader.header.profile).toBe("ros2");
    expect(reader.statistics?.messageCount).toBe(40n);
    expect(reader.chunkIndexes.length).toBeGreaterThan(1);
    for (const ci of reader.chunkIndexes) expect(ci.compression).toBe(compression === "zstd" ? "zstd" : "");
    expect(reader.footer.summaryCrc).not.toBe(0);
    const theirs = [];
    for await (const m of reader.readMessages({ validateCrcs: true })) theirs.push(m);
    expect(theirs.map((m) => [m.logTime, Buffer.from(m.data).toString("hex")])).toEqual(
      expected.map((m) => [m.time, Buffer.from(m.data).toString("hex")]),
    );
    const channels = [...reader.channelsById.values()];
    expect(channels.map((c) => c.messageEncoding)).toEqual(["cdr", "cdr"]);
    expect(channels[1]?.metadata.get("offered_qos_profiles")).toBe(IMAGE_TOPIC.offeredQosProfiles);
    expect(channels[0]?.metadata.has("topic_type_hash")).toBe(true);
    expect([...reader.schemasById.values()].map((s) => [s.name, s.encoding])).toEqual([
      ["std_msgs/msg/String", "ros2msg"],
      ["sensor_msgs/msg/Image", "ros2msg"],
    ]);
  });
});

describe("schemas we write", () => {
  it("decode with a parser that only sees the schema text from the file", async () => {
    const fs = new MemoryBagFileSystem();
    await writeBag(fs, "/b/x");
    const file = fs.files.get("/b/x/x_0.mcap")!;
    const reader = await McapIndexedReader.Initialize({ readable: bytesReadable(file), decompressHandlers: await loadDecompressHandlers() });
    const readers = new Map<number, MessageReader>();
    for (const [id, ch] of reader.channelsById) {
      const schema = reader.schemasById.get(ch.schemaId)!;
      readers.set(id, new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true })));
    }
    const expected = sample();
    let i = 0;
    for await (const m of reader.readMessages()) {
      const decoded = readers.get(m.channelId)!.readMessage(m.data);
      expect(decoded).toEqual(expected[i]!.value);
      i++;
    }
    expect(i).toBe(40);
  });

  it("match rosbag2's layout: root text, then 80 '=' and 'MSG: pkg/Name' per dependency, each once", () => {
    const text = commonSchemaText("sensor_msgs/msg/Image");
    const sections = text.split(`${"=".repeat(80)}\n`);
    expect(sections.slice(1).map((s) => s.split("\n")[0])).toEqual(["MSG: std_msgs/Header", "MSG: builtin_interfaces/Time"]);
    expect(sections[0]).toContain("std_msgs/Header header\n");
    expect(sections[0]).toContain("uint8[] data\n");
  });
});

describe("splitting and metadata.yaml", () => {
  it("splits by size into <dir>_N.mcap and the metadata counts match the files", async () => {
    const fs = new MemoryBagFileSystem();
    const md = await writeBag(fs, "/bags/split", { maxBagSizeBytes: 2048, compression: "none" });
    expect(md.relativeFilePaths.length).toBeGreaterThan(2);
    md.relativeFilePaths.forEach((p, i) => expect(p).toBe(`split_${i}.mcap`));
    const onDisk = parseBagMetadata(await fs.readText("/bags/split/metadata.yaml"));
    expect(onDisk).toEqual(md);
    expect(onDisk.messageCount).toBe(40);
    expect(onDisk.topics.map((t) => [t.name, t.messageCount])).toEqual([
      ["/chatter", 20],
      ["/camera/image_raw", 20],
    ]);
    expect(onDisk.startingTimeNs).toBe(T0);
    expect(onDisk.durationNs).toBe(39n * 50_000_000n);
    let total = 0;
    for (const f of onDisk.files) {
      const bytes = fs.files.get(`/bags/split/${f.path}`)!;
      const r = await McapIndexedReader.Initialize({ readable: bytesReadable(bytes), decompressHandlers: await loadDecompressHandlers() });
      expect(r.statistics?.messageCount).toBe(BigInt(f.messageCount));
      expect(r.statistics?.messageStartTime).toBe(f.startingTimeNs);
      expect(r.statistics!.messageEndTime - r.statistics!.messageStartTime).toBe(f.durationNs);
      total += f.messageCount;
    }
    expect(total).toBe(40);
    // the merged read across files is the original sequence
    const all = await readAll(await Bag.open(fs, "/bags/split"));
    expect(all.map((m) => m.logTimeNs)).toEqual(sample().map((m) => m.time));
  });

  it("splits by duration", async () => {
    const fs = new MemoryBagFileSystem();
    // 40 messages over 1.95 s, split every 0.5 s -> files of 10 messages
    const md = await writeBag(fs, "/bags/dur", { maxBagDurationNs: 500_000_000n });
    expect(md.files.map((f) => f.messageCount)).toEqual([10, 10, 10, 10]);
    expect(md.files.map((f) => f.startingTimeNs)).toEqual([0, 1, 2, 3].map((k) => T0 + BigInt(k) * 500_000_000n));
  });

  it("refuses to overwrite an existing bag and names the file", async () => {
    const fs = new MemoryBagFileSystem();
    await writeBag(fs, "/bags/once");
    await expect(BagWriter.create({ fs, directory: "/bags/once" })).rejects.toThrow("/bags/once/metadata.yaml: exists");
  });
});

describe("messages written out of log-time order", () => {
  it("are read back in log-time order by both readers", async () => {
    const fs = new MemoryBagFileSystem();
    const w = await BagWriter.create({ fs, directory: "/b/ooo", chunkSizeBytes: 300, compression: "none" });
    await w.addTopic(STRING_TOPIC);
    // times 0..59 ms in a scrambled order (i * 37 mod 60 is a permutation)
    const order = Array.from({ length: 60 }, (_, i) => (i * 37) % 60);
    for (const k of order) await w.write(STRING_TOPIC.topic, T0 + BigInt(k) * 1_000_000n, stringW.writeMessage({ data: `t${k}` }));
    const md = await w.close();
    expect(md.startingTimeNs).toBe(T0);
    expect(md.durationNs).toBe(59_000_000n);
    const ours = await readAll(await Bag.open(fs, "/b/ooo"));
    expect(ours.map((m) => m.logTimeNs)).toEqual(Array.from({ length: 60 }, (_, k) => T0 + BigInt(k) * 1_000_000n));
    const reader = await McapIndexedReader.Initialize({ readable: bytesReadable(fs.files.get("/b/ooo/ooo_0.mcap")!) });
    const times = [];
    for await (const m of reader.readMessages()) times.push(m.logTime);
    expect(times).toEqual(ours.map((m) => m.logTimeNs));
  });
});

describe("one chunk with messages out of order", () => {
  it("is sorted by log time when read", async () => {
    const fs = new MemoryBagFileSystem();
    const w = await BagWriter.create({ fs, directory: "/b/one", chunkSizeBytes: 1 << 20, compression: "zstd", chunkCrc: true });
    await w.addTopic(STRING_TOPIC);
    const order = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
    for (const k of order) await w.write(STRING_TOPIC.topic, T0 + BigInt(k), stringW.writeMessage({ data: `t${k}` }));
    await w.close();
    const reader = await McapIndexedReader.Initialize({ readable: bytesReadable(fs.files.get("/b/one/one_0.mcap")!), decompressHandlers: await loadDecompressHandlers() });
    expect(reader.chunkIndexes).toHaveLength(1);
    const ours = await readAll(await Bag.open(fs, "/b/one"));
    expect(ours.map((m) => m.logTimeNs)).toEqual(Array.from({ length: 40 }, (_, k) => T0 + BigInt(k)));
    const dec = new MessageDecoder();
    expect(ours.map((m) => dec.decode<{ data: string }>(m.channel, m.data).data)).toEqual(Array.from({ length: 40 }, (_, k) => `t${k}`));
  });
});
