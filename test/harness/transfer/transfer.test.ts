import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { SeedSource, type Split } from "../../../src/harness/data/SeedSplit";
import { saveModel } from "../../../src/harness/modelfile";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { Student } from "../../../src/harness/models/Student";
import { transferHarness } from "../../../src/harness/models/transferHarness";
import { diagnosticsQuality, noHarnessQuality, rocAuc } from "../../../src/harness/transfer/transferMetrics";
import { collectTransferSamples, type TransferSample } from "../../../src/harness/transfer/transferSamples";
import { assertTransferSource, TransferSourceError } from "../../../src/harness/transfer/transferSource";
import { trainOnSamples } from "../../../src/harness/transfer/transferTraining";
import { loadTransferSource, parseTransferArgs } from "../../../src/cli/commands/transfer";
import { FakeEnvironment } from "../training/fakeEnvironment";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");

type Snapshot = Map<string, Float32Array>;
function snapshot(h: HarnessNet): Snapshot {
  return new Map(h.params.names().map((n) => [n, h.params.get(n).dataSync<"float32">().slice()]));
}
function bitIdentical(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return ua.every((v, i) => v === ub[i]);
}

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

let samples: TransferSample[] = [];
let collection: { collisions: number; flights: number };
let student: Student;

beforeAll(() => {
  student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 1 });
  const source = new SeedSource("train", splitOf);
  const c = collectTransferSamples({ student, factory: (seed) => new FakeEnvironment(seed), source, seeds: [1, 2, 3], count: 12, sampleEvery: 1, rngSeed: 1 });
  samples = c.samples;
  collection = c;
});

afterAll(() => student.dispose());

describe("transfer training", () => {
  it("collects one sample per rollout from train seeds only, with S_gt and r_true", () => {
    expect(samples).toHaveLength(12);
    for (const s of samples) {
      expect(s.sGt.length).toBe(11 * 16);
      expect([0, 1]).toContain(s.rTrue);
      expect(s.sGt.every((v) => Number.isFinite(v) && v >= 0)).toBe(true);
    }
    // With every rollout sampled, r_true = 1 exactly for the rollouts that ended in a collision
    // (the only negative reward).
    expect(samples.reduce((a, s) => a + s.rTrue, 0)).toBe(collection.collisions);
    expect(() =>
      collectTransferSamples({ student, factory: (seed) => new FakeEnvironment(seed), source: new SeedSource("train", splitOf), seeds: [9], count: 1, sampleEvery: 1, rngSeed: 1 }),
    ).toThrow(/seed 9 belongs to the test split/);
  });

  it("keeps the moved encoder bit-identical and moves only the adapter and the diagnostics", () => {
    const sourceHarness = new HarnessNet({ seed: 7 });
    const sourceBefore = snapshot(sourceHarness);
    const next = transferHarness(sourceHarness, { seed: 11 });
    const before = snapshot(next);
    const stats = trainOnSamples(next, samples, { scope: "transfer", epochs: 2, minibatch: 4, learningRate: 1e-2, riskLoss: "bce", rngSeed: 3 });
    expect(stats.updates).toBe(6);
    const after = snapshot(next);
    const encoder = next.encoderWeightNames();
    expect(encoder.length).toBeGreaterThan(0);
    for (const name of encoder) {
      expect(bitIdentical(after.get(name) as Float32Array, sourceBefore.get(name) as Float32Array)).toBe(true);
    }
    const others = next.params.names().filter((n) => !n.startsWith("encoder/"));
    expect(others.every((n) => n.startsWith("adapter/") || n.startsWith("diagnostics/"))).toBe(true);
    for (const name of others) {
      expect(bitIdentical(after.get(name) as Float32Array, before.get(name) as Float32Array)).toBe(false);
    }
    // The source harness is untouched.
    for (const [name, v] of sourceBefore) expect(bitIdentical(snapshot(sourceHarness).get(name) as Float32Array, v)).toBe(true);
    sourceHarness.dispose();
    next.dispose();
  });

  it("the from-scratch baseline moves the encoder too", () => {
    const h = new HarnessNet({ seed: 5 });
    const before = snapshot(h);
    trainOnSamples(h, samples, { scope: "all", epochs: 1, minibatch: 4, learningRate: 1e-2, riskLoss: "bce", rngSeed: 3 });
    const after = snapshot(h);
    expect(h.encoderWeightNames().some((n) => !bitIdentical(after.get(n) as Float32Array, before.get(n) as Float32Array))).toBe(true);
    h.dispose();
  });

  it("scores diagnostics: no-harness row has AUC 0.5 and S error ||S_gt||", () => {
    const h = new HarnessNet({ seed: 5 });
    const q = diagnosticsQuality(h, samples, 5);
    expect(q.samples).toBe(12);
    expect(q.brier).toBeGreaterThanOrEqual(0);
    expect(q.brier).toBeLessThanOrEqual(1);
    // Both classes present (labels alternate), so the constant predictor's AUC is defined: 0.5.
    const labelled = samples.map((s, i) => ({ ...s, rTrue: i % 2 }));
    const none = noHarnessQuality(0.25, labelled);
    expect(none.auc).toBe(0.5);
    const pos = 6;
    expect(none.brier).toBeCloseTo((pos * 0.75 ** 2 + (12 - pos) * 0.25 ** 2) / 12, 6);
    const norm = (s: TransferSample): number => Math.sqrt(s.sGt.reduce((a, v) => a + v * v, 0));
    expect(none.sError).toBeCloseTo(samples.reduce((a, s) => a + norm(s), 0) / 12, 4);
    h.dispose();
  });
});

describe("rocAuc", () => {
  it("matches hand-computed values, ties count 1/2", () => {
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.75, 12);
    expect(rocAuc([0.9, 0.1], [1, 0])).toBe(1);
    expect(rocAuc([0.5, 0.5, 0.5], [1, 0, 0])).toBe(0.5);
    expect(rocAuc([0.2, 0.3], [1, 1])).toBeNaN();
    expect(() => rocAuc([0.2], [2])).toThrow(/labels\[0\]=2, expected 0 or 1/);
  });
});

describe("transfer source check", () => {
  it("refuses a source of another kind or architecture, naming the weight", () => {
    const target = new HarnessNet();
    const good = target.encoderWeightNames().map((n) => ({ name: n, shape: target.params.get(n).shape }));
    expect(() => assertTransferSource("src", "harness", good, target)).not.toThrow();
    expect(() => assertTransferSource("src", "student", good, target)).toThrow(/kind "student", expected "harness"/);
    const wider = good.map((w) => (w.name === "encoder/fuse/w" ? { name: w.name, shape: [w.shape[0] ?? 0, 32] } : w));
    expect(() => assertTransferSource("src", "harness", wider, target)).toThrow(TransferSourceError);
    expect(() => assertTransferSource("src", "harness", wider, target)).toThrow(/"encoder\/fuse\/w" has shape \[128,32\], expected \[128,16\]/);
    expect(() => assertTransferSource("src", "harness", good.slice(1), target)).toThrow(/is missing/);
    expect(() => assertTransferSource("src", "harness", [...good, { name: "encoder/extra/w", shape: [3] }], target)).toThrow(/unexpected encoder weight "encoder\/extra\/w"/);
    target.dispose();
  });

  it("loadTransferSource refuses a models dir whose harness file holds another architecture", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "transfer-src-"));
    try {
      const h = new HarnessNet({ seed: 1 });
      await saveModel(dir, h, { scenario: "test", seed: 1, notes: "test" });
      const loaded = await loadTransferSource(dir);
      expect(loaded.encoderWeightNames()).toEqual(h.encoderWeightNames());
      loaded.dispose();
      h.dispose();
      // Rewrite one encoder shape in the manifest: another architecture.
      const file = path.join(dir, "harness.model.json");
      const json = fs.readFileSync(file, "utf8").replace(/"encoder\/fuse\/w",\s*"shape":\s*\[\s*128,\s*16\s*\]/, '"encoder/fuse/w","shape":[64,32]');
      expect(json).toContain('"encoder/fuse/w","shape":[64,32]');
      fs.writeFileSync(file, json);
      await expect(loadTransferSource(dir)).rejects.toThrow(/encoder\/fuse\/w" has shape \[64,32\], expected \[128,16\]/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the CLI refuses --out equal to --from", () => {
    expect(() => parseTransferArgs(["--from", "models", "--scenario", "trees_only", "--out", "models/"])).toThrow(/--out models\/ is the --from directory/);
    expect(() => parseTransferArgs(["--from", "models", "--scenario", "trees_only", "--out", "x", "--lambda", "2"])).toThrow(/--lambda=2, expected a number in \[0, 1\]/);
  });
});

