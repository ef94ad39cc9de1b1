/**
 * `drone-harness fit --evaluate <detector> --val <cache>`: a saved detector's validation report on
 * every frame of a cache, with the code of fit's final report (how two teachers are compared on
 * the same regenerated cache). Fake-environment frames written under real validation seeds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { seedsOfSplit } from "../../sim";
import { command, parseFitArgs } from "../../src/cli/commands/fit";
import { initBackend } from "../../src/harness/backend/initBackend";
import { generateFrames } from "../../src/harness/data/generateFrames";
import { FrameCacheDir } from "../../src/harness/data/node/FrameCacheDir";
import { SeedSource } from "../../src/harness/data/SeedSplit";
import { saveModelSync } from "../../src/harness/modelfile";
import { Teacher } from "../../src/harness/models/Teacher";
import { STATE_DIM } from "../../src/harness/models/stateVector";
import { evaluateDetector } from "../../src/harness/eval/evaluateDetector";
import { lineSupportScore, parseLineSupportSpec } from "../../src/harness/eval/lineSupport";
import { trainDetector } from "../../src/harness/training/trainDetector";
import { FakeEnvironment } from "../harness/training/fakeEnvironment";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("fit --evaluate", () => {
  it("prints the saved detector's wire AP on every frame of the cache, as evaluateDetector computes it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-fit-eval-"));
    try {
      const seeds = seedsOfSplit("val", 2);
      const data = generateFrames({ seeds, source: new SeedSource("val", () => "val"), factory: (s) => new FakeEnvironment(s, 10, 5, 40), stateDim: STATE_DIM, recordEvery: 2, maxFramesPerFlight: 8, explore: 0, rngSeed: 1 });
      const cache = new FrameCacheDir(path.join(dir, "val"));
      cache.open({ version: 1, scenario: "fake", split: "val", recording: {} });
      for (const s of seeds) cache.write(s, data.grid, STATE_DIM, data.frames.filter((f) => f.seed === s));
      const model = new Teacher({ channels: [6, 8, 8], headHidden: 8, seed: 3, context: [2], threatLogit: true });
      trainDetector(model, data, { steps: 30, batch: 4, crop: 32, learningRate: 5e-3, seed: 1 });
      saveModelSync(path.join(dir, "det"), model, { scenario: "fake", seed: 3, notes: "test" });
      const expected = evaluateDetector(model, data);
      const spec = parseLineSupportSpec("0.2:geo");
      const lined = evaluateDetector(model, data, undefined, 4, { wireTransform: (w, r, c) => lineSupportScore(w, r, c, spec) });
      model.dispose();
      let out = "";
      const rc = await command.run(["--evaluate", path.join(dir, "det"), "--val", path.join(dir, "val"), "--line-support", "0.2:geo"], { out: (s: string) => void (out += s), err: () => undefined });
      expect(rc).toBe(0);
      expect(out).toContain(`validation (${data.frames.length} frames`);
      expect(out).toContain(`wire AP visible ${expected.visible.wire.toFixed(3)}, approach ${expected.approach.wire.toFixed(3)}`);
      expect(out).toMatch(new RegExp(`wire AP visible ${expected.visible.wire.toFixed(3)} \\[\\d\\.\\d{3}, \\d\\.\\d{3}\\], approach .* \\(95 % intervals: the 2 flight seeds resampled 1000 times\\)`));
      // The line-support report: the wire channel rewritten before scoring, the other classes kept.
      const second = out.slice(out.indexOf("with line support 0.2:geo"));
      expect(second).toContain(`wire AP visible ${lined.visible.wire.toFixed(3)}, approach ${lined.approach.wire.toFixed(3)}`);
      expect(lined.visible.wire).not.toBeCloseTo(expected.visible.wire, 6);
      expect(lined.threat).toBe(expected.threat);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("needs a detector directory and --val", () => {
    expect(parseFitArgs(["--evaluate", "models/x", "--val", "cache/v"]).evaluate).toBe("models/x");
    expect(() => parseFitArgs(["--evaluate", "models/x"])).toThrow(/--evaluate needs a detector directory and --val/);
  });

  it("refuses training flags instead of ignoring them, and names them", () => {
    expect(() => parseFitArgs(["--evaluate", "models/x", "--val", "cache/v", "--steps", "10", "--augment", "camera"])).toThrow(/trains nothing: --steps, --augment would be ignored; drop them/);
    expect(() => parseFitArgs(["--data", "cache/t", "--evaluate", "models/x", "--val", "cache/v"])).toThrow(/trains nothing: --data would be ignored; drop it/);
  });

  it("takes --line-support only with --evaluate, and names a bad spec", () => {
    expect(parseFitArgs(["--evaluate", "models/x", "--val", "cache/v", "--line-support", "0.1:geo,0.35:ls"]).lineSupport.map((s) => [s.fraction, s.combine])).toEqual([[0.1, "geo"], [0.35, "ls"]]);
    expect(() => parseFitArgs(["--evaluate", "models/x", "--val", "cache/v", "--line-support", "0.1:max"])).toThrow(/--line-support: line support "0.1:max": expected F:geo or F:ls/);
    expect(() => parseFitArgs(["--data", "cache/t", "--val", "cache/v", "--out", "o", "--line-support", "0.2:geo"])).toThrow(/--line-support scores a saved detector/);
  });
});
