import { initBackend } from "../../../src/harness/backend/initBackend";
import { NUM_ACTIONS } from "../../../src/harness/actions";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { evaluateHarnessRows, formatHarnessReport } from "../../../src/harness/eval/harnessRows";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { nearThreatCells } from "../../../src/harness/eval/CellLabels";
import { Teacher } from "../../../src/harness/models/Teacher";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { actionFormulaDelta } from "../../../src/harness/spatial/actionFormula";
import { NUM_SENSITIVITY_DIMS, SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { makeNavigation, movedNavigation } from "../../../src/control/navigation";
import { FakeEnvironment } from "../training/fakeEnvironment";
import { pinnedThreatDetector } from "./pinnedDetector";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
const J = NUM_SENSITIVITY_DIMS;

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("actionFormulaDelta (the seed's formula on the planner's action logits)", () => {
  const S = new Float32Array(NUM_ACTIONS * J);
  for (let i = 0; i < S.length; i++) S[i] = (i % 5) * 0.1;

  it("is -lambda r sum_j |S| |rate|: zero without risk or motion, larger for the more sensitive actions", () => {
    const out = new Float32Array(NUM_ACTIONS);
    expect(actionFormulaDelta(S, [0.2, 0, 1], 0, 0.3, out, 0.5).normRaw).toBe(0);
    expect(out.every((d) => d === 0)).toBe(true);
    actionFormulaDelta(S, [0, 0, 0], 1, 0.3, out, 0.5);
    expect(out.every((d) => d === 0)).toBe(true);
    const st = actionFormulaDelta(S, [-0.2, 0, 1], 0.5, 0.3, out, 10);
    for (let i = 0; i < NUM_ACTIONS; i++) {
      const expected = -0.3 * 0.5 * (Math.abs(S[i * J]!) * 0.2 + Math.abs(S[i * J + 2]!) * 1);
      expect(out[i]).toBeCloseTo(expected, 6);
    }
    expect(st.finite).toBe(true);
    expect(st.maxAbs).toBeCloseTo(Math.max(...Array.from(out, Math.abs)), 6);
  });

  it("rescales to ||delta||_2 <= maxNorm and rejects non-finite inputs without a correction", () => {
    const big = new Float32Array(S.length).fill(100);
    const out = new Float32Array(NUM_ACTIONS);
    const st = actionFormulaDelta(big, [1, 1, 1], 1, 1, out, 0.5);
    expect(st.normRaw).toBeGreaterThan(0.5);
    expect(Math.hypot(...out)).toBeCloseTo(0.5, 5);
    expect(out.every((d) => d <= 0)).toBe(true);
    const bad = Float32Array.from(S);
    bad[3] = Number.NaN;
    expect(actionFormulaDelta(bad, [1, 1, 1], 1, 1, out, 0.5).finite).toBe(false);
    expect(out.every((d) => d === 0)).toBe(true);
    expect(actionFormulaDelta(S, [1, 1, 1], Number.NaN, 1, out, 0.5).finite).toBe(false);
    expect(() => actionFormulaDelta(S, [1, 1], 1, 1, out, 0.5)).toThrow("rates length=2");
    expect(() => actionFormulaDelta(S.subarray(1), [1, 1, 1], 1, 1, out, 0.5)).toThrow("S length");
  });
});

describe("movedNavigation", () => {
  it("moves the goal the way a small yaw, pitch or forward step would", () => {
    const nav = { ...makeNavigation(), goalBearing_rad: 0.3, goalDistance_m: 20, pitch_rad: 0.05, yaw_rad: 1 };
    const out = makeNavigation();
    movedNavigation(nav, 0, 0.01, out);
    expect(out.goalBearing_rad).toBeCloseTo(0.29, 9); // turned left: the goal is less to the left
    expect(out.yaw_rad).toBeCloseTo(1.01, 9);
    expect(out.goalDistance_m).toBe(20);
    movedNavigation(nav, 1, 0.01, out);
    expect(out.pitch_rad).toBeCloseTo(0.06, 9);
    expect(out.goalBearing_rad).toBe(0.3);
    movedNavigation({ ...nav, goalBearing_rad: 0 }, 2, 0.5, out);
    expect(out.goalDistance_m).toBeCloseTo(19.5, 9);
    movedNavigation(nav, 2, 0.5, out);
    expect(out.goalBearing_rad).toBeGreaterThan(0.3); // a goal off to the left swings further left as it nears
  });
});

describe("PlannerPilot with the harness on the action logits", () => {
  it("flies as the uncorrected pilot when not applied, and an applied delta changes exactly the decisions it counts", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const harness = new SpatialHarness({ seed: 6 });
    const off = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: false } });
    const formulaOff = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: false, target: "actions" } });
    const formulaOn = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, target: "actions", options: { lambda: { initial: 1 } } } });
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(64 * 64 * 3);
    const state = new Float32Array(STATE_DIM);
    let differ = 0;
    for (let step = 0; step < 12; step++) {
      env.render(rgb);
      const a = off.act(rgb, state, env);
      expect(formulaOff.act(rgb, state, env)).toBe(a);
      expect(formulaOff.lastAppliedDelta).toBe(0);
      const changedBefore = formulaOn.actionFormulaCounts?.changed ?? 0;
      const b = formulaOn.act(rgb, state, env);
      const changed = (formulaOn.actionFormulaCounts?.changed ?? 0) - changedBefore;
      expect(changed === 1).toBe(b !== a);
      if (b !== a) differ++;
      // The detector runtime holds the unperturbed frame's outputs after the finite differences.
      expect(Array.from(formulaOn.detectorRuntime!.threat)).toEqual(Array.from(off.detectorRuntime!.threat));
      if (env.step(a).type !== "running") break;
    }
    const counts = formulaOn.actionFormulaCounts!;
    expect(counts.decisions).toBeGreaterThan(3);
    expect(counts.norms.length).toBe(counts.decisions);
    expect(counts.norms.some((n) => n > 0)).toBe(true);
    expect(differ).toBe(counts.changed);
    detector.dispose();
    harness.dispose();
  });

  it("is reported as a row with the share of decisions it changed", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const harness = new SpatialHarness({ seed: 6 });
    const report = evaluateHarnessRows(
      [
        { name: "off", detector, harness: { model: harness, apply: false } },
        { name: "formula", detector, harness: { model: harness, apply: true, target: "actions" } },
      ],
      { split: "test", splitOf, factory: (s) => new FakeEnvironment(s), flights: 2, conditions: ["nominal"], pairs: [["formula", "off"]], apEvery: 2 },
    );
    const [offRow, formulaRow] = report.conditions[0]!.rows;
    expect(offRow!.actionFormula).toBeUndefined();
    expect(formulaRow!.actionFormula!.decisions).toBe(formulaRow!.flights.reduce((n, f) => n + f.trace.length, 0));
    expect(formulaRow!.frames.all).toBeGreaterThan(0);
    expect(formatHarnessReport(report)).toMatch(/formula: the literal formula on the planner's action logits \(S by finite differences\) changed the chosen manoeuvre in \d+ of \d+ decisions/);
    detector.dispose();
    harness.dispose();
  });
});

describe("PlannerPilot with the oracle correction (the spatial form's upper bound)", () => {
  it("raises exactly the true near-threat cells' logits by clip / sqrt(k) per region and needs the frame's truth", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const harness = new SpatialHarness({ seed: 6 });
    const clip = 2;
    const off = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: false } });
    const oracle = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, target: "oracle", options: { regionClip: clip } } });
    expect(off.needsTruth).toBe(false);
    expect(oracle.needsTruth).toBe(true);
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(64 * 64 * 3);
    const truth = { mask: new Uint8Array(64 * 64), visibleMask: new Uint8Array(64 * 64), depth: new Float32Array(64 * 64) };
    const state = new Float32Array(STATE_DIM);
    expect(() => oracle.act(rgb, state, env)).toThrow("ground truth");
    let raised = 0;
    for (let step = 0; step < 8; step++) {
      env.render(rgb, truth.mask, truth);
      off.act(rgb, state, env);
      oracle.act(rgb, state, env, truth);
      const near = nearThreatCells(truth.visibleMask, truth.depth, { width: 64, height: 64, cell_px: 8 }, makeNavigation().forwardSpeed_m_s);
      const before = off.lastThreat;
      const after = oracle.lastThreat;
      const logit = (p: number) => Math.log(p / (1 - p));
      for (let i = 0; i < near.length; i++) {
        if (near[i] === 0) {
          expect(after[i]).toBe(before[i]);
          continue;
        }
        // 8 x 8 cells = 2 x 2 regions of 4 x 4 cells.
        const r0 = Math.floor(Math.floor(i / 8) / 4) * 4;
        const c0 = Math.floor((i % 8) / 4) * 4;
        let k = 0;
        for (let r = r0; r < r0 + 4; r++) for (let c = c0; c < c0 + 4; c++) k += near[r * 8 + c]!;
        expect(logit(after[i]!) - logit(before[i]!)).toBeCloseTo(clip / Math.sqrt(k), 3);
        raised++;
      }
      if (env.step(off.act(rgb, state, env)).type !== "running") break;
    }
    expect(raised).toBeGreaterThan(0);
    detector.dispose();
    harness.dispose();
  });
});

describe("PlannerPilot with the gap-risk target (the harness's own correction with a perfect risk)", () => {
  // FakeEnvironment's structure is a wire (mask class 1): with a blind student every near cell is a gap.
  const fly = (bias: number) => {
    const detector = pinnedThreatDetector(bias, 4);
    const harness = new SpatialHarness({ seed: 6 });
    const off = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: false } });
    const gap = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, target: "gap-risk", options: { regionClip: 2 } } });
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(64 * 64 * 3);
    const truth = { mask: new Uint8Array(64 * 64), visibleMask: new Uint8Array(64 * 64), depth: new Float32Array(64 * 64) };
    const state = new Float32Array(STATE_DIM);
    expect(gap.needsTruth).toBe(true);
    expect(() => gap.act(rgb, state, env)).toThrow("ground truth");
    const frames: { risk: number[]; nearRegions: number[]; changedOutside: number; changedInside: number }[] = [];
    for (let step = 0; step < 8; step++) {
      env.render(rgb, truth.mask, truth);
      const action = off.act(rgb, state, env);
      gap.act(rgb, state, env, truth);
      const near = nearThreatCells(truth.visibleMask, truth.depth, { width: 64, height: 64, cell_px: 8 }, makeNavigation().forwardSpeed_m_s);
      // 8 x 8 cells = 2 x 2 regions of 4 x 4 cells.
      const region = (i: number) => Math.floor(Math.floor(i / 8) / 4) * 2 + Math.floor((i % 8) / 4);
      const nearRegions = [0, 0, 0, 0];
      near.forEach((v, i) => v === 1 && (nearRegions[region(i)] = 1));
      let changedOutside = 0;
      let changedInside = 0;
      for (let i = 0; i < 64; i++) {
        if (gap.lastThreat[i] === off.lastThreat[i]) continue;
        if (nearRegions[region(i)] === 1) changedInside++;
        else changedOutside++;
      }
      frames.push({ risk: Array.from(gap.harnessRuntime!.risk), nearRegions, changedOutside, changedInside });
      if (env.step(action).type !== "running") break;
    }
    detector.dispose();
    harness.dispose();
    return frames;
  };

  it("replaces the harness's risk by the regions holding a near wire cell the student leaves unflagged, and corrects only there", () => {
    const blind = fly(-20);
    expect(blind.some((f) => f.nearRegions.some((v) => v === 1))).toBe(true);
    for (const f of blind) {
      expect(f.risk).toEqual(f.nearRegions);
      expect(f.changedOutside).toBe(0);
    }
    expect(blind.some((f) => f.changedInside > 0)).toBe(true);
    // A student that flags everything leaves no gap: no region is risky and nothing changes.
    for (const f of fly(20)) {
      expect(f.risk.every((r) => r === 0)).toBe(true);
      expect(f.changedInside + f.changedOutside).toBe(0);
    }
  });
});
