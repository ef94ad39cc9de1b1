import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import * as tf from "@tensorflow/tfjs";

import { NODE_REGISTRY } from "../../nodes";
import type { StudentOutputMsg } from "../../nodes/common/studentOutputMsg";
import { saveModel } from "../../src/harness/modelfile";
import { HarnessNet } from "../../src/harness/models/HarnessNet";
import { Student } from "../../src/harness/models/Student";
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
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("registers the node executables", () => {
    expect(Object.keys(NODE_REGISTRY).sort()).toEqual(["controller", "harness", "odom_to_gps_vel", "perception", "safety", "sim"]);
  });

  it("loads the student and harness from model_dir and runs them on camera frames", async () => {
    const r = new SimRig();
    const size = { expected_width: 256, expected_height: 256, model_dir: dir };
    await r.add(NODE_REGISTRY.perception!, "perception", size);
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
    await r.add(NODE_REGISTRY.perception!, "perception", size);
    await r.add(NODE_REGISTRY.harness!, "harness", { ...size, imagined_rollout: true });
    const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
    r.runTo(130n * MS);
    expect(policy.length).toBeGreaterThanOrEqual(4);
    await r.shutdown();
  });

  it("fails configure with the missing file named when model_dir has no models", async () => {
    const r = new SimRig();
    await expect(r.add(NODE_REGISTRY.perception!, "perception", { model_dir: join(dir, "nope") })).rejects.toThrow("configure transition failed");
    await r.shutdown();
  });
});
