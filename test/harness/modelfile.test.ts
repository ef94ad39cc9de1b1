/**
 * Model files: round trip through the fs adapter, and every validation error names the file and
 * the problem (bad hash, NaN weight, wrong shape, truncated bin, missing file, oversized, code in
 * modelTopology) (issue 5 item 6 tests).
 */
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { HarnessNet, ModelFileError, Student, initBackend, loadHarness, loadStudent, modelPaths, saveModel, sha256Hex } from "../../src/harness";

let dir: string;
const training = { scenario: "test.yaml", seed: 42 };

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "dh-modelfile-"));
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

type Json = { weightsManifest: { weights: { name: string; shape: number[] }[] }[]; userDefinedMetadata: { droneHarness: Record<string, unknown> }; modelTopology: unknown };

async function freshHarness(sub: string): Promise<{ d: string; json: Json; bin: Buffer }> {
  const d = path.join(dir, sub);
  const h = new HarnessNet({ seed: 5 });
  await saveModel(d, h, training);
  h.dispose();
  const p = modelPaths(d, "harness");
  return { d, json: JSON.parse(await fs.readFile(p.modelJson, "utf8")) as Json, bin: await fs.readFile(p.weightsBin) };
}

async function expectLoadError(d: string, file: "json" | "bin", problem: string): Promise<void> {
  const p = modelPaths(d, "harness");
  const err = await loadHarness(d).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelFileError);
  const e = err as ModelFileError;
  expect(e.file).toBe(file === "json" ? p.modelJson : p.weightsBin);
  expect(e.message).toContain(problem);
}

describe("model files", () => {
  it("round-trips a student with its manifest", async () => {
    const s = new Student({ policyHidden: [16], seed: 3 });
    const saved = await saveModel(path.join(dir, "rt"), s, training);
    expect(saved.manifest.kind).toBe("student");
    expect(saved.manifest.parameterCount).toBe(s.parameterCount());
    expect(saved.manifest.training).toEqual(training);
    expect(saved.manifest.weightsSha256).toBe(sha256Hex(await fs.readFile(saved.weightsBin)));
    const { model, manifest } = await loadStudent(path.join(dir, "rt"));
    expect(manifest.config).toEqual({ channels: [12, 24, 48, 64], policyHidden: [16], seed: 3, policyReadsDetections: false });
    for (const name of s.params.names()) {
      expect(model.params.get(name).dataSync()).toEqual(s.params.get(name).dataSync());
    }
    const json = JSON.parse(await fs.readFile(saved.modelJson, "utf8")) as Json;
    expect(json.modelTopology).toBeNull();
    model.dispose();
    s.dispose();
  });

  it("is a tfjs weights artifact: tf.io.decodeWeights reads the .bin with the manifest's specs", async () => {
    const { d, json, bin } = await freshHarness("tfjs");
    const specs = json.weightsManifest[0]?.weights.map((w) => ({ ...w, dtype: "float32" as const })) ?? [];
    const ab = new Uint8Array(bin).buffer;
    const decoded = tf.io.decodeWeights(ab, specs);
    const { model } = await loadHarness(d);
    for (const name of model.params.names()) {
      expect(decoded[name]?.dataSync()).toEqual(model.params.get(name).dataSync());
    }
    tf.dispose(Object.values(decoded));
    model.dispose();
  });

  it("rejects a bin whose hash does not match", async () => {
    const { d, bin } = await freshHarness("hash");
    bin[100] = (bin[100] ?? 0) ^ 1;
    await fs.writeFile(modelPaths(d, "harness").weightsBin, bin);
    await expectLoadError(d, "bin", "does not match the manifest's");
  });

  it("rejects NaN weights even with a matching hash", async () => {
    const { d, json, bin } = await freshHarness("nan");
    new DataView(bin.buffer, bin.byteOffset, bin.byteLength).setFloat32(8, Number.NaN, true);
    json.userDefinedMetadata.droneHarness.weightsSha256 = sha256Hex(bin);
    const p = modelPaths(d, "harness");
    await fs.writeFile(p.weightsBin, bin);
    await fs.writeFile(p.modelJson, JSON.stringify(json));
    await expectLoadError(d, "bin", "element 2 is NaN");
  });

  it("rejects a weight of the wrong shape", async () => {
    const { d, json } = await freshHarness("shape");
    const w = json.weightsManifest[0]?.weights.find((x) => x.name === "encoder/sensor/w");
    expect(w?.shape).toEqual([16, 64]);
    if (w !== undefined) w.shape = [64, 16];
    await fs.writeFile(modelPaths(d, "harness").modelJson, JSON.stringify(json));
    await expectLoadError(d, "json", `weight "encoder/sensor/w" has shape [64,16], expected [16,64]`);
  });

  it("rejects a truncated bin before reading it", async () => {
    const { d, bin } = await freshHarness("trunc");
    await fs.writeFile(modelPaths(d, "harness").weightsBin, bin.subarray(0, bin.length - 4));
    await expectLoadError(d, "bin", `is ${bin.length - 4} bytes, expected ${bin.length}`);
    await expectLoadError(d, "bin", "truncated");
  });

  it("reports a missing file", async () => {
    const { d } = await freshHarness("missing");
    await fs.rm(modelPaths(d, "harness").weightsBin);
    await expectLoadError(d, "bin", "file is missing");
    await expectLoadError(path.join(dir, "nowhere"), "json", "file is missing");
  });
});

describe("model files: refused before allocating", () => {
  it("refuses a config that describes a larger model than the weights in the file, before allocating it", async () => {
    const d = path.join(dir, "bigconfig");
    const s = new Student({ policyHidden: [8], seed: 1 });
    await saveModel(d, s, training);
    s.dispose();
    const p = modelPaths(d, "student");
    const json = JSON.parse(await fs.readFile(p.modelJson, "utf8")) as Json;
    // 16,400 x 8,192 x 4 layers would be over 400M parameters.
    json.userDefinedMetadata.droneHarness.config = { channels: [12, 24, 48, 1024], policyHidden: [8192, 8192, 8192, 8192], seed: 1 };
    await fs.writeFile(p.modelJson, JSON.stringify(json));
    const before = tf.memory().numTensors;
    const err = await loadStudent(d).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelFileError);
    expect(String(err)).toContain("describes a model larger than the");
    expect(String(err)).toContain("over the remaining parameter budget");
    expect(tf.memory().numTensors).toBe(before);
  });

  it("caps the weight size before allocating and refuses a model topology", async () => {
    const { d, json } = await freshHarness("cap");
    const p = modelPaths(d, "harness");
    const err = await loadHarness(d, { maxWeightBytes: 1000 }).catch((e: unknown) => e);
    expect(String(err)).toContain("over the 1000-byte limit");
    json.modelTopology = { class_name: "Sequential", config: { layers: [{ class_name: "Lambda" }] } };
    await fs.writeFile(p.modelJson, JSON.stringify(json));
    await expectLoadError(d, "json", "modelTopology must be null");
    await fs.writeFile(p.modelJson, "{not json");
    await expectLoadError(d, "json", "not valid JSON");
    tf.disposeVariables();
  });
});
