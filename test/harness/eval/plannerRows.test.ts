/**
 * evaluatePlanner's bookkeeping on the fake environment (64x64 frames, 8x8 cells): every row flies
 * the same held-out seeds in each condition, outcomes and rates agree, the detector AP block is
 * filled for the given detectors only, the table prints every row, and the train split is refused.
 */
import { initBackend } from "../../../src/harness/backend/initBackend";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { evaluatePlanner, formatPlannerReport } from "../../../src/harness/eval/plannerRows";
import { Teacher } from "../../../src/harness/models/Teacher";
import { FakeEnvironment } from "../training/fakeEnvironment";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("evaluatePlanner", () => {
  const created: number[] = [];
  const factory = (seed: number): FakeEnvironment => {
    created.push(seed);
    return new FakeEnvironment(seed);
  };

  it("flies every row on the same test seeds per condition and reports AP for the detectors given", () => {
    const student = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 1, threatLogit: true });
    const report = evaluatePlanner({ student }, { split: "test", splitOf, factory, flights: 3, apSeeds: 2, apBootstrap: 50, conditions: ["nominal", "perturbed"] });
    expect(report.conditions.map((c) => c.condition)).toEqual(["nominal", "perturbed"]);
    for (const c of report.conditions) {
      expect(c.seeds).toEqual([8, 9, 18]);
      expect(c.rows.map((r) => r.row)).toEqual(["planner_oracle", "planner_student", "expert_privileged"]);
      for (const r of c.rows) {
        expect(r.outcomes.map((o) => o.seed)).toEqual(c.seeds);
        expect(r.rates.flights).toBe(3);
        expect(r.success95[0]).toBeLessThanOrEqual(r.rates.successRate);
        expect(r.success95[1]).toBeGreaterThanOrEqual(r.rates.successRate);
      }
      expect(c.ap.map((a) => a.detector)).toEqual(["student"]);
      expect(c.apFrames).toBeGreaterThan(0);
      // The wire AP's interval resamples the AP seeds; its point estimate is the report's AP.
      const iv = c.ap[0]!.report.wireInterval!;
      expect(iv.visible.clusters).toBe(2);
      expect(iv.visible.resamples).toBe(50);
      expect(iv.visible.ap).toBe(c.ap[0]!.report.visible.wire);
    }
    expect(created.every((s) => splitOf(s) === "test")).toBe(true);
    const text = formatPlannerReport(report);
    for (const row of ["planner_oracle", "planner_student", "expert_privileged"]) expect(text).toContain(`| ${row} |`);
    const iv = report.conditions[0]!.ap[0]!.report.wireInterval!.visible;
    expect(text).toContain(`| student | ${iv.ap.toFixed(3)} [${iv.lo.toFixed(3)}, ${iv.hi.toFixed(3)}] |`);
    expect(text).toContain("95 % interval: the flight seeds resampled, 50 resamples");
    student.dispose();
  });

  it("measures the detectors' AP without flying when no row is asked for (eval --planner --ap-only)", () => {
    const student = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 1, threatLogit: true });
    created.length = 0;
    const report = evaluatePlanner({ student }, { split: "test", splitOf, factory, flights: 5, apSeeds: 2, apBootstrap: 20, rows: [], conditions: ["nominal"] });
    const c = report.conditions[0]!;
    expect(c.rows).toEqual([]);
    expect(c.seeds).toEqual([]);
    expect(c.ap.map((a) => a.detector)).toEqual(["student"]);
    // Only the two AP seeds' expert flights were made.
    expect([...new Set(created)]).toEqual([8, 9]);
    const text = formatPlannerReport(report);
    expect(text).toContain("nominal: no rows flown (the detector AP alone)");
    expect(text).not.toContain("| row |");
    expect(text).toContain("| student |");
    student.dispose();
  });

  it("refuses the train split and a detector without a near-threat logit", () => {
    expect(() => evaluatePlanner({}, { split: "train", splitOf, factory, flights: 1 })).toThrow('split="train"');
    const old = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 1 });
    expect(() => evaluatePlanner({ teacher: old }, { split: "test", splitOf, factory, flights: 1, apSeeds: 0 })).toThrow("expected 5 (a near-threat logit");
    old.dispose();
  });
});
