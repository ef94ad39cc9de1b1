/**
 * `drone-harness soup`: the uniform weight average of detectors of one architecture (model soup),
 * written as a detector directory that loads and runs like any other.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { command, parseSoupArgs } from "../../src/cli/commands/soup";
import { initBackend } from "../../src/harness/backend/initBackend";
import { averageWeights } from "../../src/harness/layers/averageWeights";
import { loadTeacher, saveModelSync } from "../../src/harness/modelfile";
import { Teacher } from "../../src/harness/models/Teacher";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("averageWeights", () => {
  const w = (name: string, values: number[]): { name: string; shape: number[]; values: Float32Array } => ({ name, shape: [values.length], values: Float32Array.from(values) });
  it("averages every weight element by element", () => {
    const out = averageWeights([[w("a", [1, 2]), w("b", [0])], [w("a", [3, 4]), w("b", [1])], [w("a", [2, 0]), w("b", [2])]]);
    expect(out.map((x) => [x.name, Array.from(x.values)])).toEqual([["a", [2, 2]], ["b", [1]]]);
  });
  it("refuses sets of other architectures, non-finite weights and a single set", () => {
    expect(() => averageWeights([[w("a", [1, 2])], [w("a", [1, 2, 3])]])).toThrow("not one architecture");
    expect(() => averageWeights([[w("a", [1])], [w("c", [1])]])).toThrow("not one architecture");
    expect(() => averageWeights([[w("a", [1])], [w("a", [NaN])]])).toThrow("non-finite");
    expect(() => averageWeights([[w("a", [1])]])).toThrow("at least 2");
  });
});

describe("drone-harness soup", () => {
  it("writes the average of two detectors as a detector directory", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-soup-"));
    try {
      const cfg = { channels: [4, 4, 4], headHidden: 4, threatLogit: true };
      const a = new Teacher({ ...cfg, seed: 1 });
      const b = new Teacher({ ...cfg, seed: 2 });
      saveModelSync(path.join(dir, "a"), a, { scenario: "t", seed: 1 });
      saveModelSync(path.join(dir, "b"), b, { scenario: "t", seed: 2 });
      let out = "";
      const rc = await command.run(["--models", `${path.join(dir, "a")},${path.join(dir, "b")}`, "--out", path.join(dir, "s")], { out: (s: string) => void (out += s), err: () => undefined });
      expect(rc).toBe(0);
      expect(out).toContain("uniform average of 2 detectors");
      const soup = (await loadTeacher(path.join(dir, "s"))).model;
      const sa = a.params.snapshot();
      const sb = b.params.snapshot();
      soup.params.snapshot().forEach((x, k) => x.values.forEach((v, i) => expect(v).toBeCloseTo((sa[k]!.values[i]! + sb[k]!.values[i]!) / 2, 6)));
      expect(JSON.parse(fs.readFileSync(path.join(dir, "s", "soup.json"), "utf8")).models).toHaveLength(2);
      const other = new Teacher({ ...cfg, headHidden: 6, seed: 3 });
      saveModelSync(path.join(dir, "c"), other, { scenario: "t", seed: 3 });
      await expect(command.run(["--models", `${path.join(dir, "a")},${path.join(dir, "c")}`, "--out", path.join(dir, "s2")], { out: () => undefined, err: () => undefined })).rejects.toThrow("a soup needs one architecture");
      for (const t of [a, b, soup, other]) t.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("needs two models and a new output directory", () => {
    expect(() => parseSoupArgs(["--models", "a", "--out", "s"])).toThrow("at least two");
    expect(() => parseSoupArgs(["--models", "a,b", "--out", "b"])).toThrow("new directory");
    expect(() => parseSoupArgs(["--models", "a,b", "--out", "s", "--mix", "0.3"])).toThrow('unknown argument "--mix"');
  });
});
