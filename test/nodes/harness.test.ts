import { createHarnessNode } from "../../nodes/harness";
import { createPerceptionNode } from "../../nodes/perception";
import type { StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { ACTIONS } from "../../src/harness/actions";
import type { Detection2DArray } from "../../src/control/visionTypes";
import { FakeCorrector, FakeDetector, MS, image } from "./fixtures";
import { SimRig } from "./SimRig";

async function setup() {
  const r = new SimRig();
  const corrector = new FakeCorrector();
  await r.add(createPerceptionNode({ createDetector: () => new FakeDetector() }), "perception");
  const harness = await r.add(createHarnessNode({ createCorrector: () => corrector }), "harness");
  const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
  const obstacles = r.record<Detection2DArray>("/harness/obstacles", "vision_msgs/msg/Detection2DArray");
  return { r, corrector, harness, policy, obstacles };
}

const argmax = (v: ArrayLike<number>) => Array.from(v).reduce((b, x, i, a) => (x > a[b]! ? i : b), 0);

describe("harness node", () => {
  it("publishes corrected policy and obstacles with the image header; the correction_enabled switch works at run time", async () => {
    const { r, harness, policy, obstacles } = await setup();
    r.runTo(300n * MS);
    const p = policy.at(-1)!.msg;
    expect(p.corrected).toBe(true);
    expect(ACTIONS[argmax(p.action_logits)]).toBe("climb");
    expect(Array.from(p.action_logits)[ACTIONS.indexOf("climb")]).toBeCloseTo(1.5, 6);
    expect(obstacles.at(-1)!.msg.header).toEqual({ stamp: { sec: 0, nanosec: 300_000_000 }, frame_id: "camera_optical" });
    // Zero cell delta: the corrected boxes equal the student's (the fake wire).
    expect(obstacles.at(-1)!.msg.detections[0]!.bbox.size_x).toBeCloseTo(136, 6);
    expect(harness.node.setParameters([{ name: "correction_enabled", type: "bool", value: false }])[0]!.successful).toBe(true);
    r.runTo(600n * MS);
    expect(ACTIONS[argmax(policy.at(-1)!.msg.action_logits)]).toBe("cruise");
    await r.shutdown();
  });

  it("matches a student output that arrives before its image, and drops ones whose image never comes (counted)", async () => {
    const { r, policy } = await setup();
    r.enabled.camera = false;
    r.runTo(100n * MS);
    const pub = r.graph.createNode("early").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/student_output");
    const cam = r.graph.createNode("late_cam").createPublisher("sensor_msgs/msg/Image", "/camera/image_raw");
    const so = (ns: number) => ({ header: { stamp: { sec: 0, nanosec: ns }, frame_id: "camera_optical" }, corrected: false, action_names: [...ACTIONS], action_logits: new Float32Array(7), grid_rows: 1, grid_cols: 1, class_names: ["background", "wire"], cell_probs: new Float32Array([0.2, 0.8]), state: [], pooled_size: 0, pooled_input: [], image_width: 256, image_height: 256, threat_probs: [] });
    pub.publish(so(90_000_000));
    r.graph.spinUntilIdle();
    expect(policy).toHaveLength(0);
    cam.publish(image(90n * MS));
    r.graph.spinUntilIdle();
    expect(policy).toHaveLength(1);
    expect(policy[0]!.msg.header.stamp).toEqual({ sec: 0, nanosec: 90_000_000 });
    await r.shutdown();
  });

  it("drops a student output whose image it never saw (counted as unmatched), and bad shapes", async () => {
    const { r, policy } = await setup();
    r.enabled.camera = false;
    r.runTo(100n * MS);
    const pub = r.graph.createNode("rogue").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/student_output");
    const diag = r.record<{ status: Array<{ name: string; values: Array<{ key: string; value: string }> }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    const good = { header: { stamp: { sec: 0, nanosec: 50_000_000 }, frame_id: "c" }, corrected: false, action_names: [...ACTIONS], action_logits: new Float32Array(7), grid_rows: 1, grid_cols: 1, class_names: ["background", "wire"], cell_probs: new Float32Array(2), state: [], pooled_size: 0, pooled_input: [], image_width: 8, image_height: 8, threat_probs: [] };
    // Four outputs may wait for their images; the fifth pushes the oldest out as unmatched.
    for (let k = 0; k < 5; k++) pub.publish({ ...good, header: { ...good.header, stamp: { sec: 0, nanosec: 50_000_000 + k } } });
    pub.publish({ ...good, header: { ...good.header, stamp: { sec: 0, nanosec: 60_000_000 } }, cell_probs: new Float32Array(5) });
    r.runTo(1100n * MS);
    expect(policy).toHaveLength(0);
    const values = diag.map((d) => d.msg.status.find((s) => s.name === "harness: harness")).filter((s) => s !== undefined).at(-1)!.values;
    expect(values).toContainEqual({ key: "drops/harness/student_output:unmatched", value: "1" });
    expect(values).toContainEqual({ key: "drops/harness/student_output:bad_content", value: "1" });
    await r.shutdown();
  });

  it("clears its histories (corrector.reset) when camera stamps jump backward (sim reset)", async () => {
    const { r, corrector } = await setup();
    r.runTo(3000n * MS);
    const cam = r.graph.createNode("replay").createPublisher("sensor_msgs/msg/Image", "/camera/image_raw");
    const before = corrector.resets;
    cam.publish(image(10n * MS));
    r.graph.spinUntilIdle();
    // Both the image and the student output (re-published by perception) see the jump.
    expect(corrector.resets).toBeGreaterThan(before);
    await r.shutdown();
  });
});
