/**
 * How a flight passed each wire (issue 13: does the harness avoid wire strikes by climbing over
 * the wires, or by correcting what the planner sees?). The path is the drone's true position at
 * every control step; a "crossing" is a path step whose plan-view (x, y) segment properly
 * intersects the plan view of a wire segment. At that point the drone's altitude and the
 * conductor's are both linearly interpolated (path step and wire segment), so dz > 0 means the
 * drone passed over the conductor, dz < 0 under it. A wire strike ends the flight before a
 * crossing: it is recorded as its own event, with dz to the closest point of the nearest
 * conductor. Conductor identity is the world's object id (one span of one conductor), the same in
 * both arms of a paired comparison since they fly the same seed's world.
 *
 * Plain data in and out (it crosses worker_threads messages); no sim import (the pure core).
 */
import { ACTIONS } from "../actions";
import { percentile } from "./Percentiles";

/** The wire segments of a world: segment i runs from a[3i..] to b[3i..] and belongs to conductor object[i]. */
export type WireGeometry = { count: number; a: Float64Array; b: Float64Array; radius: Float64Array; object: Int32Array };

/** The drone's true path at the control steps (positions before each step's action, then the last one). */
export type FlightPath = { time_s: number[]; x: number[]; y: number[]; z: number[] };

export type WireCrossing = {
  /** The conductor's world object id. */
  object: number;
  time_s: number;
  /** Drone altitude minus the conductor's at the crossing (or at the closest point, for a strike), m. */
  dz_m: number;
  /** Horizontal and vertical speed over the path step of the crossing (the last step, for a strike), m/s. */
  speed_m_s: number;
  vz_m_s: number;
  /** Decisions chosen in the `window_s` before: how many climbed, and how many in all. */
  climbsBefore: number;
  decisionsBefore: number;
  /** True for the strike that ended the flight (not a crossing). */
  struck?: true;
};

const CLIMB = ACTIONS.indexOf("climb");

/** Seconds before an event whose decisions are counted. Default 3 (the planner's horizon, SPEC "Pipeline"). */
export const CROSSING_WINDOW_S = 3;

function decisionsBefore(path: FlightPath, actions: readonly number[], t: number, window_s: number): { climbs: number; n: number } {
  let climbs = 0;
  let n = 0;
  for (let k = 0; k < actions.length && k < path.time_s.length; k++) {
    const tk = path.time_s[k]!;
    if (tk > t || tk < t - window_s) continue;
    n++;
    if (actions[k] === CLIMB) climbs++;
  }
  return { climbs, n };
}

function checkPath(path: FlightPath): void {
  const n = path.time_s.length;
  if (path.x.length !== n || path.y.length !== n || path.z.length !== n) throw new RangeError(`wireCrossings: path arrays of lengths ${n}, ${path.x.length}, ${path.y.length}, ${path.z.length}, expected equal`);
}

/**
 * Whether the plan-view step p + u r (0 < u <= 1) properly crosses wire segment i at a + w s
 * (0 <= w < 1); u and w into `hit`. Parallel in plan view (or a vertical segment): no crossing.
 */
function planCrossing(px: number, py: number, rx: number, ry: number, wires: WireGeometry, i: number, hit: { u: number; w: number }): boolean {
  const { a, b } = wires;
  const ax = a[3 * i]!, ay = a[3 * i + 1]!;
  const sx = b[3 * i]! - ax, sy = b[3 * i + 1]! - ay;
  const denom = rx * sy - ry * sx;
  if (denom === 0) return false;
  // p + u r = a + w s  (2D cross products; u on the path step, w on the wire segment)
  const ex = ax - px, ey = ay - py;
  hit.u = (ex * sy - ey * sx) / denom;
  hit.w = (ex * ry - ey * rx) / denom;
  return hit.u > 0 && hit.u <= 1 && hit.w >= 0 && hit.w < 1;
}

/** The conductor nearest ahead (wireAhead): its object id, plan-view distance along the heading and height above the drone there, m. */
export type WireAhead = { object: number; ahead_m: number; up_m: number };

/**
 * The nearest conductor that the plan-view line from the drone at (x, y) along heading yaw (rad,
 * ENU, from +x toward +y) crosses within range_m, with the conductor's height above the drone's
 * altitude z at that point; undefined when none does. Ground truth for the side of a wire to pass
 * (eval's vertical commitment); the drone is assumed to keep its heading.
 */
export function wireAhead(x: number, y: number, z: number, yaw: number, wires: WireGeometry, range_m: number): WireAhead | undefined {
  const rx = range_m * Math.cos(yaw), ry = range_m * Math.sin(yaw);
  const hit = { u: 0, w: 0 };
  let best: WireAhead | undefined;
  for (let i = 0; i < wires.count; i++) {
    if (!planCrossing(x, y, rx, ry, wires, i, hit)) continue;
    const ahead = hit.u * range_m;
    if (best !== undefined && ahead >= best.ahead_m) continue;
    const wireZ = wires.a[3 * i + 2]! + hit.w * (wires.b[3 * i + 2]! - wires.a[3 * i + 2]!);
    best = { object: wires.object[i]!, ahead_m: ahead, up_m: wireZ - z };
  }
  return best;
}

/**
 * Every plan-view crossing of a conductor by the path, in time order; one per conductor object per
 * path step (a step over the joint of two segments of one conductor counts once).
 * `actions[k]` is the decision taken at path sample k.
 */
export function wireCrossings(path: FlightPath, wires: WireGeometry, actions: readonly number[], window_s = CROSSING_WINDOW_S): WireCrossing[] {
  checkPath(path);
  const out: WireCrossing[] = [];
  const { a, b } = wires;
  const seen = new Set<number>();
  const hit = { u: 0, w: 0 };
  for (let k = 1; k < path.time_s.length; k++) {
    const px = path.x[k - 1]!, py = path.y[k - 1]!, pz = path.z[k - 1]!;
    const qx = path.x[k]!, qy = path.y[k]!, qz = path.z[k]!;
    const rx = qx - px, ry = qy - py;
    const dt = path.time_s[k]! - path.time_s[k - 1]!;
    seen.clear();
    for (let i = 0; i < wires.count; i++) {
      const object = wires.object[i]!;
      if (seen.has(object)) continue;
      if (!planCrossing(px, py, rx, ry, wires, i, hit)) continue;
      const { u, w } = hit;
      seen.add(object);
      const t = path.time_s[k - 1]! + u * dt;
      const droneZ = pz + u * (qz - pz);
      const wireZ = a[3 * i + 2]! + w * (b[3 * i + 2]! - a[3 * i + 2]!);
      const d = decisionsBefore(path, actions, t, window_s);
      out.push({ object, time_s: t, dz_m: droneZ - wireZ, speed_m_s: dt > 0 ? Math.hypot(rx, ry) / dt : 0, vz_m_s: dt > 0 ? (qz - pz) / dt : 0, climbsBefore: d.climbs, decisionsBefore: d.n });
    }
  }
  return out;
}

/** The conductor nearest the path's last position (a wire strike), with dz to its closest point; undefined without wires. */
export function wireStrike(path: FlightPath, wires: WireGeometry, actions: readonly number[], window_s = CROSSING_WINDOW_S): WireCrossing | undefined {
  checkPath(path);
  const k = path.time_s.length - 1;
  if (k < 0 || wires.count === 0) return undefined;
  const x = path.x[k]!, y = path.y[k]!, z = path.z[k]!;
  const { a, b } = wires;
  let best = Number.POSITIVE_INFINITY;
  let object = -1;
  let dz = Number.NaN;
  for (let i = 0; i < wires.count; i++) {
    const ax = a[3 * i]!, ay = a[3 * i + 1]!, az = a[3 * i + 2]!;
    const sx = b[3 * i]! - ax, sy = b[3 * i + 1]! - ay, sz = b[3 * i + 2]! - az;
    const ss = sx * sx + sy * sy + sz * sz;
    const w = ss === 0 ? 0 : Math.min(1, Math.max(0, ((x - ax) * sx + (y - ay) * sy + (z - az) * sz) / ss));
    const cx = ax + w * sx, cy = ay + w * sy, cz = az + w * sz;
    const d = Math.hypot(x - cx, y - cy, z - cz) - wires.radius[i]!;
    if (d < best) {
      best = d;
      object = wires.object[i]!;
      dz = z - cz;
    }
  }
  const dt = k > 0 ? path.time_s[k]! - path.time_s[k - 1]! : 0;
  const speed = dt > 0 ? Math.hypot(x - path.x[k - 1]!, y - path.y[k - 1]!) / dt : 0;
  const vz = dt > 0 ? (z - path.z[k - 1]!) / dt : 0;
  const d = decisionsBefore(path, actions, path.time_s[k]!, window_s);
  return { object, time_s: path.time_s[k]!, dz_m: dz, speed_m_s: speed, vz_m_s: vz, climbsBefore: d.climbs, decisionsBefore: d.n, struck: true };
}

/** A row's crossings and strikes in numbers. */
export type CrossingSummary = {
  flights: number;
  crossings: number;
  over: number;
  dzP10: number;
  dzP50: number;
  dzP90: number;
  speedP50: number;
  /** Crossings at which the drone was climbing (vz > 0.2 m/s) / with a climb decided in the window before. */
  climbingAt: number;
  climbBefore: number;
  strikes: number;
  /** Strikes with the drone level (|vz| <= CLIMBING_VZ_M_S) / at cruise speed (>= CRUISING_M_S): flown into, not met in a manoeuvre. */
  strikesLevel: number;
  strikesCruising: number;
  strikeDzP50: number;
  strikeSpeedP50: number;
};

/** Climb rate above which a crossing counts as climbing, m/s (the wire-crossing test's command threshold). */
export const CLIMBING_VZ_M_S = 0.2;
/** Horizontal speed from which a strike counts as at cruise speed: 7/8 of cruise (DEFAULT_ACTION_LIMITS 4 m/s; the manoeuvres fly 1.4). */
export const CRUISING_M_S = 3.5;

export function summarizeCrossings(flights: readonly { crossings?: readonly WireCrossing[] }[]): CrossingSummary {
  const all = flights.flatMap((f) => f.crossings ?? []);
  const passed = all.filter((c) => c.struck !== true);
  const struck = all.filter((c) => c.struck === true);
  const dz = passed.map((c) => c.dz_m);
  return {
    flights: flights.length,
    crossings: passed.length,
    over: passed.filter((c) => c.dz_m > 0).length,
    dzP10: percentile(dz, 10),
    dzP50: percentile(dz, 50),
    dzP90: percentile(dz, 90),
    speedP50: percentile(passed.map((c) => c.speed_m_s), 50),
    climbingAt: passed.filter((c) => c.vz_m_s > CLIMBING_VZ_M_S).length,
    climbBefore: passed.filter((c) => c.climbsBefore > 0).length,
    strikes: struck.length,
    strikesLevel: struck.filter((c) => Math.abs(c.vz_m_s) <= CLIMBING_VZ_M_S).length,
    strikesCruising: struck.filter((c) => c.speed_m_s >= CRUISING_M_S).length,
    strikeDzP50: percentile(struck.map((c) => c.dz_m), 50),
    strikeSpeedP50: percentile(struck.map((c) => c.speed_m_s), 50),
  };
}

/** What one arm did at the conductor the other arm struck. */
export type AvoidedStrike = {
  seed: number;
  object: number;
  /** The striking arm at its strike. */
  struck: WireCrossing;
  /** "over" / "under": the other arm crossed that conductor (its first crossing of it); "not crossed": it never did. */
  way: "over" | "under" | "not crossed";
  crossing?: WireCrossing;
  /** How the other arm's flight ended. */
  outcome: string;
};

export type CrossingFlight = { seed: number; outcome: string; crossings?: readonly WireCrossing[] };

/**
 * Flights of `a` that struck a wire while the same seed's flight of `b` did not: how `b` passed that
 * conductor. Flights are matched by index (the same seeds in the same order) and their seeds checked.
 */
export function avoidedStrikes(a: readonly CrossingFlight[], b: readonly CrossingFlight[]): AvoidedStrike[] {
  const out: AvoidedStrike[] = [];
  a.forEach((fa, i) => {
    const fb = b[i];
    if (fb === undefined) return;
    if (fb.seed !== fa.seed) throw new RangeError(`avoidedStrikes: flight ${i} is seed ${fa.seed} in one arm and ${fb.seed} in the other`);
    const s = fa.crossings?.find((c) => c.struck === true);
    if (s === undefined || fb.crossings?.some((c) => c.struck === true) === true) return;
    const c = fb.crossings?.find((x) => x.object === s.object && x.struck !== true);
    out.push({ seed: fa.seed, object: s.object, struck: s, way: c === undefined ? "not crossed" : c.dz_m > 0 ? "over" : "under", ...(c === undefined ? {} : { crossing: c }), outcome: fb.outcome });
  });
  return out;
}

/** Both arms crossed the same conductor of the same seed: the other arm's dz minus this arm's, per conductor (first crossings). */
export function pairedDz(on: readonly CrossingFlight[], off: readonly CrossingFlight[]): number[] {
  const out: number[] = [];
  on.forEach((fa, i) => {
    const fb = off[i];
    if (fb === undefined || fb.seed !== fa.seed) return;
    const first = (f: CrossingFlight): Map<number, WireCrossing> => {
      const m = new Map<number, WireCrossing>();
      for (const c of f.crossings ?? []) if (c.struck !== true && !m.has(c.object)) m.set(c.object, c);
      return m;
    };
    const ma = first(fa);
    const mb = first(fb);
    for (const [object, ca] of ma) {
      const cb = mb.get(object);
      if (cb !== undefined) out.push(ca.dz_m - cb.dz_m);
    }
  });
  return out;
}
