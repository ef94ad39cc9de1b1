/**
 * eval --harness --wire-crossings (src/harness/eval/wireCrossings.ts): how a flight passed each
 * wire conductor. The geometry on hand-made paths and wires, then the whole recording on the
 * embedded simulator's wire-across scenario (one line of three conductors over the path).
 */
import * as tf from "@tensorflow/tfjs";
import { ACTIONS } from "../../../src/harness/actions";
import { LocalPlanner } from "../../../src/control/LocalPlanner";
import { initBackend } from "../../../src/harness/backend";
import { SimEnvironment } from "../../../src/harness/data/simEnvironment";
import { flyClosedLoop } from "../../../src/harness/eval/flyClosedLoop";
import { evaluateHarnessRows, formatHarnessReport } from "../../../src/harness/eval/harnessRows";
import { avoidedStrikes, pairedDz, summarizeCrossings, wireAhead, wireCrossings, wireStrike, type CrossingFlight, type FlightPath, type WireCrossing, type WireGeometry } from "../../../src/harness/eval/wireCrossings";
import { Teacher } from "../../../src/harness/models/Teacher";
import { seedsOfSplit, splitOfSeed } from "../../../sim";
import { FakeEnvironment } from "../training/fakeEnvironment";
import { WIRE_ACROSS } from "./wireAcross";

const CLIMB = ACTIONS.indexOf("climb");
const CRUISE = ACTIONS.indexOf("cruise");

/** Conductors as lists of [ax, ay, az, bx, by, bz] segments. */
function wires(objects: Record<number, number[][]>, radius = 0.01): WireGeometry {
  const segs = Object.entries(objects).flatMap(([id, list]) => list.map((s) => ({ id: Number(id), s })));
  const g: WireGeometry = { count: segs.length, a: new Float64Array(3 * segs.length), b: new Float64Array(3 * segs.length), radius: new Float64Array(segs.length).fill(radius), object: new Int32Array(segs.length) };
  segs.forEach(({ id, s }, i) => {
    g.a.set(s.slice(0, 3), 3 * i);
    g.b.set(s.slice(3, 6), 3 * i);
    g.object[i] = id;
  });
  return g;
}

/** North along x = 0 from y = 0, one sample per 0.5 s at 4 m/s, altitude z(t). */
function northPath(n: number, z: (t: number) => number): FlightPath {
  const time_s = Array.from({ length: n }, (_, k) => 0.5 * k);
  return { time_s, x: time_s.map(() => 0), y: time_s.map((t) => 4 * t), z: time_s.map(z) };
}

describe("wireCrossings", () => {
  // Conductor 7: east-west at y = 10, rising from 9 m (x = -10) to 11 m (x = +10), in two segments
  // joined over the path (x = 0, z = 10). Conductor 8: the same line 1 m higher. Conductor 9: parallel to the path.
  const w = wires({
    7: [[-10, 10, 9, -0, 10, 10], [0, 10, 10, 10, 10, 11]],
    8: [[-10, 10, 10, 10, 10, 12]],
    9: [[5, 0, 10, 5, 30, 10]],
  });

  it("finds each conductor crossed, with the drone's height over it, its speed and the climbs before", () => {
    // Climbs from 10 m at 1 m/s from t = 1.5 s: at y = 10 (t = 2.5 s) it is at 11 m.
    const path = northPath(10, (t) => (t < 1.5 ? 10 : 10 + (t - 1.5)));
    const actions = path.time_s.map((t) => (t >= 1.5 ? CLIMB : CRUISE));
    const c = wireCrossings(path, w, actions);
    // The joint of conductor 7's two segments lies on the path: one crossing, not two.
    expect(c.map((x) => x.object)).toEqual([7, 8]);
    expect(c[0]!.time_s).toBeCloseTo(2.5, 9);
    expect(c[0]!.dz_m).toBeCloseTo(11 - 10, 9);
    expect(c[1]!.dz_m).toBeCloseTo(11 - 11, 9);
    expect(c[0]!.speed_m_s).toBeCloseTo(4, 9);
    expect(c[0]!.vz_m_s).toBeCloseTo(1, 9);
    // Decisions at 0, 0.5, ... 2.5 s within [2.5 - 3, 2.5]: 6, of them 3 climbs (1.5, 2.0, 2.5 s).
    expect(c[0]).toMatchObject({ climbsBefore: 3, decisionsBefore: 6 });
    expect(c[0]!.struck).toBeUndefined();
    // Under the wires: negative dz.
    expect(wireCrossings(northPath(10, () => 8), w, []).map((x) => Math.round(x.dz_m * 100) / 100)).toEqual([-2, -3]);
  });

  it("finds nothing where the path stops short of the wires or runs beside them", () => {
    expect(wireCrossings(northPath(5, () => 10), w, [])).toEqual([]); // reaches y = 8
    const beside: FlightPath = { time_s: [0, 1, 2], x: [2, 2, 2], y: [0, 4, 8], z: [10, 10, 10] };
    expect(wireCrossings(beside, wires({ 9: [[5, 0, 10, 5, 30, 10]] }), [])).toEqual([]);
    expect(() => wireCrossings({ time_s: [0, 1], x: [0], y: [0, 1], z: [0, 1] }, w, [])).toThrow("path arrays of lengths 2, 1, 2, 2");
  });

  it("a strike: the nearest conductor and from which side it was met", () => {
    // Ends 0.2 m under level conductor 3 (z = 10), 1.2 m under conductor 4.
    const level = wires({ 4: [[-10, 10, 11, 10, 10, 11]], 3: [[-10, 10, 10, 10, 10, 10]] });
    const path: FlightPath = { time_s: [0, 0.5], x: [0, 0], y: [8, 10], z: [9.8, 9.8] };
    const s = wireStrike(path, level, [CLIMB, CLIMB])!;
    expect(s).toMatchObject({ object: 3, struck: true, climbsBefore: 2, decisionsBefore: 2 });
    expect(s.dz_m).toBeCloseTo(-0.2, 9);
    expect(s.speed_m_s).toBeCloseTo(4, 9);
    expect(wireStrike(path, wires({}), [])).toBeUndefined();
  });
});

describe("paired crossings", () => {
  const crossing = (object: number, dz: number, struck = false): WireCrossing => ({ object, time_s: 1, dz_m: dz, speed_m_s: 3, vz_m_s: 0, climbsBefore: 0, decisionsBefore: 5, ...(struck ? { struck: true as const } : {}) });
  const off: CrossingFlight[] = [
    { seed: 1, outcome: "collision (wire)", crossings: [crossing(4, 2), crossing(5, -0.1, true)] },
    { seed: 2, outcome: "collision (wire)", crossings: [crossing(5, 0.1, true)] },
    { seed: 3, outcome: "goal", crossings: [crossing(5, 1)] },
    { seed: 4, outcome: "collision (wire)", crossings: [crossing(6, 0, true)] },
  ];
  const on: CrossingFlight[] = [
    { seed: 1, outcome: "goal", crossings: [crossing(4, 3), crossing(5, 1.5)] },
    { seed: 2, outcome: "timeout", crossings: [crossing(4, 1)] },
    { seed: 3, outcome: "collision (wire)", crossings: [crossing(5, -0.2, true)] },
    { seed: 4, outcome: "collision (wire)", crossings: [crossing(6, 0.2, true)] },
  ];

  it("says how one arm passed the conductor the other struck", () => {
    const byOn = avoidedStrikes(off, on);
    expect(byOn.map((x) => [x.seed, x.object, x.way, x.outcome])).toEqual([[1, 5, "over", "goal"], [2, 5, "not crossed", "timeout"]]);
    expect(byOn[0]!.crossing!.dz_m).toBe(1.5);
    // Seed 4: both struck, neither avoided.
    expect(avoidedStrikes(on, off).map((x) => [x.seed, x.way])).toEqual([[3, "over"]]);
    expect(() => avoidedStrikes(off, [...on].reverse())).toThrow("flight 0 is seed 1 in one arm and 4 in the other");
  });

  it("compares the heights over the conductors both crossed", () => {
    // Seed 1, conductor 4 only (5 was struck by OFF): 3 - 2.
    expect(pairedDz(on, off)).toEqual([1]);
  });

  it("summarizes a row", () => {
    const k = summarizeCrossings(off);
    expect(k).toMatchObject({ flights: 4, crossings: 2, over: 2, strikes: 3, strikesLevel: 3, strikesCruising: 0 });
    const moving = summarizeCrossings([{ crossings: [{ ...crossing(1, 0, true), vz_m_s: -0.5, speed_m_s: 3.9 }, { ...crossing(2, 0, true), vz_m_s: 0.1, speed_m_s: 3.4 }] }]);
    expect(moving).toMatchObject({ strikes: 2, strikesLevel: 1, strikesCruising: 1 });
    expect(k.dzP50).toBeCloseTo(1.5, 9);
    expect(k.strikeDzP50).toBeCloseTo(0, 9);
    expect(summarizeCrossings([]).crossings).toBe(0);
  });
});

describe("eval --harness --wire-crossings on the wire-across scenario", () => {
  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
  });

  it("records the crossings without changing a flight; the seeing arm passes over the conductor the other struck", () => {
    // A detector that sees nothing (its output layer zeroed, its biases all background, no
    // threat) against the same detector with its grid filled from the truth ("fill": PlannerPilot
    // TruthMix), on two val seeds.
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const out = detector.params.get("head/out/w");
    out.assign(tf.zerosLike(out));
    detector.params.get("head/out/b").assign(tf.tensor1d([20, -20, -20, -20, -20]));
    const options = { split: "val" as const, splitOf: splitOfSeed, factory: (s: number) => new SimEnvironment(WIRE_ACROSS, s, "val", false, { controlPeriod_s: 0.25 }), flights: 2, conditions: ["nominal" as const], pairs: [["seeing", "blind"]] as [string, string][] };
    const arms = [{ name: "seeing", detector, truthMix: "fill" as const }, { name: "blind", detector }];
    const plain = evaluateHarnessRows(arms, options).conditions[0]!;
    const recorded = evaluateHarnessRows(arms, { ...options, wireCrossings: true }).conditions[0]!;
    detector.dispose();
    for (const [i, row] of recorded.rows.entries()) {
      expect(row.flights.map((f) => f.outcome)).toEqual(plain.rows[i]!.flights.map((f) => f.outcome));
      expect(row.flights.map((f) => f.trace.map((s) => s.action))).toEqual(plain.rows[i]!.flights.map((f) => f.trace.map((s) => s.action)));
    }
    expect(plain.rows[0]!.flights[0]!.crossings).toBeUndefined();
    const [seeing, blind] = recorded.rows;
    // The blind arm flies into the line at its altitude: a strike within a body radius of a conductor.
    for (const f of blind!.flights) {
      expect(f.outcome).toMatchObject({ type: "collision", obstacle: "wire" });
      const s = f.crossings!.filter((c) => c.struck === true);
      expect(s).toHaveLength(1);
      expect(Math.abs(s[0]!.dz_m)).toBeLessThan(WIRE_ACROSS.drone.bodyRadius_m + 0.05);
    }
    // The seeing arm crosses all three conductors, over them.
    for (const f of seeing!.flights) {
      expect(f.outcome.type).toBe("goal");
      expect(new Set(f.crossings!.map((c) => c.object)).size).toBe(3);
      for (const c of f.crossings!) expect(c.dz_m).toBeGreaterThan(0);
    }
    const pair = recorded.pairs[0]!;
    expect(pair.crossings!.avoidedByOn.map((x) => x.way)).toEqual(["over", "over"]);
    expect(pair.crossings!.avoidedByOff).toEqual([]);
    const text = formatHarnessReport({ split: "val", conditions: [recorded] });
    expect(text).toContain("seeing: wire crossings (plan view, per conductor): 6 in 2 flights, over 6 (100.0 %)");
    expect(text).toContain("wire strikes of OFF that ON avoided: 2; at the struck conductor ON passed over 2, under 0, did not cross it 0");
  });

  it("refuses an environment without the truth it needs", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const splitOf = (seed: number): "train" | "val" | "test" => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
    expect(() => evaluateHarnessRows([{ name: "bc", detector }], { split: "test", splitOf, factory: (s) => new FakeEnvironment(s), flights: 1, wireCrossings: true })).toThrow("wire crossings need an environment with truePosition_m and wireGeometry");
    // An environment that cannot fly the escape in place says so (the planner is asked to fly every climb in place).
    const spy = jest.spyOn(LocalPlanner.prototype, "inPlace").mockReturnValue(true);
    try {
      expect(() => evaluateHarnessRows([{ name: "bc", detector }], { split: "test", splitOf, factory: (s) => new FakeEnvironment(s), flights: 1, planner: { verticalInPlace: 0.3 } })).toThrow("FakeEnvironment cannot fly forward_m_s=0");
    } finally {
      spy.mockRestore();
    }
    detector.dispose();
  });
});

describe("the vertical escape in place through eval (PlannerOptions.verticalInPlace)", () => {
  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
  });

  it("SimEnvironment flies a given forward speed, and refuses one it cannot", () => {
    const climb = ACTIONS.indexOf("climb");
    const seed = seedsOfSplit("val", 1)[0]!;
    const fly = (forward?: number): number[] => {
      const env = new SimEnvironment(WIRE_ACROSS, seed, "val", false, { controlPeriod_s: 0.25 });
      const p = new Float64Array(3);
      env.truePosition_m(p);
      const start = Array.from(p);
      for (let i = 0; i < 8; i++) env.step(climb, forward);
      env.truePosition_m(p);
      return [p[0]! - start[0]!, p[1]! - start[1]!, p[2]! - start[2]!];
    };
    const ahead = fly();
    const inPlace = fly(0);
    // 2 s of climb: forward at the slow speed (1.4 m/s) against in place; both climb.
    expect(Math.hypot(ahead[0]!, ahead[1]!)).toBeGreaterThan(1.5);
    expect(Math.hypot(inPlace[0]!, inPlace[1]!)).toBeLessThan(0.5 * Math.hypot(ahead[0]!, ahead[1]!));
    expect(inPlace[2]!).toBeGreaterThan(1);
    const env = new SimEnvironment(WIRE_ACROSS, seed, "val", false);
    expect(() => env.step(climb, -1)).toThrow("forward_m_s=-1, expected a speed in [0, 4] m/s");
  });

  it("flyClosedLoop hands the pilot's forward speed to the environment (plannerRows' loop, not only eval --harness)", () => {
    const pilot = (forward: number | undefined) => ({ needsImage: false, reset: () => undefined, act: () => ACTIONS.indexOf("climb"), forward_m_s: forward });
    expect(() => flyClosedLoop(new FakeEnvironment(8), pilot(0), 0)).toThrow("FakeEnvironment cannot fly forward_m_s=0");
    expect(flyClosedLoop(new FakeEnvironment(8), pilot(undefined), 0).outcome.type).not.toBe("running");
  });

  it("the seeing planner on the wire-across line: in place it reaches the line later and still passes over it", () => {
    // The seeing arm of the test above (the grid filled from the truth) with the escape in place at
    // level 0.3: it meets the line's conductors climbing in place, so its path over the first
    // 15 s advances less than the same arm's without it.
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const out = detector.params.get("head/out/w");
    out.assign(tf.zerosLike(out));
    detector.params.get("head/out/b").assign(tf.tensor1d([20, -20, -20, -20, -20]));
    const options = { split: "val" as const, splitOf: splitOfSeed, factory: (s: number) => new SimEnvironment(WIRE_ACROSS, s, "val", false, { controlPeriod_s: 0.25 }), flights: 1, conditions: ["nominal" as const], wireCrossings: true };
    const arm = { name: "seeing", detector, truthMix: "fill" as const };
    const plain = evaluateHarnessRows([arm], options).conditions[0]!.rows[0]!.flights[0]!;
    const inPlace = evaluateHarnessRows([arm], { ...options, planner: { verticalInPlace: 0.3 } }).conditions[0]!.rows[0]!.flights[0]!;
    detector.dispose();
    const vertical = (f: typeof plain): number => f.trace.filter((s) => s.action === ACTIONS.indexOf("climb") || s.action === ACTIONS.indexOf("descend")).length;
    expect(vertical(plain)).toBeGreaterThan(0);
    expect(vertical(inPlace)).toBeGreaterThan(0);
    // In place it reaches the line later (the first crossing), and still passes over it.
    const first = (f: typeof plain): number => f.crossings!.find((c) => c.struck !== true)?.time_s ?? Infinity;
    expect(first(inPlace)).toBeGreaterThan(first(plain));
    for (const c of inPlace.crossings!) expect(c.dz_m).toBeGreaterThan(0);
  });
});

describe("wireAhead: the nearest conductor ahead along the heading (the vertical commitment's true side)", () => {
  // Conductor 3 at y = 10 (z 12), conductor 4 at y = 6 (z 8), conductor 5 parallel to the heading.
  const w = wires({
    3: [[-10, 10, 12, 10, 10, 12]],
    4: [[-10, 6, 7, 10, 6, 9]],
    5: [[2, 0, 10, 2, 30, 10]],
  });
  const north = Math.PI / 2;

  it("finds the nearest conductor the plan-view heading line crosses within the range, with its height over the drone", () => {
    const a = wireAhead(0, 0, 10, north, w, 15)!;
    expect(a.object).toBe(4);
    expect(a.ahead_m).toBeCloseTo(6, 9);
    // Conductor 4 rises from 7 m (x = -10) to 9 m (x = +10): 8 m at x = 0, 2 m under the drone.
    expect(a.up_m).toBeCloseTo(-2, 9);
    // Past conductor 4, conductor 3 is the nearest; out of range, none; heading away, none.
    expect(wireAhead(0, 7, 10, north, w, 15)).toMatchObject({ object: 3, ahead_m: expect.closeTo(3, 9), up_m: expect.closeTo(2, 9) });
    expect(wireAhead(0, 0, 10, north, w, 5)).toBeUndefined();
    expect(wireAhead(0, 0, 10, -north, w, 15)).toBeUndefined();
  });
});
