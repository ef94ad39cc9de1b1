/**
 * PlannerPilot's commitment to one side of a seen wire (PlannerOptions.verticalCommit): while the
 * uncorrected detections saw wire within 2 s, the first climb or descend at blocked_cruise >= L fixes
 * the side the planner's wireSide() gives, later ones at that level are turned to it, the way ahead
 * free leaves them alone, and the side is dropped when the evidence lapses or on reset().
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend";
import { LocalPlanner } from "../../../src/control/LocalPlanner";
import { ACTIONS, type ActionName } from "../../../src/harness/actions";
import { parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { SimEnvironment } from "../../../src/harness/data/simEnvironment";
import { evaluateHarnessRows, formatHarnessReport } from "../../../src/harness/eval/harnessRows";
import { PlannerPilot, type CommitSide } from "../../../src/harness/eval/PlannerPilot";
import { Teacher } from "../../../src/harness/models/Teacher";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { splitOfSeed } from "../../../sim";
import { FakeEnvironment } from "../training/fakeEnvironment";
import { WIRE_ACROSS } from "./wireAcross";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const idx = (a: ActionName): number => ACTIONS.indexOf(a);

let detector: Teacher;
/** Every cell a confident wire (seen) or confident background. */
let wire: (seen: boolean) => void;
beforeAll(() => {
  detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  const out = detector.params.get("head/out/w");
  out.assign(tf.zerosLike(out));
  const bias = detector.params.get("head/out/b");
  wire = (seen) => bias.assign(tf.tensor1d(seen ? [-20, 20, -20, -20, -20] : [20, -20, -20, -20, -20]));
});
afterAll(() => detector.dispose());

/** A detector that calls every cell a confident wire (the evidence always open), with a threat logit of 0. */
function wireEverywhere(): Teacher {
  const d = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
  const out = d.params.get("head/out/w");
  out.assign(tf.zerosLike(out));
  d.params.get("head/out/b").assign(tf.tensor1d([-20, 20, -20, -20, -20]));
  return d;
}

/** The planner's scripted choice, blocked_cruise and wire side; the pilot's decisions. */
function harness(side: number, commitSide?: CommitSide, stall_s = 0): { choose: (a: ActionName, blocked?: number) => number; env: FakeEnvironment; pilot: PlannerPilot; masks: Uint8Array[]; sides: number[]; climbs: number[]; restore: () => void } {
  let next = idx("cruise");
  let blocked = 0.9;
  const masks: Uint8Array[] = [];
  /** The sides wireSide is to give, in turn (the last one repeats), and the climbs since the frame it was given. */
  const sides = [side];
  const climbs: number[] = [];
  const spies = [
    jest.spyOn(LocalPlanner.prototype, "brakeReversal").mockImplementation(() => next),
    jest.spyOn(LocalPlanner.prototype, "blockedAhead", "get").mockImplementation(() => blocked),
    jest.spyOn(LocalPlanner.prototype, "wireSide").mockImplementation((mask, _alt, _pitch, climbed = 0) => {
      masks.push(Uint8Array.from(mask as Uint8Array));
      climbs.push(climbed);
      return sides.length > 1 ? sides.shift()! : sides[0]!;
    }),
  ];
  const env = new FakeEnvironment(8);
  const rgb = new Uint8Array(64 * 64 * 3);
  const pilot = new PlannerPilot({ type: "detector", detector, ...(commitSide === undefined ? {} : { commitSide }) }, { verticalCommit: 0.6, verticalCommitWireCells: 6, verticalCommitStall_s: stall_s });
  const choose = (a: ActionName, b = 0.9): number => {
    next = idx(a);
    blocked = b;
    env.render(rgb);
    const action = pilot.act(rgb, new Float32Array(0), env);
    env.step(idx("hover"));
    return action;
  };
  return { choose, env, pilot, masks, sides, climbs, restore: () => spies.forEach((s) => s.mockRestore()) };
}

describe("PlannerPilot: the vertical commitment (verticalCommit)", () => {
  it("holds the wire's side, not the planner's first choice, while wire is seen and the way ahead blocked", () => {
    const h = harness(idx("descend"));
    try {
      wire(false);
      expect(h.choose("climb")).toBe(idx("climb")); // no wire seen: the planner's choice
      expect(h.pilot.verticalCommitSide).toBe(-1);
      wire(true);
      expect(h.choose("climb")).toBe(idx("descend")); // the wire cells say under
      expect(h.pilot.verticalCommitSide).toBe(idx("descend"));
      // wireSide read the evidence frame's wire cells (every cell of the 8x8 grid).
      expect(h.masks[h.masks.length - 1]).toEqual(new Uint8Array(64).fill(1));
      expect(h.choose("descend")).toBe(idx("descend"));
      expect(h.choose("climb")).toBe(idx("descend"));
      expect(h.choose("cruise")).toBe(idx("cruise")); // only climb and descend are turned
      expect(h.choose("climb", 0.3)).toBe(idx("climb")); // the way ahead free: toward the goal's altitude, left alone
      expect(h.pilot.verticalCommitCounts).toEqual({ commitments: 1, byWireCells: 1, byTruth: 0, overridden: 2, released: 0 });
    } finally {
      h.restore();
    }
  });

  it("drops the side 2 s after the last wire frame, and on reset()", () => {
    const h = harness(idx("descend"));
    try {
      wire(true);
      expect(h.choose("climb")).toBe(idx("descend"));
      wire(false);
      const seenAt = h.env.time_s;
      const held: boolean[] = [];
      while (h.env.time_s - seenAt < 3) held.push(h.choose("climb") === idx("descend"));
      const steps2s = Math.floor(2 / h.env.controlPeriod_s + 1e-9);
      expect(held.slice(0, steps2s - 1).every((x) => x)).toBe(true);
      expect(held[held.length - 1]).toBe(false);
      expect(h.pilot.verticalCommitSide).toBe(-1);
      wire(true);
      expect(h.choose("climb")).toBe(idx("descend"));
      h.pilot.reset();
      expect(h.pilot.verticalCommitSide).toBe(-1);
      wire(false);
      expect(h.choose("climb")).toBe(idx("climb")); // reset() forgot the evidence too
      expect(h.pilot.verticalCommitCounts.commitments).toBe(2);
    } finally {
      h.restore();
    }
  });

  it("takes the planner's own choice as the side when the wire cells give none", () => {
    const h = harness(-1);
    try {
      wire(true);
      expect(h.choose("climb")).toBe(idx("climb"));
      expect(h.choose("descend")).toBe(idx("climb"));
      expect(h.pilot.verticalCommitCounts).toEqual({ commitments: 1, byWireCells: 0, byTruth: 0, overridden: 1, released: 0 });
    } finally {
      h.restore();
    }
  });

  it("is off by default: no side is ever held", () => {
    const spy = jest.spyOn(LocalPlanner.prototype, "wireSide");
    try {
      wire(true);
      const env = new FakeEnvironment(8);
      const rgb = new Uint8Array(64 * 64 * 3);
      env.render(rgb);
      const pilot = new PlannerPilot({ type: "detector", detector });
      for (let k = 0; k < 3; k++) pilot.act(rgb, new Float32Array(0), env);
      expect(pilot.verticalCommitSide).toBe(-1);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});

describe("PlannerPilot: the wire cells' side at every decision (commitSide \"each\")", () => {
  it("with commitSide \"each\" holds nothing: every climb or descend at the level takes the wire cells' side from where the drone is now", () => {
    const h = harness(idx("descend"), "each");
    try {
      wire(true);
      h.sides.splice(0, 1, idx("descend"), idx("climb"), idx("descend"));
      expect(h.choose("climb")).toBe(idx("descend"));
      expect(h.pilot.lastCommit).toEqual({ fixed: "wire", turned: true, released: false, evidence: true });
      expect(h.choose("descend")).toBe(idx("climb")); // not held: the side of this decision's frame
      expect(h.pilot.verticalCommitSide).toBe(-1);
      wire(false);
      // Within 2 s of the last wire frame its cells still decide, read from where the drone is now (0.7 m lower).
      h.env.alt -= 0.7;
      expect(h.choose("descend")).toBe(idx("descend"));
      expect(h.pilot.lastCommit).toEqual({ fixed: "wire", turned: false, released: false, evidence: true });
      expect(h.climbs[0]).toBe(0);
      expect(h.climbs[1]).toBe(0);
      expect(h.climbs[2]).toBeCloseTo(-0.7, 9);
      expect(h.choose("cruise")).toBe(idx("cruise"));
      expect(h.choose("climb", 0.3)).toBe(idx("climb")); // the way ahead free: left alone
      expect(h.pilot.lastCommit).toEqual({ turned: false, released: false, evidence: true }); // under the level, the evidence open
      expect(h.pilot.verticalCommitCounts).toEqual({ commitments: 3, byWireCells: 3, byTruth: 0, overridden: 2, released: 0 });
      const seenAt = h.env.time_s;
      while (h.env.time_s - seenAt < 2.5) h.choose("climb");
      expect(h.pilot.lastCommit).toEqual({ turned: false, released: false, evidence: false }); // the evidence lapsed: nothing fixed
    } finally {
      h.restore();
    }
    const none = harness(-1, "each");
    try {
      wire(true);
      expect(none.choose("climb")).toBe(idx("climb"));
      expect(none.pilot.lastCommit).toEqual({ fixed: "choice", turned: false, released: false, evidence: true });
      expect(none.choose("descend")).toBe(idx("descend")); // nothing held: the planner's own choice each time
    } finally {
      none.restore();
    }
  });
});

describe("PlannerPilot: the commitment's stall bound (verticalCommitStall_s)", () => {
  it("flies the planner's own choice once the drone (hovering in place) came no closer to the goal for longer than the bound", () => {
    const h = harness(idx("descend"), "each", 1);
    try {
      wire(true);
      expect(h.choose("climb")).toBe(idx("descend"));
      const openedAt = h.env.time_s;
      while (h.env.time_s - openedAt < 1) expect(h.choose("climb")).toBe(idx("descend"));
      expect(h.choose("climb")).toBe(idx("climb"));
      expect(h.pilot.lastCommit).toEqual({ fixed: "wire", turned: false, released: true, evidence: true });
      expect(h.pilot.verticalCommitCounts.released).toBe(1);
    } finally {
      h.restore();
    }
  });
});

describe("the vertical commitment through eval (eval --harness --vertical-commit)", () => {
  it("reads L,cells and refuses a level alone or a zero count", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default"]).verticalCommit).toBeUndefined();
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,6"]).verticalCommit).toEqual({ level: 0.6, cells: 6 });
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,6,truth"]).verticalCommit).toEqual({ level: 0.6, cells: 6, side: "truth" });
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,6,truth-each"]).verticalCommit).toEqual({ level: 0.6, cells: 6, side: "truth-each" });
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,6,each"]).verticalCommit).toEqual({ level: 0.6, cells: 6, side: "each" });
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,6,oracle"])).toThrow("--vertical-commit=0.6,6,oracle, expected L,cells or L,cells,each|truth|truth-each");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6"])).toThrow("--vertical-commit=0.6, expected L,cells or L,cells,each|truth|truth-each");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.6,0"])).toThrow("--vertical-commit");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit"])).toThrow("--vertical-commit needs a value");
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.3,12,each", "--commit-stall", "4"]).commitStall).toBe(4);
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--commit-stall", "4"])).toThrow("--commit-stall bounds the vertical commitment: give --vertical-commit");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-commit", "0.3,12", "--commit-stall", "0"])).toThrow("--commit-stall=0, expected a number in [0.01, 600]");
  });

  it("on the wire-across line: every side is fixed by the wire cells, recorded with the expert's, and reported", () => {
    // A detector that calls every cell a confident wire (the evidence always open) and leaves the
    // threat to the truth (truthMix "fill": the planner sees the line's conductors).
    const detector = wireEverywhere();
    const options = { split: "val" as const, splitOf: splitOfSeed, factory: (s: number) => new SimEnvironment(WIRE_ACROSS, s, "val", false, { controlPeriod_s: 0.25 }), flights: 1, conditions: ["nominal" as const] };
    const arm = { name: "seeing", detector, truthMix: "fill" as const };
    const report = evaluateHarnessRows([arm], { ...options, planner: { verticalCommit: 0.3, verticalCommitWireCells: 6 } });
    const plain = evaluateHarnessRows([arm], options);
    detector.dispose();
    const flight = report.conditions[0]!.rows[0]!.flights[0]!;
    const fixed = flight.trace.filter((s) => s.commit !== undefined);
    expect(fixed.length).toBeGreaterThan(0);
    for (const s of fixed) {
      expect(s.commit).toBe("wire");
      // The whole image's cells: median 5 deg below the level (the camera's pitch): over.
      expect(s.action).toBe(idx("climb"));
      expect(["climb", "descend", "none"]).toContain(s.commitExpert);
    }
    const text = formatHarnessReport(report);
    expect(text).toMatch(new RegExp(`seeing: vertical commitment: ${fixed.length} sides fixed in 1 flights \\(${fixed.length} by the wire cells' height, 0 by the world's wires, 0 by the planner's own choice\\)`));
    // Without the option nothing is fixed and the report says nothing of it.
    expect(plain.conditions[0]!.rows[0]!.flights[0]!.trace.some((s) => s.commit !== undefined || s.turned !== undefined)).toBe(false);
    expect(formatHarnessReport(plain)).not.toContain("vertical commitment");
  });

});

describe("the vertical commitment's side, recorded against the expert's and the world's", () => {
  it("records what the expert does for the wire in its corridor while a side is held, and counts the agreement", () => {
    // FakeEnvironment: a wire at the drone's altitude ahead (the expert climbs over it). The planner
    // is scripted to escape with the way ahead blocked; the side the wire cells give is scripted too.
    const detector = wireEverywhere();
    const fly = (side: ActionName, commitSide?: CommitSide): { trace: { commit?: string; commitExpert?: string; action: number }[]; text: string } => {
      const spies = [
        jest.spyOn(LocalPlanner.prototype, "brakeReversal").mockReturnValue(idx("climb")),
        jest.spyOn(LocalPlanner.prototype, "blockedAhead", "get").mockReturnValue(0.9),
        jest.spyOn(LocalPlanner.prototype, "wireSide").mockReturnValue(idx(side)),
      ];
      try {
        const report = evaluateHarnessRows([{ name: "scripted", detector, ...(commitSide === undefined ? {} : { commitSide }) }], { split: "val", splitOf: () => "val", factory: (s) => new FakeEnvironment(s), flights: 1, conditions: ["nominal"], planner: { verticalCommit: 0.6, verticalCommitWireCells: 6 } });
        return { trace: report.conditions[0]!.rows[0]!.flights[0]!.trace, text: formatHarnessReport(report) };
      } finally {
        spies.forEach((s) => s.mockRestore());
      }
    };
    const over = fly("climb");
    const under = fly("descend");
    const each = fly("climb", "each");
    detector.dispose();
    // Nothing held: every decision is a side fixed, and the expert's verdict is read at that decision.
    const eachFixed = each.trace.filter((s) => s.commit === "wire");
    const eachRead = eachFixed.filter((s) => s.commitExpert === "climb" || s.commitExpert === "descend");
    expect(eachRead.length).toBeGreaterThan(1);
    expect(each.text).toContain(`${eachFixed.length} sides fixed in 1 flights (${eachFixed.length} by the wire cells' height`);
    expect(each.text).toContain(`corridor at ${eachRead.length} of them`);
    for (const [f, side] of [[over, "climb"], [under, "descend"]] as const) {
      const fixed = f.trace.filter((s) => s.commit !== undefined);
      expect(fixed).toHaveLength(1);
      expect(fixed[0]!.action).toBe(idx(side));
      expect(fixed[0]!.commitExpert).toBe("climb");
    }
    expect(over.text).toContain("the expert climbed or descended for a wire in its corridor at 1 of them (a side held: at the first decision while held where its corridor held a wire), the side held was its in 1 (side climb: 1 / 0, side descend: 0 / 0 expert climb / descend)");
    expect(under.text).toContain("the expert climbed or descended for a wire in its corridor at 1 of them (a side held: at the first decision while held where its corridor held a wire), the side held was its in 0 (side climb: 0 / 0, side descend: 1 / 0 expert climb / descend)");
    // FakeEnvironment has no wire geometry: the true side is not known.
    expect(over.text).toContain("the true side of the nearest conductor ahead (within 15 m) known at 0 of the 1");
  });

  it("on the wire-across line with the side from the world's wires: each side fixed is the true one, and the report says so", () => {
    const detector = wireEverywhere();
    const options = { split: "val" as const, splitOf: splitOfSeed, factory: (s: number) => new SimEnvironment(WIRE_ACROSS, s, "val", false, { controlPeriod_s: 0.25 }), flights: 1, conditions: ["nominal" as const], planner: { verticalCommit: 0.3, verticalCommitWireCells: 6 } };
    // The wire cells are made to say "under" everywhere, so that a side from them differs from the true one.
    const spy = jest.spyOn(LocalPlanner.prototype, "wireSide").mockReturnValue(idx("descend"));
    let cells: ReturnType<typeof evaluateHarnessRows>, truth: ReturnType<typeof evaluateHarnessRows>;
    try {
      cells = evaluateHarnessRows([{ name: "seeing", detector, truthMix: "fill" }], options);
      truth = evaluateHarnessRows([{ name: "seeing", detector, truthMix: "fill", commitSide: "truth" }], options);
    } finally {
      spy.mockRestore();
      detector.dispose();
    }
    const fixed = (r: typeof truth) => r.conditions[0]!.rows[0]!.flights[0]!.trace.filter((s) => s.commit !== undefined);
    // The wire cells' side is recorded against the truth; with the truth each side is the true one.
    expect(fixed(cells).every((s) => s.commit === "wire" && s.action === idx("descend"))).toBe(true);
    // At the first commitment the nearest conductor ahead is not more than 0.5 m above the drone: the true side is over it.
    expect(fixed(cells)[0]!.commitTruth).toBe("climb");
    expect(fixed(truth).length).toBeGreaterThan(0);
    for (const s of fixed(truth)) {
      expect(s.commit).toBe("truth");
      expect(ACTIONS[s.action]).toBe(s.commitTruth);
    }
    // "truth-each": no hold, every climb or descend at the level takes the true side where it is known.
    const spy2 = jest.spyOn(LocalPlanner.prototype, "wireSide").mockReturnValue(idx("descend"));
    const detector2 = wireEverywhere();
    let each: ReturnType<typeof evaluateHarnessRows>;
    try {
      each = evaluateHarnessRows([{ name: "seeing", detector: detector2, truthMix: "fill", commitSide: "truth-each" }], options);
    } finally {
      spy2.mockRestore();
      detector2.dispose();
    }
    const eachFixed = fixed(each).filter((s) => s.commit === "truth");
    expect(eachFixed.length).toBeGreaterThan(fixed(truth).length);
    for (const s of eachFixed) expect(ACTIONS[s.action]).toBe(s.commitTruth);
    // Nothing is held: a decision is turned only where it took the true side itself.
    expect(each.conditions[0]!.rows[0]!.flights[0]!.trace.filter((s) => s.turned === 1).every((s) => s.commit === "truth")).toBe(true);
    const n = fixed(truth).length;
    expect(formatHarnessReport(truth)).toContain(`0 by the wire cells' height, ${n} by the world's wires, 0 by the planner's own choice`);
    expect(formatHarnessReport(truth)).toContain(`known at ${n} of the ${n}, the side held was it in ${n}`);
    // Under truth-each every decision where the truth is known flies it: the planner's own choice was it where not turned.
    const known = fixed(each).filter((s) => s.commitTruth !== undefined && s.commitTruth !== "none");
    expect(formatHarnessReport(each)).toContain(`the side held was it in ${known.length} (`);
    expect(formatHarnessReport(each)).toContain(`true climb / descend), the planner's own choice in ${known.filter((s) => s.turned !== 1).length};`);
    // With the wire cells' side (under, the truth over): the planner's own choice was the true side where it was turned.
    const wrong = fixed(cells).filter((s) => s.commitTruth === "climb");
    expect(wrong.length).toBeGreaterThan(0);
    expect(formatHarnessReport(cells)).toContain(`the planner's own choice in ${wrong.filter((s) => s.turned === 1).length};`);
  });
});

describe("PlannerPilot refuses the planner's decision options it cannot fly", () => {
  it("names them for the action-formula target and for the oracle pilot", () => {
    const model = new SpatialHarness({ seed: 1 });
    try {
      const actions = { type: "detector" as const, detector, harness: { model, apply: true, target: "actions" as const } };
      expect(() => new PlannerPilot(actions, { verticalCommit: 0.4, verticalCommitWireCells: 6, wVerticalHold: 1 })).toThrow("the action-formula target decides from the corrected action logits alone; it cannot fly wVerticalHold, verticalCommit");
      expect(() => new PlannerPilot(actions)).not.toThrow();
      expect(() => new PlannerPilot({ type: "oracle" }, { verticalCommit: 0.4, verticalCommitWireCells: 6 })).toThrow("verticalCommit read the detector's wire evidence; the oracle pilot has no detector");
      expect(() => new PlannerPilot({ type: "oracle" }, { verticalInPlace: 0.6, verticalInPlaceWireCells: 6 })).toThrow("verticalInPlaceWireCells read the detector's wire evidence");
      expect(() => new PlannerPilot({ type: "oracle" }, { verticalInPlace: 0.6, wVerticalHold: 1 })).not.toThrow();
    } finally {
      model.dispose();
    }
  });
});
