import { initBackend } from "../../../src/harness/backend";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { evaluateHarnessRows } from "../../../src/harness/eval/harnessRows";
import { PlannerPilot, lineFilled, type TruthMix } from "../../../src/harness/eval/PlannerPilot";
import { Teacher } from "../../../src/harness/models/Teacher";
import { FakeEnvironment } from "../training/fakeEnvironment";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

/** One decision on the fake environment's first frame (its wire is one image row at 6-8 m: near). */
function decide(detector: Teacher, truthMix?: TruthMix): { threat: Float32Array; raw: Float32Array; wireCells: number[] } {
  const env = new FakeEnvironment(8);
  const pilot = new PlannerPilot({ type: "detector", detector, ...(truthMix === undefined ? {} : { truthMix }) });
  const rgb = new Uint8Array(64 * 64 * 3);
  const truth = { mask: new Uint8Array(64 * 64), visibleMask: new Uint8Array(64 * 64), depth: new Float32Array(64 * 64) };
  env.render(rgb, truth.mask, truth);
  pilot.act(rgb, new Float32Array(0), env, truth);
  const wireCells = new Set<number>();
  truth.visibleMask.forEach((c, i) => {
    if (c === 1) wireCells.add(Math.floor(Math.floor(i / 64) / 8) * 8 + Math.floor((i % 64) / 8));
  });
  return { threat: Float32Array.from(pilot.lastThreat), raw: Float32Array.from(pilot.detectorRuntime!.threat), wireCells: [...wireCells] };
}

describe("PlannerPilot truth mixes (error decomposition, not harnesses)", () => {
  let detector: Teacher;
  beforeAll(() => {
    detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  });
  afterAll(() => detector.dispose());

  it("needs the truth only when mixing", () => {
    expect(new PlannerPilot({ type: "detector", detector }).needsTruth).toBe(false);
    expect(new PlannerPilot({ type: "detector", detector, truthMix: "clean" }).needsTruth).toBe(true);
    const env = new FakeEnvironment(8);
    expect(() => new PlannerPilot({ type: "detector", detector, truthMix: "fill" }).act(new Uint8Array(64 * 64 * 3), new Float32Array(0), env)).toThrow('truth mix "fill" needs the frame\'s ground truth');
  });

  it("fill raises the near cells to 1 and keeps the rest; clean zeroes all but the near cells", () => {
    const plain = decide(detector);
    expect(plain.wireCells.length).toBe(8);
    expect(Array.from(plain.threat)).toEqual(Array.from(plain.raw));
    const near = new Set(plain.wireCells);
    for (const mix of ["fill", "fill-wire"] as const) {
      const { threat, raw } = decide(detector, mix);
      threat.forEach((t, i) => expect(t).toBe(near.has(i) ? 1 : raw[i]));
    }
    const clean = decide(detector, "clean");
    clean.threat.forEach((t, i) => expect(t).toBe(near.has(i) ? clean.raw[i] : 0));
    // The untrained detector flags cells off the wire: there is something for "clean" to remove.
    expect(plain.raw.some((t, i) => !near.has(i) && t > 0)).toBe(true);
  });

  it("the wire-gated line fill reads the detector's wire probabilities and never lowers the grid", () => {
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(64 * 64 * 3);
    env.render(rgb);
    const pilot = new PlannerPilot({ type: "detector", detector, lineFill: { fraction: 0.2, gain: 2, floor: 0, wireOnly: true } });
    pilot.act(rgb, new Float32Array(0), env);
    const raw = pilot.detectorRuntime!.threat;
    const wires = Float32Array.from({ length: 64 }, (_, i) => pilot.plannerClassProbs![i * 4 + 1]!);
    const expected = lineFilled(raw, 8, 8, { fraction: 0.2, gain: 2, floor: 0 }, undefined, wires);
    expect(Array.from(pilot.lastThreat)).toEqual(Array.from(expected));
    expect(Array.from(pilot.lastThreat)).not.toEqual(Array.from(lineFilled(raw, 8, 8, { fraction: 0.2, gain: 2, floor: 0 })));
  });

  it("flies as an eval row whose planner read the filled grid", () => {
    const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
    const report = evaluateHarnessRows([{ name: "off", detector }, { name: "fill", detector, truthMix: "fill-wire" }], { split: "test", splitOf, factory: (s) => new FakeEnvironment(s), flights: 6, conditions: ["nominal"] });
    const [off, fill] = report.conditions[0]!.rows;
    expect(fill!.flights.map((f) => f.outcome.seed)).toEqual(off!.flights.map((f) => f.outcome.seed));
    // The wire is near from the first frame: the filled grid's largest threat is 1 there, the detector's is not.
    for (const f of fill!.flights) expect(f.trace[0]!.maxThreat).toBe(1);
    for (const f of off!.flights) expect(f.trace[0]!.maxThreat).toBeLessThan(1);
  });
});

describe("lineFilled (gap filling along lines, no truth)", () => {
  it("raises the gaps of a dashed line and leaves a short blob and the background alone", () => {
    const rows = 32;
    const cols = 32;
    const t = new Float32Array(rows * cols).fill(0.05);
    for (let c = 0; c < cols; c += 4) t[10 * cols + c] = 0.9; // a wire flagged on a quarter of its cells
    t[25 * cols + 20] = 0.9; // a blob of one cell
    const once = lineFilled(t, rows, cols, { fraction: 0.2, gain: 1 });
    const twice = lineFilled(t, rows, cols, { fraction: 0.2, gain: 2 });
    const gap = 10 * cols + 14;
    expect(once[gap]).toBeGreaterThan(0.25);
    expect(twice[gap]).toBeGreaterThan(0.5);
    expect(twice[gap]).toBeGreaterThan(once[gap]!);
    // The blob's neighbour stays well under the wire's gaps; the background far from both is untouched but for the mean of its segment.
    expect(twice[25 * cols + 22]).toBeLessThan(twice[gap]! / 2);
    expect(once[2 * cols + 2]).toBeCloseTo(0.05, 5);
    // Never lowers a cell.
    t.forEach((v, i) => expect(once[i]).toBeGreaterThanOrEqual(v));
    expect(() => lineFilled(t, rows, cols, { fraction: 0, gain: 1 })).toThrow("expected a fraction in (0, 1]");
    // The gate: with floor 0.2 the dashed line's gaps (segment mean about 0.26) still rise, the background and the blob's neighbour do not.
    const gated = lineFilled(t, rows, cols, { fraction: 0.2, gain: 2, floor: 0.2 });
    expect(gated[gap]).toBeCloseTo(twice[gap]!, 6);
    expect(gated[25 * cols + 22]).toBeCloseTo(0.05, 6);
    expect(gated[2 * cols + 2]).toBeCloseTo(0.05, 6);
    expect(twice[2 * cols + 2]).toBeCloseTo(0.1, 5);
    expect(() => lineFilled(t, rows, cols, { fraction: 0.2, gain: 2, floor: 2 })).toThrow("expected a number in [0, 1]");
    // Support from another map (the wire probabilities): the threat is raised where that map has a line, not where the threat has one.
    const wires = new Float32Array(rows * cols).fill(0.05);
    for (let c = 0; c < cols; c++) wires[20 * cols + c] = 0.6;
    const byWires = lineFilled(t, rows, cols, { fraction: 0.2, gain: 2, floor: 0.3 }, undefined, wires);
    expect(byWires[20 * cols + 5]).toBeCloseTo(1, 6);
    expect(byWires[gap]).toBeCloseTo(t[gap]!, 6);
    expect(() => lineFilled(t, rows, cols, { fraction: 0.2, gain: 2 }, undefined, new Float32Array(3))).toThrow("support length 3");
  });
});
