import { createPerceptionNode } from "../../nodes/perception";
import type { StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import type { Detection2DArray } from "../../src/control/visionTypes";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { FakeGraph } from "./FakeGraph";
import { FakeDetector, MS, image } from "./fixtures";

async function setup(over: Record<string, string | number | boolean | string[]> = {}) {
  const graph = new FakeGraph();
  const detector = new FakeDetector();
  const launched = await createPerceptionNode({ createDetector: () => detector })(graph, {
    name: "perception",
    namespace: "/",
    parameterOverrides: over,
    remappings: {},
  });
  return { graph, detector, launched };
}

describe("perception node", () => {
  it("is silent until active, then publishes obstacles_raw and student_output with the image header (golden)", async () => {
    const { graph, detector, launched } = await setup();
    graph.advanceTo(1000n * MS);
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", image(1000n * MS));
    expect(graph.sent).toHaveLength(0);
    await activateIfLifecycle(launched);
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", image(1000n * MS));
    expect(detector.calls).toBe(1);
    const raw = graph.messagesOn<Detection2DArray>("/harness/obstacles_raw");
    expect(raw).toHaveLength(1);
    // Golden: the fake wire spans cells row 10, cols 4..20 of 8x8 px -> box center (100, 84), 136 x 8.
    expect(raw[0]).toMatchObject({
      header: { stamp: { sec: 1, nanosec: 0 }, frame_id: "camera_optical" },
      detections: [
        {
          header: { stamp: { sec: 1, nanosec: 0 }, frame_id: "camera_optical" },
          results: [{ hypothesis: { class_id: "wire" } }],
          bbox: { center: { position: { x: 100, y: 84 }, theta: 0 }, size_x: 136, size_y: 8 },
        },
      ],
    });
    expect(raw[0]!.detections[0]!.results[0]!.hypothesis.score).toBeCloseTo(0.9, 6);
    const so = graph.messagesOn<StudentOutputMsg>("/harness/student_output");
    expect(so).toHaveLength(1);
    expect(so[0]!.corrected).toBe(false);
    expect(so[0]!.header).toEqual({ stamp: { sec: 1, nanosec: 0 }, frame_id: "camera_optical" });
    expect(Array.from(so[0]!.action_logits)[0]).toBeCloseTo(1.2, 6);
    expect([so[0]!.grid_rows, so[0]!.grid_cols, so[0]!.image_width]).toEqual([32, 32, 256]);
  });

  it("uses sensor-data QoS for the camera and reliable QoS for its outputs; declares parameters with defaults", async () => {
    const { graph, launched } = await setup();
    await activateIfLifecycle(launched);
    expect(graph.subs.find((s) => s.topic === "/camera/image_raw")!.qos).toEqual(QOS_SENSOR_DATA);
    expect(graph.pubs.find((p) => p.topic === "/harness/obstacles_raw")!.qos).toEqual(QOS_DEFAULT);
    expect(graph.pubs.find((p) => p.topic === "/harness/student_output")!.qos).toEqual(QOS_DEFAULT);
    expect(launched.node.getParameter("score_threshold").value).toBe(0.5);
    // 0 = any camera resolution (issue 14); camera/camera_info then fixes the size.
    expect(launched.node.getParameter("expected_width").value).toBe(0);
  });

  it("follows remapping and namespace (relative topic names)", async () => {
    const graph = new FakeGraph();
    const launched = await createPerceptionNode({ createDetector: () => new FakeDetector() })(graph, {
      name: "perception",
      namespace: "/uav1",
      parameterOverrides: {},
      remappings: { "camera/image_raw": "/front/image" },
    });
    await activateIfLifecycle(launched);
    graph.inject("/front/image", "sensor_msgs/msg/Image", image(0n));
    expect(graph.messagesOn("/uav1/harness/obstacles_raw")).toHaveLength(1);
  });
});

describe("perception node: bad input and a missing model", () => {
  it("drops and counts bad images (encoding, size, step, duplicate stamp) and keeps running", async () => {
    const { graph, detector, launched } = await setup({ expected_width: 256, expected_height: 256 });
    await activateIfLifecycle(launched);
    graph.advanceTo(100n * MS);
    const inject = (m: ReturnType<typeof image>) => graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", m);
    inject(image(10n * MS, { encoding: "yuv422" }));
    inject(image(11n * MS, { width: 128, step: 384, data: new Uint8Array(384 * 256) }));
    inject(image(12n * MS, { data: new Uint8Array(10) }));
    inject(image(13n * MS));
    inject(image(13n * MS));
    for (let i = 0; i < 50; i++) inject(image(14n * MS, { encoding: "yuv422" }));
    expect(detector.calls).toBe(1);
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(1);
    // One log line per (topic, reason) burst, not per message.
    const warns = graph.logs.filter((l) => l.level === "warn");
    expect(warns.filter((l) => l.message.includes("unsupported_encoding"))).toHaveLength(1);
    expect(warns.map((l) => l.message.match(/\((\w+)\)/)?.[1]).sort()).toEqual(["bad_step", "duplicate", "resolution", "unsupported_encoding"]);
    // Counted in /diagnostics (1 Hz timer).
    graph.advance(1000n * MS);
    const diag = graph.messagesOn<{ status: Array<{ values: Array<{ key: string; value: string }> }> }>("/diagnostics");
    expect(diag.length).toBeGreaterThan(0);
    const values = diag.at(-1)!.status[0]!.values;
    expect(values).toContainEqual({ key: "drops/camera/image_raw:unsupported_encoding", value: "51" });
    expect(values).toContainEqual({ key: "state", value: "active" });
  });

  it("fails configure with a logged reason when the model cannot be created", async () => {
    const graph = new FakeGraph();
    const launched = await createPerceptionNode({ createDetector: () => { throw new Error("model file missing"); } })(graph, {
      name: "perception", namespace: "/", parameterOverrides: {}, remappings: {},
    });
    await expect(activateIfLifecycle(launched)).rejects.toThrow("configure transition failed");
    expect(graph.logs.some((l) => l.level === "error" && l.message.includes("model file missing"))).toBe(true);
  });
});
