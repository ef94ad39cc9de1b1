import * as path from "node:path";

import { defaultRegistry, findMsgsDir, MessageRegistry, MessageValidationError, ROS2MSG_DELIMITER } from "../../../src/ros/msgs";
import { parse } from "@foxglove/rosmsg";

import { randomMessage } from "../graph/randomMessage";

const reg = defaultRegistry();

describe("MessageRegistry definitions", () => {
  it("exposes common ROS 2 types and our msgs/ files as pkg/msg/Name", () => {
    const defs = reg.definitions();
    for (const t of [
      "sensor_msgs/msg/Image",
      "rosgraph_msgs/msg/Clock",
      "rcl_interfaces/msg/Log",
      "drone_harness_msgs/msg/HarnessCorrection",
      "vision_msgs/msg/Detection2DArray",
      "px4_msgs/msg/TrajectorySetpoint",
      "px4_msgs/msg/OffboardControlMode",
    ]) {
      expect(defs.has(t)).toBe(true);
    }
  });

  it("resolves relative field types within the package", () => {
    const d = reg.definition("vision_msgs/msg/ObjectHypothesisWithPose");
    expect(d.definitions.map((f) => f.type)).toEqual(["vision_msgs/ObjectHypothesis", "geometry_msgs/PoseWithCovariance"]);
  });

  it("rejects unknown field types and duplicate types", () => {
    expect(() => new MessageRegistry({ msgFiles: [{ typeName: "a_msgs/msg/A", text: "Missing m\n" }] })).toThrow(
      "a_msgs/msg/A.m: unknown field type a_msgs/Missing",
    );
    const f = { typeName: "a_msgs/msg/A", text: "int32 x\n" };
    expect(() => new MessageRegistry({ msgFiles: [f, f] })).toThrow("defined twice");
  });

  it("names unknown types", () => {
    expect(() => reg.serialize("sensor_msgs/msg/Nope", {})).toThrow('unknown message type "sensor_msgs/msg/Nope"');
  });
});

describe("ros2msg text (rosbag2 docs/message_definition_encoding.md)", () => {
  it("lists each dependency once after 80 '=' and MSG: pkg/Name", () => {
    const text = reg.ros2msgText("rcl_interfaces/msg/Log");
    const headers = text.split("\n").filter((l) => l.startsWith("MSG: "));
    expect(headers).toEqual(["MSG: builtin_interfaces/Time"]);
    expect(text).toContain(`\nuint32 line\n${ROS2MSG_DELIMITER}\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n`);
    expect(ROS2MSG_DELIMITER).toHaveLength(80);
  });

  it("keeps our .msg files verbatim and parses back to the same definitions", () => {
    const text = reg.ros2msgText("vision_msgs/msg/Detection2DArray");
    expect(text.startsWith("# vision_msgs/msg/Detection2DArray")).toBe(true);
    const parsed = parse(text, { ros2: true });
    const byName = new Map(parsed.map((d) => [d.name ?? "", d]));
    const deps = reg.dependencies("vision_msgs/msg/Detection2DArray");
    expect(deps).toContain("geometry_msgs/msg/PoseWithCovariance");
    expect(new Set(deps).size).toBe(deps.length);
    const pose = byName.get("geometry_msgs/PoseWithCovariance");
    expect(pose?.definitions.map((f) => f.name)).toEqual(["pose", "covariance"]);
    expect(pose?.definitions[1]).toMatchObject({ type: "float64", isArray: true, arrayLength: 36 });
  });
});

describe("validation", () => {
  const img = (): Record<string, unknown> => ({ ...reg.defaultMessage("sensor_msgs/msg/Image") });

  it("names the field path and the expected type", () => {
    const m = img();
    m.data = "abc";
    expect(() => reg.validate("sensor_msgs/msg/Image", m)).toThrow(
      "sensor_msgs/msg/Image.data: expected uint8[] (Uint8Array or number[]), got string",
    );
  });

  it("reports nested paths, ranges, missing and unknown fields", () => {
    const d = reg.defaultMessage<Record<string, unknown>>("vision_msgs/msg/Detection2DArray");
    const det = reg.defaultMessage<Record<string, unknown>>("vision_msgs/msg/Detection2D");
    (det.bbox as { center: { position: { x: unknown } } }).center.position.x = "1";
    d.detections = [reg.defaultMessage("vision_msgs/msg/Detection2D"), det];
    expect(() => reg.validate("vision_msgs/msg/Detection2DArray", d)).toThrow(
      "vision_msgs/msg/Detection2DArray.detections[1].bbox.center.position.x: expected float64 (number), got string",
    );
    const m = img();
    m.height = 300.5;
    expect(() => reg.validate("sensor_msgs/msg/Image", m)).toThrow("sensor_msgs/msg/Image.height: expected uint32 (integer 0..4294967295), got number 300.5");
    const n = img();
    delete n.step;
    expect(() => reg.validate("sensor_msgs/msg/Image", n)).toThrow("sensor_msgs/msg/Image.step: expected uint32 (integer 0..4294967295), got undefined");
    const h = reg.defaultMessage<Record<string, unknown>>("drone_harness_msgs/msg/HarnessCorrection");
    h.lambda = 0.3;
    expect(() => reg.validate("drone_harness_msgs/msg/HarnessCorrection", h)).toThrow(
      "drone_harness_msgs/msg/HarnessCorrection.lambda: not a field of drone_harness_msgs/msg/HarnessCorrection",
    );
  });

  it("checks typed array kind and fixed lengths, not elements", () => {
    const imu = reg.defaultMessage<Record<string, unknown>>("sensor_msgs/msg/Imu");
    imu.orientation_covariance = new Float32Array(9);
    expect(() => reg.validate("sensor_msgs/msg/Imu", imu)).toThrow(
      "sensor_msgs/msg/Imu.orientation_covariance: expected float64[9] (Float64Array or number[] of length 9), got Float32Array(9)",
    );
    imu.orientation_covariance = [0, 0, 0];
    expect(() => reg.validate("sensor_msgs/msg/Imu", imu)).toThrow("got array(3)");
    imu.orientation_covariance = [0, 0, 0, 0, "x", 0, 0, 0, 0];
    expect(() => reg.validate("sensor_msgs/msg/Imu", imu)).toThrow("sensor_msgs/msg/Imu.orientation_covariance[4]: expected float64 (number), got string");
  });

  it("requires bigint for 64-bit integers", () => {
    const t = reg.defaultMessage<Record<string, unknown>>("px4_msgs/msg/TrajectorySetpoint");
    t.timestamp = 5;
    expect(() => reg.validate("px4_msgs/msg/TrajectorySetpoint", t)).toThrow(
      "px4_msgs/msg/TrajectorySetpoint.timestamp: expected uint64 (bigint 0..18446744073709551615), got number 5",
    );
  });

  it("throws MessageValidationError with the path", () => {
    try {
      reg.validate("std_msgs/msg/String", { data: 1 });
      throw new Error("no throw");
    } catch (e) {
      expect(e).toBeInstanceOf(MessageValidationError);
      expect((e as MessageValidationError).path).toBe("std_msgs/msg/String.data");
    }
  });
});

describe("default messages", () => {
  it("validates and round-trips through CDR for every known type", () => {
    for (const t of reg.typeNames()) {
      if (t.startsWith("test_msgs/")) continue; // test_msgs/Builtins holds wstring, which CDR writers reject
      const m = reg.defaultMessage(t);
      reg.validate(t, m);
      const back = reg.deserialize(t, reg.serialize(t, m));
      expect(back).toEqual(m);
    }
  });
});

describe("random messages of every type", () => {
  it("validate and survive a CDR round trip unchanged (3 seeds per type)", () => {
    // randomMessage sets every field to a non-default, CDR-exact value (see its doc comment).
    let checked = 0;
    for (const t of reg.typeNames()) {
      if (t.startsWith("test_msgs/")) continue; // wstring fields: not writable as CDR by rosmsg2-serialization
      for (const seed of [1, 7, 99]) {
        const m = randomMessage(reg, t, seed);
        reg.validate(t, m);
        expect(reg.deserialize(t, reg.serialize(t, m))).toEqual(m);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400);
  });
});

describe("findMsgsDir", () => {
  it("finds the repository's msgs/ from this file and honours DRONE_HARNESS_MSGS_DIR", () => {
    const repoMsgs = path.resolve(__dirname, "../../../msgs");
    expect(findMsgsDir(__dirname, {})).toBe(repoMsgs);
    expect(findMsgsDir("/", { DRONE_HARNESS_MSGS_DIR: repoMsgs })).toBe(repoMsgs);
    expect(() => findMsgsDir(__dirname, { DRONE_HARNESS_MSGS_DIR: "/nonexistent" })).toThrow("DRONE_HARNESS_MSGS_DIR=/nonexistent has no msg/ folder");
    expect(() => findMsgsDir("/", {})).toThrow("msgs/ folder not found above /");
  });
});
