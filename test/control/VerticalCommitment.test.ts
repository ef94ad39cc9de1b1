/**
 * The vertical commitment's pure core (src/control/VerticalCommitment.ts), shared by the eval's
 * pilot and the controller node: its options refused with the reason, the wire cells counted from
 * class probabilities, and the held side against "each" on a planner whose blocked_cruise and wire
 * side are scripted. The pilot's closed-loop behaviour is tested in test/harness/eval/verticalCommit.test.ts,
 * the node's in test/nodes/controllerPlanner.test.ts.
 */
import { ACTIONS } from "../../src/control/actions";
import type { LocalPlanner } from "../../src/control/LocalPlanner";
import { makeNavigation } from "../../src/control/navigation";
import { countWireProbabilityCells, VerticalCommitment } from "../../src/control/VerticalCommitment";

const CLIMB = ACTIONS.indexOf("climb");
const DESCEND = ACTIONS.indexOf("descend");
const CRUISE = ACTIONS.indexOf("cruise");

/** A planner whose blocked_cruise and wire side are set by the test; the altitudes wireSide was read at. */
function scripted(blocked: number, side: number): { planner: LocalPlanner; reads: Array<{ altitude: number; climbed: number }>; set: (b: number, s: number) => void } {
  const state = { blocked, side };
  const reads: Array<{ altitude: number; climbed: number }> = [];
  const planner = {
    get blockedAhead() {
      return state.blocked;
    },
    wireSide: (_mask: ArrayLike<number>, altitude: number, _pitch: number, climbed: number) => {
      reads.push({ altitude, climbed });
      return state.side;
    },
  } as unknown as LocalPlanner;
  return { planner, reads, set: (b, s) => Object.assign(state, { blocked: b, side: s }) };
}

const WIRE = Uint8Array.from([1, 1, 1, 1, 1, 1, 0, 0]);
const NONE = new Uint8Array(8);

describe("VerticalCommitment", () => {
  it("refuses a level outside (0, 1], a cell count under 1 or fractional, and an unknown side, naming the value", () => {
    expect(() => new VerticalCommitment({ level: 0, cells: 6 })).toThrow(/level=0, expected a blocked_cruise level in \(0, 1\]/);
    expect(() => new VerticalCommitment({ level: 1.5, cells: 6 })).toThrow(/level=1.5/);
    expect(() => new VerticalCommitment({ level: 0.3, cells: 0 })).toThrow(/cells=0, expected an integer >= 1/);
    expect(() => new VerticalCommitment({ level: 0.3, cells: 2.5 })).toThrow(/cells=2.5/);
    expect(() => new VerticalCommitment({ level: 0.3, cells: 6, side: "left" as never })).toThrow(/side="left", expected one of each, truth, truth-each/);
    expect(() => new VerticalCommitment({ level: 0.3, cells: 6, stall_s: 0 })).toThrow(/stall_s=0, expected a finite number of seconds > 0/);
    expect(() => new VerticalCommitment({ level: 0.3, cells: 6, stall_s: Number.NaN })).toThrow(/stall_s=NaN/);
  });

  it("counts the cells at the wire probability level from class probabilities, and refuses a size that does not match", () => {
    const mask = new Uint8Array(3);
    expect(countWireProbabilityCells([0.1, 0.9, 0, 0, 0.5, 0.5, 0, 0, 0.05, 0.95, 0, 0], 4, 1, 0.9, mask)).toBe(2);
    expect([...mask]).toEqual([1, 0, 1]);
    expect(() => countWireProbabilityCells(new Float32Array(10), 4, 1, 0.9, mask)).toThrow(/probs.length=10, expected 3 cells x 4 classes = 12/);
    expect(() => countWireProbabilityCells(new Float32Array(12), 4, 4, 0.9, mask)).toThrow(/wireClass=4/);
  });

  it("holds the first side while wire is seen; with \"each\" reads the side afresh from the altitude now", () => {
    const nav = makeNavigation();
    nav.altitude_m = 10;
    const held = scripted(0.8, DESCEND);
    const h = new VerticalCommitment({ level: 0.3, cells: 6 });
    expect(h.decide(CLIMB, WIRE, 6, 1, held.planner, nav)).toBe(DESCEND);
    held.set(0.8, CLIMB);
    expect(h.decide(CLIMB, NONE, 0, 1.5, held.planner, nav)).toBe(DESCEND);
    expect(h.counts).toEqual({ commitments: 1, byWireCells: 1, byTruth: 0, overridden: 2, released: 0 });

    const each = scripted(0.8, DESCEND);
    const e = new VerticalCommitment({ level: 0.3, cells: 6, side: "each" });
    expect(e.decide(CLIMB, WIRE, 6, 1, each.planner, nav)).toBe(DESCEND);
    each.set(0.8, CLIMB);
    nav.altitude_m = 11;
    expect(e.decide(DESCEND, NONE, 0, 1.5, each.planner, nav)).toBe(CLIMB);
    // The second read: from 11 m, 1 m above the frame that opened the evidence.
    expect(each.reads[1]).toEqual({ altitude: 11, climbed: 1 });
    expect(e.side).toBe(-1);
  });

  it("leaves alone what is not a climb or descend, the way ahead under the level, and everything once the evidence lapsed or the clock went back", () => {
    const nav = makeNavigation();
    const s = scripted(0.8, DESCEND);
    const c = new VerticalCommitment({ level: 0.3, cells: 6, side: "each" });
    expect(c.decide(CRUISE, WIRE, 6, 1, s.planner, nav)).toBe(CRUISE);
    s.set(0.2, DESCEND);
    expect(c.decide(CLIMB, WIRE, 6, 1.1, s.planner, nav)).toBe(CLIMB);
    s.set(0.8, DESCEND);
    expect(c.decide(CLIMB, NONE, 0, 3.2, s.planner, nav)).toBe(CLIMB);
    expect(c.event.evidence).toBe(false);
    expect(c.decide(CLIMB, WIRE, 6, 5, s.planner, nav)).toBe(DESCEND);
    // 5 cells are under the count: a replayed bag restarted at 0.5 s has no evidence.
    expect(c.decide(CLIMB, WIRE, 5, 0.5, s.planner, nav)).toBe(CLIMB);
  });
});

describe("VerticalCommitment's stall bound (stall_s)", () => {
  it("with a stall bound turns no decision once the drone came less than 1 m closer to the goal over that long, and turns again after 1 m of progress", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 50;
    const s = scripted(0.8, DESCEND);
    const c = new VerticalCommitment({ level: 0.3, cells: 6, side: "each", stall_s: 3 });
    // The evidence opens at t = 1 s, 50 m from the goal: the stall clock starts there.
    expect(c.decide(CLIMB, WIRE, 6, 1, s.planner, nav)).toBe(DESCEND);
    nav.goalDistance_m = 49.5;
    expect(c.decide(CLIMB, WIRE, 6, 3.9, s.planner, nav)).toBe(DESCEND);
    expect(c.stalled_s).toBeCloseTo(2.9, 9);
    // 3.1 s with 0.5 m of progress: the planner's own climb is flown, counted as released.
    expect(c.decide(CLIMB, WIRE, 6, 4.1, s.planner, nav)).toBe(CLIMB);
    expect(c.event).toMatchObject({ turned: false, released: true, evidence: true });
    // A decision that needs no turn is not a release.
    expect(c.decide(DESCEND, WIRE, 6, 4.3, s.planner, nav)).toBe(DESCEND);
    expect(c.event.released).toBe(false);
    // 1 m closer than where the clock started: the commitment turns again.
    nav.goalDistance_m = 49;
    expect(c.decide(CLIMB, WIRE, 6, 4.5, s.planner, nav)).toBe(DESCEND);
    expect(c.stalled_s).toBe(0);
    expect(c.counts).toMatchObject({ overridden: 3, released: 1 });
  });

  it("restarts the stall clock where the evidence opens again, after reset(), and on a clock that went back", () => {
    const nav = makeNavigation();
    nav.goalDistance_m = 50;
    const s = scripted(0.8, DESCEND);
    const c = new VerticalCommitment({ level: 0.3, cells: 6, side: "each", stall_s: 3 });
    expect(c.decide(CLIMB, WIRE, 6, 1, s.planner, nav)).toBe(DESCEND);
    expect(c.decide(CLIMB, WIRE, 6, 4.5, s.planner, nav)).toBe(CLIMB);
    // The evidence lapses (no wire for > 2 s) and opens again at 10 s, no closer to the goal: a fresh clock.
    expect(c.decide(CRUISE, NONE, 0, 7, s.planner, nav)).toBe(CRUISE);
    expect(c.stalled_s).toBe(0);
    expect(c.decide(CLIMB, WIRE, 6, 10, s.planner, nav)).toBe(DESCEND);
    expect(c.decide(CLIMB, WIRE, 6, 13.5, s.planner, nav)).toBe(CLIMB);
    c.reset();
    expect(c.decide(CLIMB, WIRE, 6, 14, s.planner, nav)).toBe(DESCEND);
    // A replayed bag restarted at 0.5 s: the evidence and the clock start again there (3.5 s later the bound acts).
    expect(c.decide(CLIMB, WIRE, 6, 0.5, s.planner, nav)).toBe(DESCEND);
    expect(c.decide(CLIMB, WIRE, 6, 3, s.planner, nav)).toBe(DESCEND);
    expect(c.decide(CLIMB, WIRE, 6, 4, s.planner, nav)).toBe(CLIMB);
    // Without a bound, the same stall turns every decision.
    const free = new VerticalCommitment({ level: 0.3, cells: 6, side: "each" });
    expect(free.decide(CLIMB, WIRE, 6, 1, s.planner, nav)).toBe(DESCEND);
    expect(free.decide(CLIMB, WIRE, 6, 60, s.planner, nav)).toBe(DESCEND);
    expect(free.counts.released).toBe(0);
  });
});
