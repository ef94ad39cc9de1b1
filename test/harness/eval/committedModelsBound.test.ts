/**
 * The claim behind issue 6's missing test, pinned to the committed models (docs/training.md,
 * "The oracle bound"): on test seed 80, whose power line crosses the path at cruise altitude,
 * the co-evolved student hits the wire, its choice trails the expert's by more than the SPEC's
 * clip on every frame where the wire is in the expert's corridor, so even the best correction
 * the clip allows, aimed at the expert's action with an oracle's knowledge of the threat,
 * changes no decision and the flight still ends on the wire. If the models are retrained and
 * this stops holding, this test fails and the README's explanation must be re-measured.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { simEnvironmentFactory } from "../../../src/harness/data/simEnvironment";
import { correctionBound } from "../../../src/harness/eval/correctionBound";
import { DELTA_NORM_MAX } from "../../../src/harness/correction/constants";
import { loadHarness, loadStudent } from "../../../src/harness/modelfile";
import { FULL_CONFIG } from "../../../src/harness/training/trainConfig";

jest.setTimeout(300_000);

const MODELS = path.join(__dirname, "..", "..", "..", "models");

it("test seed 80: student and every admissible correction fly into the wire; no threat decision is within the clip", async () => {
  await initBackend({ prefer: "wasm" });
  const student = (await loadStudent(MODELS)).model;
  const harness = (await loadHarness(MODELS)).model;
  try {
    const scenario = loadScenarioFile("default");
    // the trained harness row flies with its trained lambda, as `drone-harness bound` does
    const lambda = (JSON.parse(readFileSync(path.join(MODELS, "training.json"), "utf8")) as { lambda: { coevo: number } }).lambda.coevo;
    const report = correctionBound(student, harness, lambda, {
      split: "test",
      splitOf: splitOfSeed,
      factory: simEnvironmentFactory(scenario, "test", { controlPeriod_s: FULL_CONFIG.controlPeriod_s }),
      flights: 1,
      firstSeed: 80,
    });
    expect(report.seeds).toEqual([80]);
    for (const row of report.rows) {
      const o = row.outcomes[0];
      expect(o?.type).toBe("collision");
      if (o?.type === "collision") expect(o.obstacle).toBe("wire");
    }
    const alone = report.rows.find((r) => r.row === "student")?.frames;
    const best = report.rows.find((r) => r.row === "best_admissible")?.frames;
    expect(alone?.threatFrames).toBeGreaterThan(5);
    expect(alone?.disagreeFrames).toBe(alone?.threatFrames);
    expect(alone?.reachableFrames).toBe(0);
    expect(Math.min(...(alone?.margins ?? [0]))).toBeGreaterThan(DELTA_NORM_MAX);
    expect(best?.flippedFrames).toBe(0);
  } finally {
    student.dispose();
    harness.dispose();
  }
});
