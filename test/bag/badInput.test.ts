import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { BagWriter } from "../../src/bag/BagWriter";
import { commonSchemaText } from "../../src/bag/commonDefinitions";
import { decodeItems } from "../../src/bag/decodeItems";
import { McapIndexedReader, loadDecompressHandlers } from "../../src/bag/mcap";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import type { BagReadItem } from "../../src/bag/types";
import { MemoryBagFileSystem, bytesReadable } from "./MemoryBagFileSystem";
import { TALKER_MCAP } from "./fixtures";

const T0 = 1_600_000_000_000_000_000n;

function stringCdr(text: string): Uint8Array {
  const data = new Uint8Array(8 + text.length + 1);
  data.set([0, 1, 0, 0]);
  new DataView(data.buffer).setUint32(4, text.length + 1, true);
  data.set(new TextEncoder().encode(text), 8);
  return data;
}

async function smallBag(fs: MemoryBagFileSystem, dir: string, schemaText = commonSchemaText("std_msgs/msg/String")): Promise<void> {
  const w = await BagWriter.create({ fs, directory: dir, chunkSizeBytes: 200, compression: "none", chunkCrc: true });
  await w.addTopic({ topic: "/s", type: "std_msgs/msg/String", schemaText, offeredQosProfiles: "" });
  for (let i = 0; i < 50; i++) await w.write("/s", T0 + BigInt(i), stringCdr(`message number ${i}`));
  await w.close();
}

async function items(bag: Bag): Promise<BagReadItem[]> {
  const out: BagReadItem[] = [];
  for await (const it of bag.items()) out.push(it);
  return out;
}

describe("bad input gives an error naming the file and the problem, after every good message", () => {
  it("truncated file: the messages of the complete chunks, then a 'truncated' problem", async () => {
    const fs = new MemoryBagFileSystem();
    await smallBag(fs, "/b/t");
    const file = "/b/t/t_0.mcap";
    const full = fs.files.get(file)!;
    fs.files.set(file, full.slice(0, Math.floor(full.byteLength / 2)));
    const got = await items(await Bag.open(fs, "/b/t"));
    const messages = got.filter((i) => i.type === "message");
    const last = got[got.length - 1]!;
    expect(messages.length).toBeGreaterThan(5);
    expect(messages.length).toBeLessThan(50);
    expect(last).toMatchObject({ type: "problem", file });
    expect(last.type === "problem" && last.message).toMatch(/truncated/);
    // the good messages are the first ones, in order
    expect(messages.map((i) => i.type === "message" && i.message.logTimeNs)).toEqual(messages.map((_, k) => T0 + BigInt(k)));
    // and messages() throws after yielding them, with the file in the error
    const seen: bigint[] = [];
    await expect(
      (async () => {
        for await (const m of (await Bag.open(fs, "/b/t")).messages()) seen.push(m.logTimeNs);
      })(),
    ).rejects.toThrow(`${file}: truncated`);
    expect(seen).toHaveLength(messages.length);
  });

  it("corrupted chunk in an indexed file: earlier chunks' messages, then a CRC problem", async () => {
    const fs = new MemoryBagFileSystem();
    await smallBag(fs, "/b/c");
    const file = "/b/c/c_0.mcap";
    const bytes = fs.files.get(file)!;
    const r = await McapIndexedReader.Initialize({ readable: bytesReadable(bytes), decompressHandlers: await loadDecompressHandlers() });
    const ci = r.chunkIndexes[3]!;
    const at = Number(ci.chunkStartOffset + ci.chunkLength - 10n);
    bytes[at] = bytes[at]! ^ 0x5a;
    const got = await items(await Bag.open(fs, "/b/c"));
    const messages = got.filter((i) => i.type === "message");
    const inFirstThree = r.chunkIndexes.slice(0, 3).reduce((n, c) => n + Number(c.messageEndTime - c.messageStartTime) + 1, 0);
    expect(messages).toHaveLength(inFirstThree);
    const last = got[got.length - 1]!;
    expect(last).toMatchObject({ type: "problem", file });
    expect(last.type === "problem" && last.message).toMatch(/CRC/i);
  });

  it("a schema that does not parse: a problem naming topic and type, raw messages still readable", async () => {
    const fs = new MemoryBagFileSystem();
    await smallBag(fs, "/b/s", "string[ data\n");
    const got = [];
    for await (const it of decodeItems((await Bag.open(fs, "/b/s")).items())) got.push(it);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: "problem", file: "/b/s/s_0.mcap" });
    expect(got[0]!.type === "problem" && got[0]!.message).toMatch(/schema of \/s \(std_msgs\/msg\/String\) does not parse/);
    const raw = await items(await Bag.open(fs, "/b/s"));
    expect(raw.filter((i) => i.type === "message")).toHaveLength(50);
  });

  it.each([
    [1n << 60n, /corrupt record: .*too large/],
    [1_000_000n, /truncated: the file \(33 bytes\) ends inside a record/],
  ])("a corrupt length field (%s) gives a problem, not a huge allocation", async (length, expected) => {
    const fs = new MemoryBagFileSystem();
    // MCAP magic, then a Header record (op 0x01) claiming `length` bytes in a 33-byte file.
    const bytes = new Uint8Array(8 + 9 + 16);
    bytes.set([0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a]);
    bytes[8] = 0x01;
    new DataView(bytes.buffer).setBigUint64(9, length, true);
    fs.files.set("/h/huge.mcap", bytes);
    const got = await items(await Bag.open(fs, "/h/huge.mcap"));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ type: "problem", file: "/h/huge.mcap" });
    expect(got[0]!.type === "problem" && got[0]!.message).toMatch(expected);
  });
});

describe("a bad bag directory gives an error naming the file", () => {
  it("non-bag file", async () => {
    const fs = new MemoryBagFileSystem();
    fs.files.set("/x/notes.txt", new TextEncoder().encode("this is not a bag at all"));
    await expect(Bag.open(fs, "/x/notes.txt")).rejects.toThrow("/x/notes.txt: not a rosbag2 bag file");
  });

  it("missing metadata.yaml", async () => {
    const fs = new MemoryBagFileSystem();
    await smallBag(fs, "/b/m");
    fs.files.delete("/b/m/metadata.yaml");
    await expect(Bag.open(fs, "/b/m")).rejects.toThrow("/b/m/metadata.yaml: missing");
  });

  it("unknown storage id", async () => {
    const fs = new MemoryBagFileSystem();
    await smallBag(fs, "/b/u");
    const text = (await fs.readText("/b/u/metadata.yaml")).replace("storage_identifier: mcap", "storage_identifier: rosbag_v2");
    await fs.writeText("/b/u/metadata.yaml", text);
    await expect(Bag.open(fs, "/b/u")).rejects.toThrow('/b/u/metadata.yaml: unknown storage_identifier "rosbag_v2", expected "mcap" or "sqlite3"');
  });

  it("a bag directory whose listed file is missing names that file", async () => {
    const fs = new NodeBagFileSystem();
    const real = await fs.readText(path.join(TALKER_MCAP, "metadata.yaml"));
    const mem = new MemoryBagFileSystem();
    await mem.makeDirectory("/t");
    await mem.writeText("/t/metadata.yaml", real);
    await expect(Bag.open(mem, "/t")).rejects.toThrow("/t/talker.mcap: missing");
  });
});

describe("a corrupt .db3", () => {
  it("with a SQLite header but garbage after it gives a problem naming the file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "baddb3-"));
    try {
      const file = path.join(dir, "broken.db3");
      const bytes = new Uint8Array(4096);
      bytes.set(new TextEncoder().encode("SQLite format 3\0"));
      for (let i = 16; i < bytes.length; i++) bytes[i] = (i * 131) & 0xff;
      writeFileSync(file, bytes);
      const got = await items(await Bag.open(new NodeBagFileSystem(), file));
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ type: "problem", file });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
