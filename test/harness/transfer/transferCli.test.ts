import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../../src/cli/main";
import { loadHarness } from "../../../src/harness/modelfile";

// `drone-harness transfer` end to end on the committed models with a tiny tree scenario (64x64
// camera, short path): a few samples, one epoch, one flight per row.
const SCENARIO = `name: trees_tiny
description: tiny tree scenario for the transfer CLI test
path:
  length_m: [20, 24]
  timeLimit_s: 8
wires:
  lines: 0
trees:
  count: [6, 8]
  onPathFraction: 0.5
camera:
  width: 64
  height: 64
ground:
  textureSize: 256
`;

const MODELS = path.join(__dirname, "..", "..", "..", "models");
const sha = (file: string): string => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("drone-harness transfer", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-transfer-"));
  const scenario = path.join(dir, "trees_tiny.yaml");
  const out = path.join(dir, "transfer");
  fs.writeFileSync(scenario, SCENARIO);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes the transfer and scratch harnesses and the report; the source models stay unchanged", async () => {
    const sources = ["harness.model.json", "harness.weights.bin", "student.model.json", "student.weights.bin"].map((f) => path.join(MODELS, f));
    const before = sources.map(sha);
    const o: string[] = [];
    const e: string[] = [];
    const code = await main(
      ["transfer", "--from", MODELS, "--scenario", scenario, "--out", out, "--train-samples", "6", "--test-samples", "6", "--train-seeds", "2", "--test-seeds", "2", "--sample-every", "1", "--epochs", "1", "--flights", "1"],
      { out: (t) => o.push(t), err: (t) => e.push(t) },
    );
    expect(code).toBe(0);
    expect(sources.map(sha)).toEqual(before);
    const text = o.join("");
    expect(text).toMatch(/\| transfer \|/);
    expect(text).toMatch(/\| scratch \|/);
    expect(text).toMatch(/\| none \|/);
    const report = JSON.parse(fs.readFileSync(path.join(out, "transfer.json"), "utf8")) as { train: { samples: number }; test: { samples: number }; rows: { name: string; closedLoop?: { flights: number } }[] };
    expect(report.train.samples).toBe(6);
    expect(report.test.samples).toBe(6);
    expect(report.rows.map((r) => r.name)).toEqual(["transfer", "scratch", "none"]);
    expect(report.rows.every((r) => r.closedLoop?.flights === 1)).toBe(true);
    // The written transfer harness carries the source encoder bit for bit; the scratch one does not.
    const src = (await loadHarness(MODELS)).model;
    const moved = (await loadHarness(out)).model;
    const scratch = (await loadHarness(path.join(out, "scratch"))).model;
    const bits = (h: typeof src, n: string): Uint32Array => new Uint32Array(h.params.get(n).dataSync<"float32">().slice().buffer);
    for (const n of src.encoderWeightNames()) expect(bits(moved, n)).toEqual(bits(src, n));
    expect(src.encoderWeightNames().some((n) => !bits(scratch, n).every((v, i) => v === bits(src, n)[i]))).toBe(true);
    [src, moved, scratch].forEach((h) => h.dispose());
  }, 60_000);
});
