import { EmbeddedGraph, QOS_SENSOR_DATA } from "../../../src/ros/graph";
import type { Msg } from "../../../src/ros/msgs/generated";
import { randomMessage } from "./randomMessage";

// SPEC.md "Topic contract": every message type on the package's topics.
const CONTRACT_TYPES = [
  "sensor_msgs/msg/Image",
  "sensor_msgs/msg/CameraInfo",
  "sensor_msgs/msg/Imu",
  "sensor_msgs/msg/NavSatFix",
  "geometry_msgs/msg/TwistStamped",
  "rosgraph_msgs/msg/Clock",
  "vision_msgs/msg/Detection2DArray",
  "drone_harness_msgs/msg/HarnessCorrection",
  "drone_harness_msgs/msg/StudentOutput",
  "diagnostic_msgs/msg/DiagnosticArray",
  "rcl_interfaces/msg/Log",
  "px4_msgs/msg/TrajectorySetpoint",
  "px4_msgs/msg/OffboardControlMode",
];

describe("round trip of every topic-contract type through publisher and subscriber", () => {
  it.each(CONTRACT_TYPES)("%s: intra-process, CDR-forced, and raw bytes", (typeName) => {
    for (const intraProcess of [true, false]) {
      const g = new EmbeddedGraph({ stderrLevel: "silent", intraProcess });
      const node = g.createNode("rt");
      const typed: unknown[] = [];
      const raw: Array<{ bytes: Uint8Array; type: string }> = [];
      node.createSubscription(typeName, "/contract", {}, (m) => typed.push(m));
      g.subscribeRaw("/contract", (bytes, type) => raw.push({ bytes, type }));
      const msgs = [1, 2, 3].map((seed) => randomMessage(g.registry, typeName, seed));
      const pub = node.createPublisher(typeName, "/contract");
      for (const m of msgs) pub.publish(m);
      g.spinUntilIdle();
      expect(typed).toEqual(msgs);
      expect(raw.map((r) => r.type)).toEqual([typeName, typeName, typeName]);
      expect(raw.map((r) => g.registry.deserialize(typeName, r.bytes))).toEqual(msgs);
      // Raw bytes published back come out decoded for typed subscribers.
      typed.length = 0;
      for (const r of raw) g.publishRaw("/contract", typeName, r.bytes);
      g.spinUntilIdle();
      expect(typed).toEqual(msgs);
    }
  });

  it("carries a 256x256 rgb8 Image unchanged, sharing the pixel buffer in-process", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    const cam = g.createNode("camera");
    const data = new Uint8Array(256 * 256 * 3);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) & 0xff;
    const img: Msg<"sensor_msgs/msg/Image"> = {
      header: { stamp: { sec: 12, nanosec: 345 }, frame_id: "camera_optical" },
      height: 256,
      width: 256,
      encoding: "rgb8",
      is_bigendian: 0,
      step: 256 * 3,
      data,
    };
    let got: Msg<"sensor_msgs/msg/Image"> | undefined;
    g.createNode("perception").createSubscription<Msg<"sensor_msgs/msg/Image">>(
      "sensor_msgs/msg/Image",
      "/camera/image_raw",
      { qos: QOS_SENSOR_DATA },
      (m) => (got = m),
    );
    let rawLength = 0;
    g.subscribeRaw("/camera/image_raw", (bytes) => (rawLength = bytes.length), { qos: QOS_SENSOR_DATA });
    cam.createPublisher("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA }).publish(img);
    g.spinUntilIdle();
    expect(got?.data).toBe(data);
    // 4 header + 8 stamp + (4 + 15 "camera_optical\0" + 1 pad) + 4 + 4 + (4 + 5 "rgb8\0") + 1 + (2 pad) + 4 + 4 + 196608
    expect(rawLength).toBe(4 + 8 + 20 + 8 + 9 + 1 + 2 + 4 + 4 + 196608);
  });
});
