import * as path from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { MessageDecoder } from "../../src/bag/MessageDecoder";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import type { BagMessage } from "../../src/bag/types";
import { defaultRegistry } from "../../src/ros/msgs";
import { TALKER_MCAP, TALKER_SQLITE3 } from "./fixtures";

const fs = new NodeBagFileSystem();

async function collect(bag: Bag, options = {}): Promise<BagMessage[]> {
  const out: BagMessage[] = [];
  for await (const m of bag.messages(options)) out.push(m);
  return out;
}

type Log = { stamp: { sec: number; nanosec: number }; level: number; name: string; msg: string; line: number };

// Expected values: ros2/rosbag2 rosbag2_py/test/resources/{mcap,sqlite3}/talker, recorded from the
// demo talker (see ../shared/fixtures/rosbag2/README.md); times from their metadata.yaml.
describe.each([
  ["mcap", TALKER_MCAP],
  ["sqlite3", TALKER_SQLITE3],
])("reading the real rosbag2 talker bag (%s)", (storage, dir) => {
  it("decodes /topic as Hello, world! 0..9 in order and 10 /rosout Log messages", async () => {
    const bag = await Bag.open(fs, dir);
    expect(bag.storageId).toBe(storage);
    const msgs = await collect(bag);
    expect(msgs).toHaveLength(20);
    const dec = new MessageDecoder();
    const strings = msgs.filter((m) => m.topic === "/topic").map((m) => dec.decode<{ data: string }>(m.channel, m.data).data);
    expect(strings).toEqual(Array.from({ length: 10 }, (_, i) => `Hello, world! ${i}`));
    const logs = msgs.filter((m) => m.topic === "/rosout").map((m) => dec.decode<Log>(m.channel, m.data));
    expect(logs).toHaveLength(10);
    for (const [i, log] of logs.entries()) {
      expect(log.name).toBe("minimal_publisher");
      expect(log.level).toBe(20);
      expect(log.msg).toBe(`Publishing: 'Hello, world! ${i}'`);
    }
    const meta = bag.metadata;
    expect(meta).toBeDefined();
    if (meta === undefined) return;
    // log times are in order and span exactly metadata's starting_time .. starting_time + duration
    for (let i = 1; i < msgs.length; i++) expect(msgs[i]!.logTimeNs >= msgs[i - 1]!.logTimeNs).toBe(true);
    expect(msgs[0]!.logTimeNs).toBe(meta.startingTimeNs);
    expect(msgs[msgs.length - 1]!.logTimeNs - msgs[0]!.logTimeNs).toBe(meta.durationNs);
    expect(meta.startingTimeNs).toBe(1585866235112411371n);
  });

  it("filters by topic and by time", async () => {
    const bag = await Bag.open(fs, dir);
    const onlyTopic = await collect(bag, { topics: ["/topic"] });
    expect(onlyTopic.map((m) => m.topic)).toEqual(Array(10).fill("/topic"));
    const all = await collect(bag);
    const start = all[5]!.logTimeNs;
    const end = all[14]!.logTimeNs;
    const window = await collect(bag, { startNs: start, endNs: end });
    expect(window.map((m) => m.logTimeNs)).toEqual(all.slice(5, 15).map((m) => m.logTimeNs));
  });
});

describe("single bag files without metadata.yaml", () => {
  it("opens talker.mcap and talker.db3 directly with the same 20 messages", async () => {
    const a = await collect(await Bag.open(fs, path.join(TALKER_MCAP, "talker.mcap")));
    const b = await collect(await Bag.open(fs, path.join(TALKER_SQLITE3, "talker.db3")));
    expect(a.map((m) => [m.topic, m.logTimeNs])).toEqual(b.map((m) => [m.topic, m.logTimeNs]));
    expect(a.map((m) => Buffer.from(m.data).toString("hex"))).toEqual(b.map((m) => Buffer.from(m.data).toString("hex")));
  });
});

describe("a .db3 bag decoded with the message registry's schemas", () => {
  it("gives the same values as with the bundled definitions", async () => {
    const reg = defaultRegistry();
    const bag = await Bag.open(fs, TALKER_SQLITE3, { lookupSchema: (t) => reg.ros2msgText(t) });
    const dec = new MessageDecoder();
    const strings: string[] = [];
    for await (const m of bag.messages({ topics: ["/topic"] })) strings.push(dec.decode<{ data: string }>(m.channel, m.data).data);
    expect(strings).toEqual(Array.from({ length: 10 }, (_, i) => `Hello, world! ${i}`));
  });
});
