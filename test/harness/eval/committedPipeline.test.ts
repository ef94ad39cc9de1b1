/**
 * The committed detectors of issue 12 (models/pipeline/) driving the local planner, closed loop
 * in lock-step, across the wire of wireAcross.ts (one line of three conductors at flight altitude
 * across a 40 m path; the blind planner hits it on these seeds, wireCrossing.test.ts), here with
 * mid-grey conductors (albedo 0.5). Dark conductors (albedo 0.1) are a measured blind spot of the
 * teacher (3 of 8 test seeds reach the goal; docs/pipeline.md) and are not asserted here.
 * Expected counts: measured when the models were committed (teacher 3 of the first 4 test seeds,
 * seed 1 hits the wire; student 2 of 4, seeds 1 and 26 hit it); a detector whose near-threat
 * output stopped seeing the wire would fly into it on every seed (the blind planner does).
 */
import * as path from "node:path";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { SimEnvironment } from "../../../src/harness/data/simEnvironment";
import { flyClosedLoop } from "../../../src/harness/eval/flyClosedLoop";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { loadTeacher } from "../../../src/harness/modelfile";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { seedsOfSplit, type Scenario } from "../../../sim";
import { WIRE_ACROSS } from "./wireAcross";

// 115 s of the default 120 s at load average 13 on the shared 2-core machine (issue 16 item 15).
jest.setTimeout(400_000);

const MODELS = path.join(__dirname, "..", "..", "..", "models", "pipeline");
const GREY_WIRE: Scenario = { ...WIRE_ACROSS, wires: { ...WIRE_ACROSS.wires, albedo: { min: 0.5, max: 0.5 } } };

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("committed detector -> planner across a wire (lock-step)", () => {
  // The student-size detector is what runs per frame; the teacher (3 of 4 when measured, about
  // 4x slower per frame) is left to `eval --planner` to keep npm test short.
  it.each([["student", 2]] as const)("the %s-size detector's near-threat cells make the planner pass a mid-grey wire on at least %i of the first 4 test seeds", async (size, atLeast) => {
    const detector = (await loadTeacher(path.join(MODELS, size))).model;
    const pilot = new PlannerPilot({ type: "detector", detector });
    let goals = 0;
    for (const seed of seedsOfSplit("test", 4)) {
      const r = flyClosedLoop(new SimEnvironment(GREY_WIRE, seed, "test", false, { controlPeriod_s: 0.25 }), pilot, STATE_DIM);
      if (r.outcome.type === "goal") goals++;
    }
    expect(goals).toBeGreaterThanOrEqual(atLeast);
    detector.dispose();
  });
});
