import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as tf from "@tensorflow/tfjs";

import { NODE_REGISTRY } from "../../nodes";
import type { StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { saveModel } from "../../src/harness/modelfile";
import { HarnessNet } from "../../src/harness/models/HarnessNet";
import { Student } from "../../src/harness/models/Student";
import { Teacher } from "../../src/harness/models/Teacher";
import type { Detection2DArray } from "../../src/control/visionTypes";
import { MS } from "./fixtures";
import { SimRig } from "./SimRig";

describe("NODE_REGISTRY (file-backed models)", () => {
  let dir: string;
  beforeAll(async () => {
    await tf.setBackend("cpu");
    dir = mkdtempSync(join(tmpdir(), "dh-models-"));
    await saveModel(dir, new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 2 }), { scenario: "test", seed: 2 });
    await saveModel(dir, new HarnessNet({ seed: 3 }), { scenario: "test", seed: 3 });
    // A tiny pipeline detector (class + near-threat logits) beside them, as models/pipeline/student.
    await saveModel(dir, new Teacher({ channels: [4, 4, 4], headHidden: 4, threatLogit: true, seed: 4 }), { scenario: "test", seed: 4 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("registers the node executables", () => {
    expect(Object.keys(NODE_REGISTRY).sort()).toEqual(["controller", "harness", "odom_to_gps_vel", "perception", "safety", "sim"]);
  });

  it("loads the student and harness from model_dir and runs them on camera frames", async () => {
    const r = new SimRig();
    const size = { expected_width: 256, expected_height: 256, model_dir: dir };
    await r.add(NODE_REGISTRY.perception!, "perception", { ...size, detector: "policy" });
    await r.add(NODE_REGISTRY.harness!, "harness", size);
    const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
    const raw = r.record<Detection2DArray>("/harness/obstacles_raw", "vision_msgs/msg/Detection2DArray");
    r.runTo(100n * MS);
    expect(raw.length).toBeGreaterThanOrEqual(3);
    expect(policy.length).toBe(raw.length);
    expect(policy.at(-1)!.msg.grid_rows).toBe(32);
    expect(policy.at(-1)!.msg.state).toHaveLength(16);
    await r.shutdown();
  });

  it("runs the harness with the imagined rollout (imagined_rollout: true, OpenCV optical flow)", async () => {
    const r = new SimRig();
    const size = { expected_width: 256, expected_height: 256, model_dir: dir };
    await r.add(NODE_REGISTRY.perception!, "perception", { ...size, detector: "policy" });
    await r.add(NODE_REGISTRY.harness!, "harness", { ...size, imagined_rollout: true });
    const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
    r.runTo(130n * MS);
    expect(policy.length).toBeGreaterThanOrEqual(4);
    await r.shutdown();
  });

  it("loads the pipeline detector (the default) and passes its class and threat cells through the harness", async () => {
    const r = new SimRig();
    const size = { expected_width: 256, expected_height: 256, model_dir: dir };
    await r.add(NODE_REGISTRY.perception!, "perception", size);
    // No spatial harness in this folder: the harness node passes the pipeline cells through.
    await r.add(NODE_REGISTRY.harness!, "harness", { ...size, spatial_harness_dir: join(dir, "no-spatial-harness") });
    const student = r.record<StudentOutputMsg>("/harness/student_output", "drone_harness_msgs/msg/StudentOutput");
    const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
    r.runTo(100n * MS);
    expect(policy.length).toBeGreaterThanOrEqual(3);
    const s = student.at(-1)!.msg, p = policy.at(-1)!.msg;
    expect(s.action_logits).toHaveLength(0);
    expect(s.threat_probs).toHaveLength(32 * 32);
    expect(s.cell_probs).toHaveLength(32 * 32 * 4);
    for (const v of s.threat_probs) expect(v >= 0 && v <= 1).toBe(true);
    // Without a spatial harness the cells reach the controller unchanged, not flagged corrected.
    expect(p.corrected).toBe(false);
    const same = student.find((m) => m.msg.header.stamp.nanosec === p.header.stamp.nanosec && m.msg.header.stamp.sec === p.header.stamp.sec)!.msg;
    expect(Array.from(p.threat_probs)).toEqual(Array.from(same.threat_probs));
    expect(Array.from(p.cell_probs)).toEqual(Array.from(same.cell_probs));
    await r.shutdown();
  });

  it("fails configure with the missing file named when model_dir has no models", async () => {
    const r = new SimRig();
    await expect(r.add(NODE_REGISTRY.perception!, "perception", { model_dir: join(dir, "nope") })).rejects.toThrow("configure transition failed");
    await r.shutdown();
  });
});
