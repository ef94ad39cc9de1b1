import * as fs from "node:fs";
import * as path from "node:path";

import type { MessageDefinition } from "@foxglove/message-definition";
import { parse } from "@foxglove/rosmsg";

// The bag module's CommonJS shim for @mcap/core and @mcap/support (their typings are ESM-only).
import { loadDecompressHandlers, McapIndexedReader } from "../../../src/bag/mcap";

import { defaultRegistry } from "../../../src/ros/msgs";

// Real ROS 2 bytes: the rosbag2 talker bag (ros2/rosbag2 test resources, see
// ../shared/fixtures/rosbag2/README.md): 10 std_msgs/String and 10 rcl_interfaces/Log messages.
const FIXTURE = path.resolve(__dirname, "../../../../shared/fixtures/rosbag2/talker-mcap/talker.mcap");

type FixtureMessage = { topic: string; schemaName: string; data: Uint8Array };

async function readFixture(): Promise<{ messages: FixtureMessage[]; schemas: Map<string, string> }> {
  const buf = fs.readFileSync(FIXTURE);
  const reader = await McapIndexedReader.Initialize({
    readable: { size: async () => BigInt(buf.length), read: async (offset, length) => buf.subarray(Number(offset), Number(offset + length)) },
    decompressHandlers: await loadDecompressHandlers(),
  });
  const schemas = new Map<string, string>();
  for (const s of reader.schemasById.values()) schemas.set(s.name, new TextDecoder().decode(s.data));
  const messages: FixtureMessage[] = [];
  for await (const m of reader.readMessages()) {
    const channel = reader.channelsById.get(m.channelId);
    const schema = channel === undefined ? undefined : reader.schemasById.get(channel.schemaId);
    messages.push({ topic: channel?.topic ?? "", schemaName: schema?.name ?? "", data: m.data });
  }
  return { messages, schemas };
}

/**
 * Offsets of CDR alignment padding bytes in a serialized message (XCDR1 as ROS 2 uses it: every
 * primitive aligned to its size relative to the end of the 4-byte encapsulation header, strings
 * and sequence lengths to 4). Written for this test from the OMG CDR rules.
 */
function paddingOffsets(typeName: string, bytes: Uint8Array): Set<number> {
  const reg = defaultRegistry();
  const pads = new Set<number>();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 4;
  const align = (n: number): void => {
    while ((pos - 4) % n !== 0) pads.add(pos++);
  };
  const sizes: Record<string, number> = { bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8 };
  const readString = (): void => {
    align(4);
    const len = view.getUint32(pos, true);
    pos += 4 + len;
  };
  const walk = (def: MessageDefinition): void => {
    for (const f of def.definitions) {
      if (f.isConstant === true) continue;
      const one = (): void => {
        if (f.isComplex === true) walk(reg.definition(f.type));
        else if (f.type === "string") readString();
        else if (f.type === "time" || f.type === "duration") {
          align(4);
          pos += 8;
        } else {
          const s = sizes[f.type] ?? 1;
          align(s);
          pos += s;
        }
      };
      if (f.isArray === true) {
        let n = f.arrayLength;
        if (n === undefined) {
          align(4);
          n = view.getUint32(pos, true);
          pos += 4;
        }
        for (let i = 0; i < n; i++) one();
      } else {
        one();
      }
    }
  };
  walk(reg.definition(typeName));
  return pads;
}

describe("CDR bytes against real ROS 2 bytes (talker.mcap)", () => {
  it("decodes every message and re-encodes it to identical bytes, except uninitialised padding", async () => {
    const reg = defaultRegistry();
    const { messages } = await readFixture();
    expect(messages).toHaveLength(20);
    const strings: string[] = [];
    const withDirtyPadding: Array<{ topic: string; offsets: number[]; length: number }> = [];
    for (const m of messages) {
      const decoded = reg.deserialize(m.schemaName, m.data);
      if (m.schemaName === "std_msgs/msg/String") strings.push((decoded as { data: string }).data);
      const again = reg.serialize(m.schemaName, decoded);
      expect(again.length).toBe(m.data.length);
      const diffs: number[] = [];
      for (let i = 0; i < again.length; i++) if (again[i] !== m.data[i]) diffs.push(i);
      if (diffs.length > 0) {
        // Every differing byte must be alignment padding, and the fields must be equal.
        const pads = paddingOffsets(m.schemaName, m.data);
        expect(diffs.filter((d) => !pads.has(d))).toEqual([]);
        expect(reg.deserialize(m.schemaName, again)).toEqual(decoded);
        withDirtyPadding.push({ topic: m.topic, offsets: diffs, length: m.data.length });
      }
    }
    expect(strings).toEqual(Array.from({ length: 10 }, (_, i) => `Hello, world! ${i}`));
    // The fixture README: 2 of the 20 messages carry non-zero padding.
    expect(withDirtyPadding).toHaveLength(2);
    expect(withDirtyPadding.every((d) => d.topic === "/rosout")).toBe(true);
    // Byte 171 is the alignment padding between the `function` string and the uint32 `line`
    // (line is the last field: bytes 172..175 of the 176-byte message).
    expect(withDirtyPadding.map((d) => d.offsets)).toEqual([[171], [171]]);
    expect(withDirtyPadding.map((d) => d.length)).toEqual([176, 176]);
  });

  it("decodes the Log fields as rcl_interfaces/msg/Log", async () => {
    const { messages } = await readFixture();
    const log = messages.find((m) => m.topic === "/rosout");
    const decoded = defaultRegistry().deserialize<{ level: number; name: string; msg: string; stamp: { sec: number } }>(
      "rcl_interfaces/msg/Log",
      log?.data ?? new Uint8Array(),
    );
    expect(decoded.level).toBe(20);
    expect(decoded.name).toBe("minimal_publisher");
    expect(decoded.msg).toMatch(/^Publishing: 'Hello, world! \d'$/);
    expect(decoded.stamp.sec).toBeGreaterThan(1_585_866_000);
  });

  it("writes ros2msg schemas that parse to the fixture's definitions, same dependency names and order", async () => {
    const { schemas } = await readFixture();
    const reg = defaultRegistry();
    for (const [name, fixtureText] of schemas) {
      const ours = reg.ros2msgText(name);
      const headers = (t: string): string[] => [...new Set(t.split("\n").filter((l) => l.startsWith("MSG: ")))];
      expect(headers(ours)).toEqual(headers(fixtureText));
      const strip = (defs: MessageDefinition[]): unknown =>
        defs.map((d) => ({ name: d.name, fields: d.definitions.map((f) => [f.name, f.type, f.isArray ?? false, f.isConstant ?? false, f.value]) }));
      expect(strip(parse(ours, { ros2: true }))).toEqual(strip(parse(fixtureText, { ros2: true })));
    }
  });
});
