/**
 * Student with `policyReadsDetections`: the policy head reads the detection head's obstacle-class
 * probabilities max-pooled to the 4x4 policy grid, so (1) its size grows by exactly 4*4*3 inputs
 * to the first policy layer, (2) the action logits change when only the detection head changes
 * (and do not without the flag), and (3) model files keep the flag and refuse a non-boolean value.
 */
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { buildImageInput, initBackend, NUM_DETECTION_CLASSES, STATE_DIM, Student } from "../../src/harness";
import { loadStudent, saveModel, ModelFileError, modelPaths } from "../../src/harness/modelfile";
import { POLICY_POOL_GRID } from "../../src/harness/models/Student";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const cfg = { channels: [4, 4, 4, 8] as const, policyHidden: [16], seed: 2 };

function actionLogits(s: Student, image: tf.Tensor4D): Float32Array {
  return tf.tidy(() => s.forward({ image, state: tf.zeros([1, STATE_DIM]) }).actionLogits.dataSync<"float32">().slice());
}

describe("student policy reading the detections", () => {
  it("adds exactly 4x4x3 inputs to the first policy layer", () => {
    const plain = new Student(cfg);
    const reads = new Student({ ...cfg, policyReadsDetections: true });
    try {
      expect(reads.parameterCount() - plain.parameterCount()).toBe(POLICY_POOL_GRID * POLICY_POOL_GRID * (NUM_DETECTION_CLASSES - 1) * 16);
    } finally {
      plain.dispose();
      reads.dispose();
    }
  });

  it("changes the action logits when only the detection head changes, and not without the flag", () => {
    const image = tf.tidy(() => buildImageInput(tf.randomUniform<tf.Rank.R4>([1, 64, 64, 3], 0, 1, "float32", 3)));
    for (const flag of [true, false]) {
      const s = new Student({ ...cfg, policyReadsDetections: flag });
      try {
        const before = actionLogits(s, image);
        // push every cell toward "wire": only det/b changes
        s.params.get("det/b").assign(tf.tensor1d([0, 3, 0, 0]));
        const after = actionLogits(s, image);
        const moved = Math.max(...Array.from(before, (v, i) => Math.abs(v - after[i]!)));
        if (flag) expect(moved).toBeGreaterThan(1e-4);
        else expect(moved).toBe(0);
      } finally {
        s.dispose();
      }
    }
    image.dispose();
  });

  it("round-trips the flag through model files and refuses a non-boolean", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "dh-student-det-"));
    const s = new Student({ ...cfg, policyReadsDetections: true });
    try {
      await saveModel(path.join(dir, "m"), s, { scenario: "default", seed: 1, notes: "test" });
      const { model, manifest } = await loadStudent(path.join(dir, "m"));
      expect(manifest.config.policyReadsDetections).toBe(true);
      expect(model.parameterCount()).toBe(s.parameterCount());
      model.dispose();
      const p = modelPaths(path.join(dir, "m"), "student");
      const json = JSON.parse(await fs.readFile(p.modelJson, "utf8")) as { manifest?: { config: Record<string, unknown> } } & Record<string, unknown>;
      const text = JSON.stringify(json).replace('"policyReadsDetections":true', '"policyReadsDetections":"yes"');
      await fs.writeFile(p.modelJson, text);
      await expect(loadStudent(path.join(dir, "m"))).rejects.toThrow(ModelFileError);
      await expect(loadStudent(path.join(dir, "m"))).rejects.toThrow(/config.policyReadsDetections="yes", expected true or false/);
    } finally {
      s.dispose();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
