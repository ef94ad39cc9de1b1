/**
 * Issue 16 item 7: weights multiplied by 1e30 with the sha256 recomputed decode fine but give NaN
 * outputs (`detect` printed 4,096 NaN cells, 0 detections, exit 0). Loading now runs the model on a
 * probe input and rejects the file, naming it and the output; the committed models pass the check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ModelFileError, initBackend, loadHarness, loadStudent } from "../../src/harness";
import { sha256Hex } from "../../src/harness/modelfile/modelFileCodec";
import { countNonFinite } from "../../src/harness/modelfile/checkFiniteOutputs";

const MODELS = join(__dirname, "../../models");

/** A copy of models/<kind>.* in a fresh directory with every weight multiplied by `factor` and the sha256 updated. */
function scaledCopy(kind: "student" | "harness", factor: number): string {
  const dir = mkdtempSync(join(tmpdir(), "dh-finite-"));
  const bin = new Float32Array(new Uint8Array(readFileSync(join(MODELS, `${kind}.weights.bin`))).buffer.slice(0));
  for (let i = 0; i < bin.length; i++) bin[i] = bin[i]! * factor;
  const bytes = new Uint8Array(bin.buffer);
  writeFileSync(join(dir, `${kind}.weights.bin`), bytes);
  const json = JSON.parse(readFileSync(join(MODELS, `${kind}.model.json`), "utf8")) as { userDefinedMetadata: { droneHarness: { weightsSha256: string } } };
  json.userDefinedMetadata.droneHarness.weightsSha256 = sha256Hex(bytes);
  writeFileSync(join(dir, `${kind}.model.json`), JSON.stringify(json));
  return dir;
}

describe("finite-output check at load", () => {
  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
  });

  // The issue's repro: harness weights x1e30. (The committed student's outputs stay finite at x1e30.)
  it.each(["harness"] as const)("rejects the %s model with weights x1e30, naming the weights file and the output", async (kind) => {
    const dir = scaledCopy(kind, 1e30);
    try {
      const load = kind === "harness" ? loadHarness(dir) : loadStudent(dir);
      await expect(load).rejects.toThrow(ModelFileError);
      await expect(kind === "harness" ? loadHarness(dir) : loadStudent(dir)).rejects.toThrow(
        new RegExp(`^${join(dir, `${kind}.weights.bin`).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: output \\w+ has \\d+ of \\d+ values NaN or infinite on the probe input`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads the committed harness unchanged and a copy scaled by 1 (the check passes finite models)", async () => {
    const dir = scaledCopy("harness", 1);
    try {
      expect((await loadHarness(dir)).model.parameterCount()).toBe((await loadHarness(MODELS)).model.parameterCount());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts NaN and both infinities", () => {
    expect(countNonFinite(new Float32Array([0, NaN, Infinity, -Infinity, 1e38]))).toBe(3);
    expect(countNonFinite([])).toBe(0);
  });
});
