import {
  DEFAULT_PLANNER_OPTIONS,
  LocalPlanner,
  cellDirections,
  makePlannerTrace,
  passWireSide,
  REVERSAL_WINDOW,
  type PlannerInput,
} from "../../src/control/LocalPlanner";
import { ACTIONS, NUM_ACTIONS, type ActionName } from "../../src/harness/actions";

// The simulator camera (sim/Camera.ts makeCamera): 256x256 px, hfov 90 deg, pitched down 5 deg;
// a 32x32 grid of 8x8-px cells.
const ROWS = 32;
const COLS = 32;
const SIZE = 256;
const DEG = Math.PI / 180;
const CAMERA = { hfov_rad: 90 * DEG, cameraPitch_rad: 5 * DEG };

function input(over: Partial<PlannerInput> = {}): PlannerInput {
  return {
    threat: new Float32Array(ROWS * COLS),
    rows: ROWS,
    cols: COLS,
    width: SIZE,
    height: SIZE,
    altitude_m: 10,
    forwardSpeed_m_s: 4,
    goalBearing_rad: 0,
    goalDistance_m: 200,
    goalDz_m: 0,
    ...over,
  };
}

/** A wire: `value` in every column of `rows`. */
function wire(rows: number[], value = 0.9): Float32Array {
  const t = new Float32Array(ROWS * COLS);
  for (const r of rows) for (let c = 0; c < COLS; c++) t[r * COLS + c] = value;
  return t;
}

/** A trunk: `value` in every row of `cols`. */
function trunk(cols: number[], value = 0.9): Float32Array {
  const t = new Float32Array(ROWS * COLS);
  for (const c of cols) for (let r = 0; r < ROWS; r++) t[r * COLS + c] = value;
  return t;
}

const idx = (name: ActionName): number => ACTIONS.indexOf(name);

function decision(planner: LocalPlanner, over: Partial<PlannerInput>): ActionName {
  const a = ACTIONS[planner.decide(input(over))];
  if (a === undefined) throw new Error("decide() returned an index outside ACTIONS");
  return a;
}

/** Best logit minus the best logit among `others`. */
function margin(logits: Float32Array, best: ActionName, others: readonly ActionName[]): number {
  let m = Infinity;
  for (const o of others) m = Math.min(m, (logits[idx(best)] ?? NaN) - (logits[idx(o)] ?? NaN));
  return m;
}

const ALL_BUT = (a: ActionName): ActionName[] => ACTIONS.filter((x) => x !== a);

/** Numerical Recipes LCG, uniform in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Rows of the 32x32 grid by elevation (from cellDirections, printed once when the tests were written):
// row 11 +10.7 deg, 12 +7.3, 13 +3.9, 14 +0.4, 15 -3.2, 16 -6.8 at the centre columns. The flight
// direction (el 0) lies between rows 14 and 15: the 5 deg pitch puts it 11.2 px = 1.4 cells above
// the image centre.
const FLIGHT_ROWS = [14, 15];
/** 7-11 deg up: 1.0-1.5 m above the flight line at the 8 m planner range, inside the 1.5 m clearance. */
const ABOVE_ROWS = [11, 12];

const planner = new LocalPlanner();
const out = new Float32Array(NUM_ACTIONS);

describe("LocalPlanner: clear sky: goal terms", () => {
  it("cruises toward a goal straight ahead, by a margin over every other action", () => {
    expect(decision(planner, {})).toBe("cruise");
    // cruise progress wGoal * 1 = 2 against slow/climb/descend 2 * 0.35 = 0.7.
    expect(margin(planner.score(input(), out), "cruise", ALL_BUT("cruise"))).toBeGreaterThan(1);
  });

  it("yaws toward a goal 60 deg to either side", () => {
    expect(decision(planner, { goalBearing_rad: 60 * DEG })).toBe("yaw_left");
    expect(decision(planner, { goalBearing_rad: -60 * DEG })).toBe("yaw_right");
    expect(margin(planner.score(input({ goalBearing_rad: 60 * DEG }), out), "yaw_left", ALL_BUT("yaw_left"))).toBeGreaterThan(1);
  });

  it("keeps cruising inside the heading tolerance (0.25 rad)", () => {
    expect(decision(planner, { goalBearing_rad: 0.2 })).toBe("cruise");
    expect(decision(planner, { goalBearing_rad: -0.2 })).toBe("cruise");
  });

  it("climbs toward a goal 5 m above and descends toward one 5 m below", () => {
    expect(decision(planner, { goalDz_m: 5 })).toBe("climb");
    expect(decision(planner, { goalDz_m: -5 })).toBe("descend");
    expect(decision(planner, { goalDz_m: 0.5 })).toBe("cruise");
  });

  it("counts overshoot: slows 3 m before the goal and hovers on it", () => {
    // Cruise flies 10 m over the 2.5 s horizon and would end 7 m past a goal 3 m ahead.
    expect(decision(planner, { goalDistance_m: 3 })).toBe("slow");
    expect(decision(planner, { goalDistance_m: 0 })).toBe("hover");
  });
});

describe("LocalPlanner: wires (wide horizontal structures)", () => {
  it("climbs over a wire on the flight line, not cruise or yaw", () => {
    const logits = planner.score(input({ threat: wire(FLIGHT_ROWS) }), out);
    expect(decision(planner, { threat: wire(FLIGHT_ROWS) })).toBe("climb");
    expect(margin(logits, "climb", ["cruise", "slow", "yaw_left", "yaw_right"])).toBeGreaterThan(1);
    expect(margin(logits, "climb", ["descend", "hover"])).toBeGreaterThan(0.3);
  });

  it("passes under a wire clearly above the flight line at 25 m (room below), not climb into it", () => {
    const logits = planner.score(input({ threat: wire(ABOVE_ROWS), altitude_m: 25 }), out);
    const a = decision(planner, { threat: wire(ABOVE_ROWS), altitude_m: 25 });
    // Geometrically: the wire is 1.0-1.5 m above at 8 m, inside the 1.5 m corridor, so cruise is
    // partly blocked; descending leaves it, climbing sweeps through it.
    expect(a).toBe("descend");
    expect(margin(logits, "descend", ["climb", "cruise"])).toBeGreaterThan(1);
  });

  it("climbs over a wire just below the flight line; descending toward it is clearly worse", () => {
    // Rows 15-16: -3.2 and -6.8 deg, 0.4-1.0 m below at 8 m.
    const logits = planner.score(input({ threat: wire([15, 16]), altitude_m: 25 }), out);
    expect(decision(planner, { threat: wire([15, 16]), altitude_m: 25 })).toBe("climb");
    expect(margin(logits, "climb", ["descend"])).toBeGreaterThan(0.8);
  });

  it("reads the grid at the level attitude: a nose-down pitch moves a flight-level wire up the image, and it still climbs", () => {
    // Nose down 8 deg (REP-103 FLU: positive pitch = nose down): a wire at the flight level shows
    // f*tan(8 deg) = 128 * 0.1405 = 18 px = 2.25 cell rows higher, i.e. rows 12-13 instead of
    // 14-15 (FLIGHT_ROWS). Read without the attitude it looks like a wire above the flight line
    // (descend at altitude); with the attitude it is on the flight line again (climb).
    const pitched = wire([12, 13]);
    expect(decision(planner, { threat: pitched, altitude_m: 25 })).not.toBe("climb");
    expect(decision(planner, { threat: pitched, altitude_m: 25, bodyPitch_rad: (8 * Math.PI) / 180 })).toBe("climb");
    expect(() => planner.score(input({ bodyPitch_rad: Number.NaN }), out)).toThrow("bodyPitch_rad=NaN, expected a finite number in (-pi/2, pi/2)");
  });

  it("threatGain scales an under-confident detector's probabilities: a faint wire ahead is flown into at gain 1 and climbed over at gain 3", () => {
    const faint = wire(FLIGHT_ROWS, 0.2);
    expect(decision(planner, { threat: faint })).toBe("cruise");
    expect(decision(new LocalPlanner({ threatGain: 3 }), { threat: faint })).toBe("climb");
    expect(() => new LocalPlanner({ threatGain: 0 })).toThrow("threatGain=0, expected a finite number > 0");
  });

  it("cruises under a wire well above the corridor", () => {
    // Row 8 is 20 deg up: 2.9 m above at 8 m, outside the 1.5 m clearance.
    expect(decision(planner, { threat: wire([8]), altitude_m: 25 })).toBe("cruise");
  });
});

describe("LocalPlanner: trunks (narrow vertical structures)", () => {
  it("yaws away from a trunk just left of centre", () => {
    // Columns 14-15: azimuth +5.4 and +1.8 deg (left).
    const logits = planner.score(input({ threat: trunk([14, 15]) }), out);
    expect(decision(planner, { threat: trunk([14, 15]) })).toBe("yaw_right");
    expect(margin(logits, "yaw_right", ["yaw_left"])).toBeGreaterThan(0.3);
    expect(margin(logits, "yaw_right", ["cruise", "slow", "climb", "descend"])).toBeGreaterThan(1);
  });

  it("yaws away from a trunk just right of centre", () => {
    expect(decision(planner, { threat: trunk([16, 17]) })).toBe("yaw_left");
  });

  it("mirrors: the trunk on the other side swaps the two yaw logits", () => {
    const left = Float32Array.from(planner.score(input({ threat: trunk([14, 15]) }), out));
    const right = planner.score(input({ threat: trunk([16, 17]) }), out);
    expect(right[idx("yaw_left")]).toBeCloseTo(left[idx("yaw_right")] ?? NaN, 4);
    expect(right[idx("yaw_right")]).toBeCloseTo(left[idx("yaw_left")] ?? NaN, 4);
  });
});

describe("LocalPlanner: everything blocked", () => {
  it.each([0, 4])("hovers (or slows) when threat is everywhere, forward speed %d m/s", (speed) => {
    const a = decision(planner, { threat: new Float32Array(ROWS * COLS).fill(0.9), forwardSpeed_m_s: speed });
    expect(["hover", "slow"]).toContain(a);
  });

  it("charges hover for braking through the blocked cruise window only while moving", () => {
    const trace = makePlannerTrace();
    const full = new Float32Array(ROWS * COLS).fill(0.9);
    planner.score(input({ threat: full, forwardSpeed_m_s: 4 }), out, trace);
    const b = trace.blocked[idx("cruise")] ?? NaN;
    expect(trace.blocked[idx("hover")]).toBe(b);
    // wThreat * hoverThreatFactor * (4 / 4) * blocked = 3 * 0.25 * blocked.
    expect(trace.threatCost[idx("hover")]).toBeCloseTo(0.75 * b, 5);
    planner.score(input({ threat: full, forwardSpeed_m_s: 0 }), out, trace);
    expect(trace.threatCost[idx("hover")]).toBe(0);
  });
});

describe("LocalPlanner: vertical hold (decision hysteresis, wVerticalHold)", () => {
  const climb = idx("climb");
  const descend = idx("descend");

  it("is off by default: holdVertical leaves the logits as score() wrote them", () => {
    const logits = planner.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    const before = Float32Array.from(logits);
    expect(DEFAULT_PLANNER_OPTIONS.wVerticalHold).toBe(0);
    expect(planner.holdVertical(logits, descend)).toEqual(before);
  });

  it("adds wVerticalHold x blocked_cruise to the previous climb or descend only", () => {
    const held = new LocalPlanner({ wVerticalHold: 1 });
    const trace = makePlannerTrace();
    const logits = held.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS), trace);
    const before = Float32Array.from(logits);
    const blocked = trace.blocked[idx("cruise")] ?? NaN;
    expect(blocked).toBeGreaterThan(0.5);
    held.holdVertical(logits, descend);
    expect(logits[descend]).toBeCloseTo((before[descend] ?? NaN) + blocked, 5);
    for (let a = 0; a < NUM_ACTIONS; a++) if (a !== descend) expect(logits[a]).toBe(before[a]);
    for (const previous of [-1, idx("cruise"), idx("yaw_left"), idx("hover")]) {
      const l = Float32Array.from(before);
      expect(held.holdVertical(l, previous)).toEqual(before);
    }
  });

  it("keeps a descent the climb would narrowly beat, and releases when the way ahead is free", () => {
    const logits = planner.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    const gap = (logits[climb] ?? NaN) - (logits[descend] ?? NaN);
    expect(gap).toBeGreaterThan(0);
    const held = new LocalPlanner({ wVerticalHold: 2 * gap + 0.5 });
    expect(held.decide(input({ threat: wire(FLIGHT_ROWS) }))).toBe(climb);
    const again = held.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    expect(held.holdVertical(again, descend).indexOf(Math.max(...again))).toBe(descend);
    // Clear sky: blocked_cruise is ~0, so the hold adds ~nothing and cruise wins.
    const free = held.score(input(), new Float32Array(NUM_ACTIONS));
    expect(held.holdVertical(free, descend).indexOf(Math.max(...free))).toBe(idx("cruise"));
  });

  it("rejects a negative or non-finite hold, naming it", () => {
    expect(() => new LocalPlanner({ wVerticalHold: -1 })).toThrow("wVerticalHold=-1, expected a finite number >= 0");
    expect(() => new LocalPlanner({ wVerticalHold: Number.NaN })).toThrow("wVerticalHold=NaN");
  });
});

describe("LocalPlanner: braking on a vertical reversal (brakeOnReversal)", () => {
  const climb = idx("climb");
  const descend = idx("descend");
  const hover = idx("hover");

  it("is off by default", () => {
    planner.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    expect(DEFAULT_PLANNER_OPTIONS.brakeOnReversal).toBe(0);
    expect(planner.brakeReversal(climb, descend, 0)).toBe(climb);
  });

  it("answers hover for a reversal within the window while the way ahead reads blocked, and only then", () => {
    const p = new LocalPlanner({ brakeOnReversal: 0.3 });
    p.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    expect(p.brakeReversal(climb, descend, 0)).toBe(hover);
    expect(p.brakeReversal(descend, climb, REVERSAL_WINDOW - 1)).toBe(hover);
    expect(p.brakeReversal(climb, descend, REVERSAL_WINDOW)).toBe(climb); // the descent is too long ago
    expect(p.brakeReversal(climb, climb, 0)).toBe(climb); // no reversal
    expect(p.brakeReversal(climb, -1, 0)).toBe(climb);
    expect(p.brakeReversal(idx("cruise"), descend, 0)).toBe(idx("cruise"));
    p.score(input(), new Float32Array(NUM_ACTIONS)); // clear sky: blocked_cruise ~0
    expect(p.brakeReversal(climb, descend, 0)).toBe(climb);
    expect(() => new LocalPlanner({ brakeOnReversal: -1 })).toThrow("brakeOnReversal=-1");
  });
});

describe("LocalPlanner: the vertical escape in place (verticalInPlace)", () => {
  const climb = idx("climb");
  const descend = idx("descend");

  it("is off by default", () => {
    planner.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    expect(DEFAULT_PLANNER_OPTIONS.verticalInPlace).toBe(0);
    expect(planner.inPlace(climb)).toBe(false);
  });

  it("says in place for climb and descend while the way ahead reads blocked at the level, and only then", () => {
    const p = new LocalPlanner({ verticalInPlace: 0.3 });
    p.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS));
    expect(p.inPlace(climb)).toBe(true);
    expect(p.inPlace(descend)).toBe(true);
    expect(p.inPlace(idx("cruise"))).toBe(false);
    expect(p.inPlace(idx("yaw_left"))).toBe(false);
    p.score(input(), new Float32Array(NUM_ACTIONS)); // clear sky: blocked_cruise ~0
    expect(p.inPlace(climb)).toBe(false);
    expect(() => new LocalPlanner({ verticalInPlace: -1 })).toThrow("verticalInPlace=-1");
    expect(() => new LocalPlanner({ verticalInPlaceWireCells: 2.5 })).toThrow("verticalInPlaceWireCells=2.5, expected an integer count of cells >= 0");
  });
});

describe("LocalPlanner: altitude safety", () => {
  it("climbs at 1 m (below minAltitude_m = 2) in clear sky, by a wide margin", () => {
    const logits = planner.score(input({ altitude_m: 1 }), out);
    expect(decision(planner, { altitude_m: 1 })).toBe("climb");
    expect(margin(logits, "climb", ALL_BUT("climb"))).toBeGreaterThan(2);
  });

  it("does not descend near minAltitude_m with a wire above", () => {
    // 2.5 m - 1.5 m/s * 2.5 s = -1.25 m < 2 m: descend is penalised by wAltitude = 4.
    const logits = planner.score(input({ threat: wire(ABOVE_ROWS), altitude_m: 2.5 }), out);
    expect(decision(planner, { threat: wire(ABOVE_ROWS), altitude_m: 2.5 })).not.toBe("descend");
    expect(margin(logits, "cruise", ["descend"])).toBeGreaterThan(2);
  });

  it("does not descend toward a low goal when that would go below minAltitude_m", () => {
    expect(decision(planner, { altitude_m: 3, goalDz_m: -5 })).not.toBe("descend");
  });

  it("does not climb toward a high goal past maxAltitude_m = 40", () => {
    // 39 m + 1.5 m/s * 2.5 s = 42.75 m > 40 m.
    expect(decision(planner, { altitude_m: 39, goalDz_m: 5 })).not.toBe("climb");
  });
});

describe("LocalPlanner: bounded, finite logits", () => {
  it("stays finite and bounded for 300 seeded random grids and states, and the trace adds up", () => {
    const o = DEFAULT_PLANNER_OPTIONS;
    // Upper bound of |logit| from the terms: progress in [-1, 1], one goal bonus per action,
    // threat factor <= 1, altitude ramps in [0, 1], shape terms and hover's constant cost.
    const bound = o.wGoal + Math.max(o.wHeading, o.wAltitudeGoal) + o.wThreat + o.wAltitude + o.wClimbWhenBlocked + o.wCentroid + o.hoverCost;
    const rnd = lcg(12345);
    const trace = makePlannerTrace();
    for (let k = 0; k < 300; k++) {
      const t = new Float32Array(ROWS * COLS);
      const dense = rnd();
      for (let i = 0; i < t.length; i++) t[i] = rnd() < dense ? rnd() : 0;
      const inp = input({
        threat: t,
        altitude_m: rnd() * 60 - 5,
        forwardSpeed_m_s: rnd() * 6 - 1,
        goalBearing_rad: (rnd() * 4 - 2) * Math.PI,
        goalDistance_m: rnd() * 100,
        goalDz_m: rnd() * 40 - 20,
      });
      planner.score(inp, out, trace);
      for (let a = 0; a < NUM_ACTIONS; a++) {
        const l = out[a] ?? NaN;
        expect(Number.isFinite(l)).toBe(true);
        expect(Math.abs(l)).toBeLessThanOrEqual(bound);
        const b = trace.blocked[a] ?? NaN;
        expect(b).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThanOrEqual(1);
        const sum = (trace.goalScore[a] ?? NaN) - (trace.threatCost[a] ?? NaN) + (trace.altitudeScore[a] ?? NaN) + (trace.shapeScore[a] ?? NaN);
        expect(sum).toBeCloseTo(l, 4);
      }
    }
  });

  it("counts non-finite threat cells and treats them as 1 (blocked)", () => {
    const withNaN = wire(FLIGHT_ROWS, 0.9);
    const asOnes = wire(FLIGHT_ROWS, 0.9);
    const specials = [NaN, Infinity, -Infinity];
    for (let c = 0; c < COLS; c++) {
      withNaN[14 * COLS + c] = specials[c % 3] ?? NaN;
      asOnes[14 * COLS + c] = 1;
    }
    const trace = makePlannerTrace();
    const a = Float32Array.from(planner.score(input({ threat: withNaN }), out, trace));
    expect(trace.nonFinite).toBe(COLS);
    const b = planner.score(input({ threat: asOnes }), out, trace);
    expect(trace.nonFinite).toBe(0);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(decision(planner, { threat: withNaN })).toBe("climb");
  });

  it("treats an all-NaN grid as fully blocked (hover)", () => {
    expect(decision(planner, { threat: new Float32Array(ROWS * COLS).fill(NaN), forwardSpeed_m_s: 0 })).toBe("hover");
  });
});

describe("LocalPlanner: cell geometry (cellDirections)", () => {
  it("maps the centre column to az 0, the centre row to el -pitch, the left column to ~+45 deg", () => {
    // 33x33 cells of 8 px on a 264 px image, so a cell is centred on the principal point
    // (131.5, 131.5); fx = 132 / tan(45 deg) = 132.
    const n = 33;
    const az = new Float64Array(n * n);
    const el = new Float64Array(n * n);
    cellDirections({ rows: n, cols: n, width: 264, height: 264 }, CAMERA, az, el);
    const centre = 16 * n + 16;
    expect(az[centre]).toBeCloseTo(0, 12);
    // The optical axis itself: elevation = -pitch exactly.
    expect(el[centre]).toBeCloseTo(-5 * DEG, 12);
    // Left column centre u = 3.5: optical x = -128/132; rotated by the pitch, body
    // (fwd, left) = (cos 5 deg, 128/132): az = atan2(128/132, cos 5 deg) = 44.2 deg, half a
    // cell inside the 45 deg image edge.
    expect(az[16 * n]).toBeCloseTo(Math.atan2(128 / 132, Math.cos(5 * DEG)), 12);
    expect(Math.abs((az[16 * n] ?? NaN) - 45 * DEG)).toBeLessThan(1 * DEG);
    expect(az[16 * n + 32]).toBeCloseTo(-(az[16 * n] ?? NaN), 12);
    // Rows go down: the top row looks up, the bottom row down.
    expect(el[16]).toBeGreaterThan(0);
    expect(el[32 * n + 16]).toBeLessThan(-5 * DEG);
  });

  it("puts the flight direction between rows 14 and 15 of the 32x32 grid (5 deg pitch down)", () => {
    const az = new Float64Array(ROWS * COLS);
    const el = new Float64Array(ROWS * COLS);
    cellDirections({ rows: ROWS, cols: COLS, width: SIZE, height: SIZE }, CAMERA, az, el);
    expect(el[14 * COLS + 15]).toBeGreaterThan(0);
    expect(el[15 * COLS + 15]).toBeLessThan(0);
    // Columns 15 and 16 straddle the axis symmetrically: u = 123.5, 131.5 around cx = 127.5.
    expect(az[15 * COLS + 15]).toBeGreaterThan(0);
    expect(az[15 * COLS + 16]).toBeCloseTo(-(az[15 * COLS + 15] ?? NaN), 12);
  });
});

describe("LocalPlanner: errors", () => {
  it("rejects a threat grid of the wrong length, naming it", () => {
    expect(() => planner.score(input({ threat: new Float32Array(ROWS * COLS - 1) }), out)).toThrow(
      new RangeError("threat.length=1023, expected rows*cols=32*32=1024"),
    );
  });

  it("rejects non-integer or non-positive dimensions", () => {
    expect(() => planner.score(input({ rows: 31.5 }), out)).toThrow(/^rows=31\.5, expected a positive integer$/);
    expect(() => planner.score(input({ width: 0 }), out)).toThrow(/^width=0, expected a positive integer$/);
  });

  it("rejects NaN altitude and negative goal distance", () => {
    expect(() => planner.score(input({ altitude_m: NaN }), out)).toThrow(new RangeError("altitude_m=NaN, expected a finite number"));
    expect(() => planner.decide(input({ goalDistance_m: -1 }))).toThrow(/^goalDistance_m=-1, expected a finite number >= 0$/);
  });

  it("rejects an out array of the wrong length", () => {
    expect(() => planner.score(input(), new Float32Array(6))).toThrow(/^out\.length=6, expected NUM_ACTIONS=7$/);
  });

  it("rejects invalid options, naming them", () => {
    expect(() => new LocalPlanner({ arcSamples: 1 })).toThrow(/^arcSamples=1, expected an integer >= 2$/);
    expect(() => new LocalPlanner({ hfov_rad: Math.PI })).toThrow(/^hfov_rad=3\.14\d*, expected in \(0, pi\)$/);
    expect(() => new LocalPlanner({ wThreat: -1 })).toThrow(/^wThreat=-1, expected a finite number >= 0$/);
  });
});

describe("LocalPlanner: no allocation per call", () => {
  it("writes into and returns the same out array, with the same values on a repeat call", () => {
    const p = new LocalPlanner();
    const o = new Float32Array(NUM_ACTIONS);
    const inp = input({ threat: trunk([14, 15]) });
    const first = p.score(inp, o);
    const copy = Float32Array.from(first);
    const second = p.score(inp, o);
    expect(first).toBe(o);
    expect(second).toBe(o);
    expect(Array.from(second)).toEqual(Array.from(copy));
  });

  it("decide() is the argmax of score()", () => {
    const p = new LocalPlanner();
    const inp = input({ threat: wire(ABOVE_ROWS), altitude_m: 25 });
    const logits = p.score(inp, new Float32Array(NUM_ACTIONS));
    const max = Math.max(...Array.from(logits));
    expect(logits[p.decide(inp)]).toBe(max);
  });

  it("recomputes the geometry when the grid shape changes", () => {
    const p = new LocalPlanner();
    // Row 7 of a 16x16 grid covers pixels 112-127, the same as rows 14-15 of the 32x32 grid.
    const t16 = new Float32Array(16 * 16);
    for (let c = 0; c < 16; c++) t16[7 * 16 + c] = 0.9;
    expect(ACTIONS[p.decide(input())]).toBe("cruise");
    expect(ACTIONS[p.decide(input({ threat: t16, rows: 16, cols: 16 }))]).toBe("climb");
    expect(ACTIONS[p.decide(input())]).toBe("cruise");
  });
});

describe("LocalPlanner: the side of a seen wire (wireSide, for verticalCommit)", () => {
  const climb = idx("climb");
  const descend = idx("descend");
  const el = new Float64Array(ROWS * COLS);
  cellDirections({ rows: ROWS, cols: COLS, width: SIZE, height: SIZE }, CAMERA, new Float64Array(ROWS * COLS), el);
  /** The row whose cells' elevation is nearest `deg`, and a mask of its cells. */
  const rowAt = (deg: number): { row: number; mask: Uint8Array } => {
    let row = 0;
    for (let r = 1; r < ROWS; r++) if (Math.abs(el[r * COLS]! - deg * DEG) < Math.abs(el[row * COLS]! - deg * DEG)) row = r;
    const mask = new Uint8Array(ROWS * COLS);
    for (let c = 0; c < COLS; c++) mask[row * COLS + c] = 1;
    return { row, mask };
  };

  it("passes under a wire clearly above, over one below or near the flight line, by the cells' median height", () => {
    const p = new LocalPlanner();
    p.score(input(), new Float32Array(NUM_ACTIONS));
    // 10 deg up at the 8 m range: 1.4 m above (> 0.5 m) -> under; 10 deg down -> over.
    expect(p.wireSide(rowAt(10).mask, 10)).toBe(descend);
    expect(p.wireSide(rowAt(-10).mask, 10)).toBe(climb);
    // 2 deg up: 0.28 m above, within the margin -> over (wires sag, the ground is below).
    expect(8 * Math.tan(el[rowAt(2).row * COLS]!)).toBeLessThan(0.5);
    expect(p.wireSide(rowAt(2).mask, 10)).toBe(climb);
    // The median decides: two rows above and one below -> under.
    const both = new Uint8Array(ROWS * COLS);
    for (const m of [rowAt(10).mask, rowAt(14).mask, rowAt(-10).mask]) m.forEach((v, i) => (both[i] ||= v));
    expect(p.wireSide(both, 10)).toBe(descend);
    // No room below (altitude - 2 m <= clearance 1.5 m): over, whatever the height.
    expect(p.wireSide(rowAt(10).mask, 3)).toBe(climb);
    expect(p.wireSide(new Uint8Array(ROWS * COLS), 10)).toBe(-1);
  });

  it("reads the cells' height at the level attitude (nose down by pitch lowers a body direction by pitch)", () => {
    const p = new LocalPlanner();
    p.score(input(), new Float32Array(NUM_ACTIONS));
    const { row, mask } = rowAt(10);
    expect(p.wireSide(mask, 10, 0)).toBe(descend);
    // Nose down by the row's own elevation: the wire is level with the drone -> over.
    expect(p.wireSide(mask, 10, el[row * COLS])).toBe(climb);
    // Nose up by 10 deg: a cell on the body axis (0 deg) looks 10 deg above the horizon -> under.
    expect(p.wireSide(rowAt(0).mask, 10, -10 * DEG)).toBe(descend);
  });

  it("reads the cells' height from where the drone is now when it has climbed since the frame", () => {
    const p = new LocalPlanner();
    p.score(input(), new Float32Array(NUM_ACTIONS));
    const { mask } = rowAt(10);
    // The median height of the row's cells at the 8 m range (a row's elevation varies a little with azimuth).
    const ups = [...el].filter((_, i) => mask[i] === 1).map((e) => 8 * Math.tan(e)).sort((a, b) => a - b);
    const up = (ups[ups.length / 2 - 1]! + ups[ups.length / 2]!) / 2;
    expect(p.wireSide(mask, 10, 0, 0)).toBe(descend);
    // Climbed to within the margin of the wire's height: over it now.
    expect(p.wireSide(mask, 10, 0, up - 0.4)).toBe(climb);
    expect(p.wireSide(mask, 10, 0, up - 0.6)).toBe(descend);
    // Descended since a wire seen level: it is now above, by more than the margin -> under.
    expect(p.wireSide(rowAt(0).mask, 10, 0, -1)).toBe(descend);
    expect(() => p.wireSide(mask, 10, 0, Number.NaN)).toThrow("climbed_m=NaN");
  });

  it("refuses a mask before any grid or of another grid, and bad options", () => {
    expect(() => new LocalPlanner().wireSide(new Uint8Array(ROWS * COLS), 10)).toThrow("no grid yet");
    const p = new LocalPlanner();
    p.score(input(), new Float32Array(NUM_ACTIONS));
    expect(() => p.wireSide(new Uint8Array(10), 10)).toThrow("wire.length=10, expected rows*cols=1024");
    expect(() => p.wireSide(new Uint8Array(ROWS * COLS), Number.NaN)).toThrow("altitude_m=NaN");
    expect(() => p.wireSide(new Uint8Array(ROWS * COLS), 10, 2)).toThrow("bodyPitch_rad=2");
    expect(DEFAULT_PLANNER_OPTIONS.verticalCommit).toBe(0);
    expect(() => new LocalPlanner({ verticalCommit: 1.5, verticalCommitWireCells: 6 })).toThrow("verticalCommit=1.5, expected a blocked_cruise level in [0, 1]");
    expect(() => new LocalPlanner({ verticalCommit: 0.6 })).toThrow("verticalCommitWireCells=0, expected >= 1 with verticalCommit=0.6");
    expect(() => new LocalPlanner({ verticalCommit: 0.6, verticalCommitWireCells: 2.5 })).toThrow("verticalCommitWireCells=2.5, expected an integer");
  });

  it("reports blocked_cruise of the last score()", () => {
    const p = new LocalPlanner();
    const trace = makePlannerTrace();
    p.score(input({ threat: wire(FLIGHT_ROWS) }), new Float32Array(NUM_ACTIONS), trace);
    expect(p.blockedAhead).toBeGreaterThan(0.5);
    expect(p.blockedAhead).toBeCloseTo(trace.blocked[idx("cruise")]!, 6);
    p.score(input(), new Float32Array(NUM_ACTIONS));
    expect(p.blockedAhead).toBeLessThan(0.1);
  });
});

describe("passWireSide: the expert's rule on a wire's height", () => {
  it("passes under only a wire more than 0.5 m above with room below, else over", () => {
    const o = DEFAULT_PLANNER_OPTIONS;
    expect(passWireSide(0.6, 10, o)).toBe(idx("descend"));
    expect(passWireSide(0.5, 10, o)).toBe(idx("climb"));
    expect(passWireSide(-3, 10, o)).toBe(idx("climb"));
    // 3.5 m - 2 m = 1.5 m is not more than the 1.5 m clearance: no room below.
    expect(passWireSide(2, 3.5, o)).toBe(idx("climb"));
    expect(passWireSide(2, 3.6, o)).toBe(idx("descend"));
  });
});
