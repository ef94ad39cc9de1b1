import { initBackend } from "../../../src/harness/backend";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { evaluateHarnessRows, formatHarnessReport } from "../../../src/harness/eval/harnessRows";
import { DEFAULT_STRIKE_OPTIONS, SightRecorder, attributeStrike, formatStrikeActions, formatStrikeCounts, formatStrikeVertical, summarizeSights, summarizeStrikeVerticals, type StepSight } from "../../../src/harness/eval/strikeAttribution";
import type { FlightOutcome } from "../../../src/harness/eval/FlightMetrics";
import { Teacher } from "../../../src/harness/models/Teacher";
import { FakeEnvironment } from "../training/fakeEnvironment";

const none: StepSight = { wireNear: 0, wireFlagged: 0, wireThreat: 0, branchNear: 0, branchFlagged: 0, branchThreat: 0, flaggedElsewhere: 2 };
const wire = (threat: number): StepSight => ({ ...none, wireNear: 4, wireFlagged: threat >= 0.5 ? 1 : 0, wireThreat: threat });
/** Steps every 0.25 s up to the impact at 10 s. */
const steps = (sights: StepSight[]): { time_s: number; action: number; sight: StepSight }[] => sights.map((sight, i) => ({ time_s: 10 - 0.25 * (sights.length - 1 - i), action: i % 2 === 0 ? 0 : 3, sight }));
const times = (n: number, s: StepSight): StepSight[] => Array.from({ length: n }, () => s);
const strike = (obstacle: "wire" | "branch" | "ground"): FlightOutcome => ({ type: "collision", seed: 7, time_s: 10, obstacle });

describe("attributeStrike", () => {
  it("names what the planner saw of the struck class in the last 3 s", () => {
    expect(attributeStrike(steps(times(12, none)), strike("wire"))?.kind).toBe("not in view");
    expect(attributeStrike(steps(times(12, wire(0.3))), strike("wire"))?.kind).toBe("in view, not flagged");
    // First flag 0.25 s before the impact: late; 1.75 s before: in time.
    const late = attributeStrike(steps([...times(10, wire(0.2)), wire(0.7), wire(0.9)]), strike("wire"));
    expect(late).toMatchObject({ kind: "flagged late", firstFlagged_s: 0.25, framesInView: 12, frames: 12, maxThreat: 0.9, flaggedElsewhere: 2 });
    expect(late!.coverage).toBeCloseTo((2 * 0.25) / 12, 9);
    expect(formatStrikeActions(late!.actions)).toBe("cucucucucucu");
    expect(() => formatStrikeActions([7])).toThrow("expected an index of ACTIONS");
    const early = attributeStrike(steps([wire(0.1), ...times(4, none), wire(0.6), ...times(7, wire(0.2))]), strike("wire"));
    expect(early).toMatchObject({ kind: "flagged in time", firstFlagged_s: 1.75, framesInView: 9, frames: 13 });
    // A wire in view says nothing about a branch strike.
    expect(attributeStrike(steps(times(12, wire(0.9))), strike("branch"))?.kind).toBe("not in view");
  });

  it("reads only the window before the impact", () => {
    // Flagged 5 s before, then out of view: not in view within the 3 s window.
    const s = steps([wire(0.9), ...times(20, none)]);
    expect(attributeStrike(s, strike("wire"))?.kind).toBe("not in view");
    expect(attributeStrike(s, strike("wire"), { window_s: 6, flagThreat: 0.5, late_s: 1 })?.kind).toBe("flagged in time");
  });

  it("counts the window's frames with the wire gate closed, only when the flight had a gate", () => {
    const gated = steps(times(16, wire(0.3))).map((st, i) => ({ ...st, wireEvidence: i < 10 ? 5 : 0, ...(i >= 10 ? { gateClosed: 1 as const } : {}) }));
    // 13 frames in the 3 s window (frames 3..15), of them 6 (10..15) closed.
    expect(attributeStrike(gated, strike("wire"))).toMatchObject({ frames: 13, gateClosed: 6 });
    expect(attributeStrike(gated.map((st) => ({ ...st, gateClosed: undefined })), strike("wire"))?.gateClosed).toBe(0);
    expect(attributeStrike(steps(times(16, wire(0.3))), strike("wire"))).not.toHaveProperty("gateClosed");
  });

  it("attributes only wire and branch strikes, and refuses a flight without sights", () => {
    expect(attributeStrike(steps([wire(0.9)]), strike("ground"))).toBeUndefined();
    expect(attributeStrike(steps([wire(0.9)]), { type: "goal", seed: 1, time_s: 10 })).toBeUndefined();
    expect(() => attributeStrike([{ time_s: 9.5 }], strike("wire"))).toThrow("no recorded sight");
  });

  it("counts per obstacle and kind", () => {
    const a = attributeStrike(steps([wire(0.9)]), strike("wire"))!;
    expect(formatStrikeCounts([a, a])).toBe("wire 2 (not in view 0, in view, not flagged 0, flagged late 2, flagged in time 0); branch 0 (not in view 0, in view, not flagged 0, flagged late 0, flagged in time 0)");
  });
});

describe("summarizeSights", () => {
  it("averages per flight, split by whether the flight ended on a wire", () => {
    const flight = (outcome: FlightOutcome, sights: StepSight[]) => ({ outcome, trace: sights.map((sight) => ({ sight })) });
    const { struck, notStruck } = summarizeSights([
      flight(strike("wire"), [wire(0.9), wire(0.1)]), // coverage (1/4 + 0) / 2, elsewhere 2
      flight({ type: "goal", seed: 1, time_s: 9 }, [wire(0.9), none, { ...none, flaggedElsewhere: 8 }]), // coverage 1/4, elsewhere 4
      flight({ type: "goal", seed: 2, time_s: 9 }, [none]), // no near wire: left out
    ]);
    expect(struck).toEqual({ flights: 1, nearWireFrames: 2, wireCoverage: 0.125, flaggedElsewhere: 2 });
    expect(notStruck).toEqual({ flights: 1, nearWireFrames: 1, wireCoverage: 0.25, flaggedElsewhere: 4 });
  });
});

describe("SightRecorder", () => {
  it("counts the near cells of each class and the planner's largest threat on them", () => {
    const grid = { width: 16, height: 16, cell_px: 8 };
    const mask = new Uint8Array(256);
    const depth = new Float32Array(256);
    mask[0] = 1; // wire in cell 0 at 5 m
    depth[0] = 5;
    mask[8] = 1; // wire in cell 1 at 30 m: not near
    depth[8] = 30;
    mask[16 * 8 + 8] = 2; // branch in cell 3 at 11 m
    depth[16 * 8 + 8] = 11;
    const threat = Float32Array.from([0.4, 0.95, 0.1, 0.6]);
    // Cell 1 is flagged but its wire is 30 m away: a flag elsewhere.
    expect(new SightRecorder(grid).sight(mask, depth, threat)).toEqual({
      wireNear: 1, wireFlagged: 0, wireThreat: expect.closeTo(0.4, 6), branchNear: 1, branchFlagged: 1, branchThreat: expect.closeTo(0.6, 6), flaggedElsewhere: 1,
    });
    expect(new SightRecorder(grid, 0.3).sight(mask, depth, threat)).toMatchObject({ wireFlagged: 1, branchFlagged: 1, flaggedElsewhere: 1 });
    expect(() => new SightRecorder(grid).sight(mask, depth, new Float32Array(5))).toThrow("expected 4 grid cells");
  });
});

describe("attributeStrike: the vertical commitment before a strike", () => {
  const up = 3;
  const down = 4;
  const withVertical = { ...DEFAULT_STRIKE_OPTIONS, vertical: true };
  /** Steps every 0.25 s up to the impact at 10 s, each with its own commitment fields. */
  const flown = (rows: { action: number; commit?: "wire" | "choice"; commitTruth?: "climb" | "descend" | "none"; turned?: 1; wireSeen?: 1 }[]) =>
    rows.map((r, i) => ({ time_s: 10 - 0.25 * (rows.length - 1 - i), sight: wire(0.9), ...r }));

  it("counts the window's climb and descend decisions by what the commitment did, and reads the last one", () => {
    const s = attributeStrike(flown([
      { action: down, commit: "wire", commitTruth: "climb", turned: 1, wireSeen: 1 }, // 1.5 s before
      { action: up }, // no wire evidence
      { action: 0, wireSeen: 1 },
      { action: up, wireSeen: 1 }, // under the level
      { action: up, commit: "wire", commitTruth: "climb", wireSeen: 1 },
      { action: down, commit: "choice", commitTruth: "none", wireSeen: 1 },
      { action: down, commit: "wire", commitTruth: "climb", turned: 1, wireSeen: 1 },
    ]), strike("wire"), withVertical)!;
    expect(s.vertical).toEqual({
      decisions: 6, fixed: 4, byWire: 3, truthKnown: 3, trueSide: 1, turned: 2, belowLevel: 1, noEvidence: 1,
      last: { before_s: 0, action: down, fixed: "wire", truth: "climb", turned: true, wireSeen: true },
    });
    expect(formatStrikeVertical(s.vertical!)).toBe("climb/descend decisions 6: side fixed 4 (wire cells 3), true side known at 3, flown to it 1, turned 2; under the level 1, no wire evidence 1; the last 0.00 s before: d, fixed (wire), true side climb, turned");
    // Without the option nothing is read.
    expect(attributeStrike(flown([{ action: up, commit: "wire", commitTruth: "climb", wireSeen: 1 }]), strike("wire"))).not.toHaveProperty("vertical");
  });

  it("sums the last climb or descend before each strike", () => {
    const at = (rows: Parameters<typeof flown>[0]) => attributeStrike(flown(rows), strike("wire"), withVertical)!;
    const k = summarizeStrikeVerticals([
      at([{ action: 0 }, { action: 0, wireSeen: 1 }]), // no climb or descend
      at([{ action: up, commit: "wire", commitTruth: "climb", wireSeen: 1 }]),
      at([{ action: up, commit: "wire", commitTruth: "descend", turned: 1, wireSeen: 1 }]),
      at([{ action: up, commit: "wire", commitTruth: "none", wireSeen: 1 }, { action: 0 }]),
      at([{ action: down, wireSeen: 1 }]),
      at([{ action: down, commit: "wire", commitTruth: "descend", wireSeen: 1 }, { action: down }]),
    ]);
    expect(k).toEqual({ strikes: 6, noVertical: 1, lastNoEvidence: 1, lastBelowLevel: 1, lastFixed: 3, lastTruthKnown: 2, lastTrueSide: 1, lastTurned: 1, decisions: 6, truthKnown: 3, trueSide: 2 });
    expect(summarizeStrikeVerticals([attributeStrike(flown([{ action: up }]), strike("wire"))!])).toBeUndefined();
  });
});

describe("eval --harness --attribute-strikes (fake environment)", () => {
  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
  });

  it("attributes every wire strike without changing a flight", () => {
    const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const options = { split: "test" as const, splitOf, factory: (s: number) => new FakeEnvironment(s), flights: 6, conditions: ["nominal" as const] };
    const plain = evaluateHarnessRows([{ name: "bc", detector }], options).conditions[0]!.rows[0]!;
    const attributed = evaluateHarnessRows([{ name: "bc", detector }], { ...options, attributeStrikes: true }).conditions[0]!.rows[0]!;
    const committed = evaluateHarnessRows([{ name: "bc", detector }], { ...options, attributeStrikes: true, planner: { verticalCommit: 0.6, verticalCommitWireCells: 6 } }).conditions[0]!.rows[0]!;
    detector.dispose();
    // With the vertical commitment flown each strike reads it, and the report sums the last climb or descend.
    expect(committed.strikes!.length).toBeGreaterThan(0);
    for (const s of committed.strikes!) expect(s.vertical).toBeDefined();
    expect(attributed.strikes!.every((s) => s.vertical === undefined)).toBe(true);
    const committedText = formatHarnessReport({ split: "test", conditions: [{ condition: "nominal", seeds: [], rows: [committed], pairs: [] }] });
    expect(committedText).toContain(`  the vertical commitment before the ${committed.strikes!.length} strikes: `);
    expect(committedText).toContain("; climb/descend decisions ");
    expect(attributed.flights.map((f) => f.outcome)).toEqual(plain.flights.map((f) => f.outcome));
    expect(plain.strikes).toBeUndefined();
    const struck = attributed.flights.filter((f) => f.outcome.type === "collision").map((f) => f.outcome.seed);
    expect(struck.length).toBeGreaterThan(0);
    expect(attributed.strikes!.map((s) => s.seed)).toEqual(struck);
    // The fake wire is drawn in view until the drone reaches it.
    for (const s of attributed.strikes!) expect(s.kind).not.toBe("not in view");
    const text = formatHarnessReport({ split: "test", conditions: [{ condition: "nominal", seeds: [], rows: [attributed], pairs: [] }] });
    expect(text).toContain(`bc: what the planner saw in the 3 s before each wire/branch strike`);
    expect(text).toContain(`- seed ${struck[0]}: wire at`);
    expect(text).toContain(`per-flight means, flights that struck a wire: ${struck.length} flights`);
  });
});
