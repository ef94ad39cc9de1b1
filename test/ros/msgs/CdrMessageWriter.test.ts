import { MessageWriter } from "@foxglove/rosmsg2-serialization";

import { defaultRegistry } from "../../../src/ros/msgs";
import { utf8Length } from "../../../src/ros/msgs/CdrMessageWriter";
import { randomMessage } from "../graph/randomMessage";

const reg = defaultRegistry();

/** rosmsg2-serialization's writer for a type (root without constants, then its dependencies). */
function foxgloveWriter(typeName: string): MessageWriter {
  const root = reg.definition(typeName);
  const deps = reg
    .dependencies(typeName)
    .filter((d) => d !== "builtin_interfaces/msg/Time" && d !== "builtin_interfaces/msg/Duration")
    .map((d) => reg.definition(d));
  return new MessageWriter([{ name: root.name, definitions: root.definitions.filter((f) => f.isConstant !== true) }, ...deps]);
}

describe("CdrMessageWriter", () => {
  it("writes the same bytes as @foxglove/rosmsg2-serialization for ASCII messages of every type", () => {
    let compared = 0;
    for (const t of reg.typeNames()) {
      if (t.startsWith("test_msgs/")) continue; // wstring
      const fox = foxgloveWriter(t);
      for (const seed of [3, 11]) {
        const m = randomMessage(reg, t, seed);
        expect(Buffer.from(reg.serialize(t, m)).toString("hex")).toBe(Buffer.from(fox.writeMessage(m)).toString("hex"));
        compared++;
      }
      // Missing fields are written as zero/empty, as MessageWriter does.
      expect(Buffer.from(reg.serialize(t, {})).toString("hex")).toBe(Buffer.from(fox.writeMessage({})).toString("hex"));
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("writes UTF-8 strings with their byte length (rosmsg2-serialization 3.1.0 truncates them)", () => {
    const text = "导线 ahead, größe ✓ 🚁";
    const bytes = reg.serialize("std_msgs/msg/String", { data: text });
    const utf8 = Buffer.from(text, "utf8");
    expect(utf8Length(text)).toBe(utf8.length);
    // header, uint32 length (bytes + NUL), bytes, NUL
    expect(Buffer.from(bytes).subarray(4, 8).readUInt32LE(0)).toBe(utf8.length + 1);
    expect(Buffer.from(bytes).subarray(8, 8 + utf8.length).equals(utf8)).toBe(true);
    expect(bytes.length).toBe(8 + utf8.length + 1);
    const log = { ...reg.defaultMessage<Record<string, unknown>>("rcl_interfaces/msg/Log"), name: "节点", msg: "电线 3 m", line: 77 };
    expect(reg.deserialize("rcl_interfaces/msg/Log", reg.serialize("rcl_interfaces/msg/Log", log))).toEqual(log);
  });

  it("rejects a fixed-length array of the wrong length, naming the field", () => {
    const imu = reg.defaultMessage<Record<string, unknown>>("sensor_msgs/msg/Imu");
    imu.orientation_covariance = [1, 2, 3];
    expect(() => reg.serialize("sensor_msgs/msg/Imu", imu)).toThrow("expected 9 items for fixed-length array field orientation_covariance, got 3");
  });
});
