/**
 * The wire gate on the harness's correction (SpatialHarnessOptions.wireGate; eval --harness --wire-gate;
 * twenty-eighth session): the correction is applied only within window_s seconds of a frame with at least
 * `cells` cells whose uncorrected wire probability reached `level`. Per frame, not per region.
 */
import { armFiles, parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { makeNavigation } from "../../../src/control/navigation";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { formatHarnessReport, manoeuvreShares, wireGateSummary, type ArmFlight, type HarnessEvalReport } from "../../../src/harness/eval/harnessRows";
import { cellSoftmax } from "../../../src/harness/runtime/DetectorRuntime";
import { countWireCells, SpatialHarnessRuntime, WireEvidenceWindow, type WireGate } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { syntheticFrame } from "./syntheticFrame";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const W = 128;
const H = 128;
const CELLS = (W / 8) * (H / 8);
const { logits: base, rgb } = syntheticFrame(W, H);
/** The synthetic frame with every cell's wire logit far below the others: no cell is a wire. */
const noWires = base.slice();
for (let c = 0; c < CELLS; c++) noWires[c * 5 + 1] = -20;
/** The same frame with a wire across it: the cells of row 5 at wire logits from 5 to 10. */
const withWires = base.slice();
for (let x = 0; x < W / 8; x++) withWires[(5 * (W / 8) + x) * 5 + 1] = 1 + (5 * x) / (W / 8 - 1) + 4;
const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4 };

function wireProbabilities(logits: Float32Array): number[] {
  const probs = new Float32Array(CELLS * 4);
  for (let c = 0; c < CELLS; c++) cellSoftmax(logits, c, probs);
  return Array.from({ length: CELLS }, (_, c) => probs[c * 4 + 1]!);
}

describe("countWireCells", () => {
  it("counts the cells whose softmax wire probability reaches the level", () => {
    const p = wireProbabilities(withWires);
    for (const level of [0, 0.2, 0.5, 0.9]) {
      const expected = p.filter((x) => x >= level).length;
      // Within one cell of the softmax's count: the two forms may round a probability on the level differently.
      expect(Math.abs(countWireCells(withWires, level) - expected)).toBeLessThanOrEqual(1);
    }
    expect(countWireCells(withWires, 0.5)).toBeGreaterThan(0);
    expect(countWireCells(withWires, 0.5)).toBeLessThan(CELLS);
    expect(countWireCells(noWires, 0.01)).toBe(0);
    expect(countWireCells(withWires, 0)).toBe(CELLS);
  });
});

/** Steps of a runtime at clip 8 through `frames` (one per 0.25 s); each step's applied max|delta|, gate and evidence. */
function fly(frames: Float32Array[], wireGate?: WireGate, rt?: SpatialHarnessRuntime): { maxAbs: number; gateOpen: boolean; evidence: number; unchanged: boolean }[] {
  const runtime = rt ?? new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), W, H, { regionClip: 8, ...(wireGate === undefined ? {} : { wireGate }) });
  return frames.map((logits, k) => {
    const info = runtime.step(logits, rgb, { ...nav, yaw_rad: 0.1 * (k % 2) }, 0.25 * k);
    let unchanged = true;
    for (let i = 0; i < logits.length; i++) if (runtime.corrected[i] !== logits[i]) unchanged = false;
    return { maxAbs: info.maxAbs, gateOpen: info.gateOpen, evidence: info.wireEvidence, unchanged };
  });
}

describe("the wire gate in the runtime", () => {
  const gate: WireGate = { level: 0.5, cells: 3, window_s: 0.5 };

  it("holds the correction back on a frame without wire evidence and lets it through on one with", () => {
    const ungated = fly([noWires, noWires, noWires]);
    expect(ungated[1]!.maxAbs).toBeGreaterThan(0);
    expect(ungated.every((s) => s.gateOpen && Number.isNaN(s.evidence))).toBe(true);
    const closed = fly([noWires, noWires, noWires], gate);
    expect(closed.map((s) => s.gateOpen)).toEqual([false, false, false]);
    expect(closed.map((s) => s.maxAbs)).toEqual([0, 0, 0]);
    // The planner reads the detector's own logits, bit for bit.
    expect(closed.every((s) => s.unchanged)).toBe(true);
    expect(closed.every((s) => s.evidence === 0)).toBe(true);
    // With the wires seen, the gated runtime applies what the ungated one does.
    const open = fly([withWires, withWires, withWires], gate);
    const reference = fly([withWires, withWires, withWires]);
    expect(open.map((s) => s.gateOpen)).toEqual([true, true, true]);
    expect(open.map((s) => s.maxAbs)).toEqual(reference.map((s) => s.maxAbs));
    expect(open[1]!.evidence).toBe(countWireCells(withWires, 0.5));
  });

  it("keeps the gate open for window_s after the last frame with evidence, and a new flight forgets it", () => {
    const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), W, H, { regionClip: 8, wireGate: gate });
    // Frames at 0, 0.25, 0.5, 0.75 s: wires seen at 0 s only; the window of 0.5 s covers 0.25 and 0.5 s.
    const steps = fly([withWires, noWires, noWires, noWires], undefined, rt);
    expect(steps.map((s) => s.gateOpen)).toEqual([true, true, true, false]);
    expect(steps[1]!.maxAbs).toBeGreaterThan(0);
    expect(steps[3]!.maxAbs).toBe(0);
    rt.reset();
    expect(fly([noWires], undefined, rt)[0]!.gateOpen).toBe(false);
    // A clock that goes back is no evidence: wires seen at 0.25 s, then a frame stamped 0.1 s.
    rt.reset();
    rt.step(withWires, rgb, nav, 0.25);
    expect(rt.step(noWires, rgb, nav, 0.1).gateOpen).toBe(false);
  });

  it("needs `cells` cells at the level, not one", () => {
    const n = countWireCells(withWires, 0.5);
    expect(fly([withWires], { ...gate, cells: n })[0]!.gateOpen).toBe(true);
    expect(fly([withWires], { ...gate, cells: n + 1 })[0]!.gateOpen).toBe(false);
  });

  it("refuses a gate it cannot read", () => {
    const h = new SpatialHarness();
    expect(() => new SpatialHarnessRuntime(h, 64, 64, { wireGate: { level: 1.5, cells: 1, window_s: 1 } })).toThrow("wireGate.level=1.5, expected a probability in [0, 1]");
    expect(() => new SpatialHarnessRuntime(h, 64, 64, { wireGate: { level: 0.5, cells: 0, window_s: 1 } })).toThrow("wireGate.cells=0, expected an integer >= 1");
    expect(() => new SpatialHarnessRuntime(h, 64, 64, { wireGate: { level: 0.5, cells: 2.5, window_s: 1 } })).toThrow("wireGate.cells=2.5");
    expect(() => new SpatialHarnessRuntime(h, 64, 64, { wireGate: { level: 0.5, cells: 1, window_s: -1 } })).toThrow("wireGate.window_s=-1");
    expect(() => new SpatialHarnessRuntime(h, 64, 64, { wireGate: { level: 0.5, cells: 1, window_s: Number.NaN } })).toThrow("wireGate.window_s=NaN");
  });
});

describe("eval --harness --wire-gate", () => {
  it("reads level,cells,window_s, names a bad value, and hands the gate to every harness arm", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default"]).wireGate).toBeUndefined();
    const a = parseEvalHarnessArgs(["--scenario", "default", "--wire-gate", "0.5,8,2"]);
    expect(a.wireGate).toEqual({ level: 0.5, cells: 8, window_s: 2 });
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--wire-gate", "0.5,2"])).toThrow("--wire-gate=0.5,2, expected level,cells,window_s");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--wire-gate", "1.2,8,2"])).toThrow("--wire-gate=1.2, expected a number in [0, 1]");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--wire-gate", "0.5,0,2"])).toThrow("--wire-gate=0, expected an integer >= 1");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--wire-gate", "0.5,8,x"])).toThrow("--wire-gate=x");
    expect(armFiles(a, "coevo_student_harness").options?.wireGate).toEqual({ level: 0.5, cells: 8, window_s: 2 });
    expect(armFiles(a, "coevo_student_off").options?.wireGate).toEqual({ level: 0.5, cells: 8, window_s: 2 });
    expect(armFiles(a, "bc_student").options).toBeUndefined();
    expect(armFiles(parseEvalHarnessArgs(["--scenario", "default"]), "coevo_student_harness").options).toBeUndefined();
  });
});

describe("the report's wire gate line", () => {
  const step = { step: 0, time_s: 0, action: 0, maxThreat: 0, maxRisk: 0, maxDelta: 0, lambda: 0.3 };
  const flight = (trace: ArmFlight["trace"]): ArmFlight => ({ outcome: { type: "goal" }, trace }) as unknown as ArmFlight;

  it("counts the decisions with the gate open and the evidence's percentiles, and stays silent without a gate", () => {
    const flights = [flight([{ ...step, wireEvidence: 0, gateClosed: 1 }, { ...step, wireEvidence: 10 }]), flight([{ ...step, wireEvidence: 20 }, { ...step, wireEvidence: 0, gateClosed: 1 }])];
    const g = wireGateSummary(flights)!;
    expect(g.decisions).toBe(4);
    expect(g.openShare).toBe(0.5);
    expect(g.evidenceP50).toBeGreaterThan(0);
    expect(g.evidenceP50).toBeLessThan(10);
    expect(wireGateSummary([flight([step, step])])).toBeUndefined();
    const report = { split: "val", conditions: [{ condition: "nominal", seeds: [1], rows: [{ name: "coevo_student_harness", flights, rates: { collisionRate: 0, successRate: 1, timeoutRate: 0, collisionRate95: [0, 1] }, success95: [0, 1], apAll: { wire: 0.5 }, apApproach: { wire: 0.5 }, frames: { all: 4, approach: 2 } }], pairs: [] }] } as unknown as HarnessEvalReport;
    expect(formatHarnessReport(report)).toContain("coevo_student_harness: wire gate open in 50.0 % of 4 decisions");
  });
});

describe("the report's manoeuvre line", () => {
  const step = { step: 0, time_s: 0, maxThreat: 0, maxRisk: 0, maxDelta: 0, lambda: 0.3 };
  const flight = (actions: number[]): ArmFlight => ({ outcome: { type: "goal" }, trace: actions.map((action) => ({ ...step, action })) }) as unknown as ArmFlight;

  it("gives each manoeuvre's share of a row's decisions, and names an action it cannot read", () => {
    // cruise 0, slow 1, hover 2 (ACTIONS order).
    const m = manoeuvreShares([flight([0, 0, 2]), flight([1, 2, 2, 0, 0])]);
    expect(m.decisions).toBe(8);
    expect(m.shares.slice(0, 3)).toEqual([0.5, 0.125, 0.375]);
    expect(m.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(manoeuvreShares([]).shares.every((x) => x === 0)).toBe(true);
    expect(() => manoeuvreShares([flight([9])])).toThrow("action 9 at step 0, expected an index of ACTIONS");
    const report = { split: "val", conditions: [{ condition: "perturbed", seeds: [1, 2], rows: [{ name: "coevo_student_off", flights: [flight([0, 0, 2]), flight([1, 2, 2, 0, 0])], rates: { collisionRate: 0, successRate: 1, timeoutRate: 0, collisionRate95: [0, 1] }, success95: [0, 1], apAll: { wire: 0.5 }, apApproach: { wire: 0.5 }, frames: { all: 8, approach: 2 } }], pairs: [] }] } as unknown as HarnessEvalReport;
    expect(formatHarnessReport(report)).toContain("coevo_student_off: manoeuvres over 8 decisions (4 per flight): cruise 50.0 %, slow 12.5 %, hover 37.5 %, climb 0.0 %");
  });
});

describe("WireEvidenceWindow (the gate's and the escape in place's evidence)", () => {
  it("opens within window_s of a frame with enough wire cells, and forgets its evidence when the clock goes back", () => {
    const w = new WireEvidenceWindow({ level: 0.5, cells: 1, window_s: 2 });
    expect(w.observe(noWires, 0)).toBe(false);
    expect(w.cells).toBe(0);
    expect(w.observe(withWires, 5)).toBe(true);
    expect(w.cells).toBe(countWireCells(withWires, 0.5));
    expect(w.observe(noWires, 7)).toBe(true); // 2 s after: still open
    expect(w.observe(noWires, 7.01)).toBe(false);
    // Evidence at 5 s, a replay restarted at 0.1 s without reset(): shut, and still shut when the new
    // clock passes 5 s again (the old evidence is forgotten, not waited for).
    w.observe(withWires, 5);
    expect(w.observe(noWires, 0.1)).toBe(false);
    expect(w.observe(noWires, 5.5)).toBe(false);
    expect(w.observe(withWires, 0.2)).toBe(true);
    w.reset();
    expect(w.observe(noWires, 0.3)).toBe(false);
    expect(() => new WireEvidenceWindow({ level: 0.5, cells: 0, window_s: 2 })).toThrow("wireGate.cells=0");
  });
});
