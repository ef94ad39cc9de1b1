/**
 * Privileged state for the expert pilot and the evaluation (never an input of the student):
 * the nearest structure in any direction, the first structure on the flight path, per-class
 * nearest distances and the goal. The flight path is the straight line from the body centre
 * along the velocity (or the heading when slower than 0.3 m/s) over `horizon_m`; a structure is
 * on the path when the body sphere swept along it would touch it (segment-segment distance
 * < body radius + structure radius + margin). Bearings are in the heading frame: azimuth
 * positive to the left (counter-clockwise, REP-103), elevation positive up.
 */
import { segmentSegmentClosest, type SegmentPair } from "./geometry";
import type { DroneState } from "./Drone";
import { CLASS_BACKGROUND, type World } from "./World";

export type PrivilegedState = {
  /** Surface distance to the nearest structure (any direction), m; Infinity if none. */
  nearestDistance_m: number;
  nearestClass: number;
  nearestObject: number;
  nearestAzimuth_rad: number;
  nearestElevation_rad: number;
  /**
   * Distance along the path to where the body would first touch a structure (closest approach
   * minus the half-chord of the reach circle), m; Infinity if none within the horizon.
   */
  pathDistance_m: number;
  pathClass: number;
  pathObject: number;
  pathAzimuth_rad: number;
  pathElevation_rad: number;
  /** pathDistance / speed along the path, s; Infinity if nothing is on the path or hovering. */
  timeToCollision_s: number;
  /** Surface distance per class index (0 unused, 1 wire, 2 branch, 3 pole/trunk), m. */
  classDistance_m: Float64Array;
  /** Body centre height above the ground minus the body radius, m. */
  groundClearance_m: number;
  goalDistance_m: number;
  goalAzimuth_rad: number;
};

export function makePrivilegedState(): PrivilegedState {
  return {
    nearestDistance_m: Infinity,
    nearestClass: CLASS_BACKGROUND,
    nearestObject: -1,
    nearestAzimuth_rad: 0,
    nearestElevation_rad: 0,
    pathDistance_m: Infinity,
    pathClass: CLASS_BACKGROUND,
    pathObject: -1,
    pathAzimuth_rad: 0,
    pathElevation_rad: 0,
    timeToCollision_s: Infinity,
    classDistance_m: Float64Array.of(Infinity, Infinity, Infinity, Infinity),
    groundClearance_m: 0,
    goalDistance_m: 0,
    goalAzimuth_rad: 0,
  };
}

export type PrivilegedOptions = {
  /** Length of the straight flight path checked, m. Default 30. */
  horizon_m?: number;
  /** Extra clearance around the body sphere counted as "on the path", m. Default 0.2. */
  margin_m?: number;
};

const pair: SegmentPair = { s: 0, t: 0, distance: 0 };

/**
 * Runs of consecutive segments of one object with the box of their end points, their largest
 * radius and a bit mask of their classes, built once per world: a whole run is skipped when
 * neither the nearest-structure test nor the path test could accept any of its segments.
 */
type Runs = { start: Int32Array; end: Int32Array; box: Float64Array; maxRadius: Float64Array; classes: Uint8Array };
const runsOfWorld = new WeakMap<World, Runs>();

function runsOf(world: World): Runs {
  const cached = runsOfWorld.get(world);
  if (cached !== undefined) return cached;
  const seg = world.segments;
  let n = 0;
  for (let i = 0; i < seg.count; i++) if (i === 0 || seg.object[i] !== seg.object[i - 1]) n++;
  const runs: Runs = { start: new Int32Array(n), end: new Int32Array(n), box: new Float64Array(6 * n), maxRadius: new Float64Array(n), classes: new Uint8Array(n) };
  let q = -1;
  for (let i = 0; i < seg.count; i++) {
    if (i === 0 || seg.object[i] !== seg.object[i - 1]) {
      q++;
      runs.start[q] = i;
      runs.box.fill(Infinity, 6 * q, 6 * q + 3);
      runs.box.fill(-Infinity, 6 * q + 3, 6 * q + 6);
    }
    runs.end[q] = i + 1;
    for (let k = 0; k < 3; k++) {
      const lo = Math.min(seg.a[3 * i + k]!, seg.b[3 * i + k]!);
      const hi = Math.max(seg.a[3 * i + k]!, seg.b[3 * i + k]!);
      if (lo < runs.box[6 * q + k]!) runs.box[6 * q + k] = lo;
      if (hi > runs.box[6 * q + 3 + k]!) runs.box[6 * q + 3 + k] = hi;
    }
    if (seg.radius[i]! > runs.maxRadius[q]!) runs.maxRadius[q] = seg.radius[i]!;
    runs.classes[q] = runs.classes[q]! | (1 << seg.cls[i]!);
  }
  runsOfWorld.set(world, runs);
  return runs;
}

/**
 * The straight flight path of one call: from the body centre c along the unit direction d over
 * the horizon to e, with its bounding box (low, high corners). Module scratch: no allocation per
 * call.
 */
const path = { cx: 0, cy: 0, cz: 0, ex: 0, ey: 0, ez: 0, horizon: 0, lx: 0, ly: 0, lz: 0, hx: 0, hy: 0, hz: 0 };
type FlightPath = typeof path;
/** Closest points of the nearest structure and of the first one on the path (xyz each). */
const hitPoints = new Float64Array(6);

/** Fills `out` for the drone state `s` in `world` with body radius `bodyRadius_m`. */
export function computePrivileged(
  world: World,
  s: DroneState,
  bodyRadius_m: number,
  out: PrivilegedState,
  options: PrivilegedOptions = {},
): PrivilegedState {
  const horizon = options.horizon_m ?? 30;
  const margin = options.margin_m ?? 0.2;
  const cx = s.position[0]!, cy = s.position[1]!, cz = s.position[2]!;
  const vx = s.velocity[0]!, vy = s.velocity[1]!, vz = s.velocity[2]!;
  const speed = Math.hypot(vx, vy, vz);
  let dx: number, dy: number, dz: number;
  if (speed > 0.3) {
    dx = vx / speed; dy = vy / speed; dz = vz / speed;
  } else {
    dx = Math.cos(s.yaw); dy = Math.sin(s.yaw); dz = 0;
  }
  const ex = cx + dx * horizon, ey = cy + dy * horizon, ez = cz + dz * horizon;
  path.cx = cx; path.cy = cy; path.cz = cz; path.ex = ex; path.ey = ey; path.ez = ez; path.horizon = horizon;
  path.lx = Math.min(cx, ex); path.hx = Math.max(cx, ex); path.ly = Math.min(cy, ey); path.hy = Math.max(cy, ey); path.lz = Math.min(cz, ez); path.hz = Math.max(cz, ez);
  out.nearestDistance_m = Infinity;
  out.nearestClass = CLASS_BACKGROUND;
  out.nearestObject = -1;
  out.pathDistance_m = Infinity;
  out.pathClass = CLASS_BACKGROUND;
  out.pathObject = -1;
  out.classDistance_m.fill(Infinity);
  hitPoints.fill(0);
  scanStructures(world, path, bodyRadius_m, margin, out);
  const cyaw = Math.cos(s.yaw), syaw = Math.sin(s.yaw);
  if (out.nearestObject >= 0) {
    out.nearestAzimuth_rad = azimuthOf(hitPoints[0]! - cx, hitPoints[1]! - cy, cyaw, syaw);
    out.nearestElevation_rad = elevationOf(hitPoints[0]! - cx, hitPoints[1]! - cy, hitPoints[2]! - cz, cyaw, syaw);
  }
  if (out.pathObject >= 0) {
    out.pathAzimuth_rad = azimuthOf(hitPoints[3]! - cx, hitPoints[4]! - cy, cyaw, syaw);
    out.pathElevation_rad = elevationOf(hitPoints[3]! - cx, hitPoints[4]! - cy, hitPoints[5]! - cz, cyaw, syaw);
    out.timeToCollision_s = speed > 0.3 ? out.pathDistance_m / speed : Infinity;
  } else {
    out.pathAzimuth_rad = 0;
    out.pathElevation_rad = 0;
    out.timeToCollision_s = Infinity;
  }
  out.groundClearance_m = cz - bodyRadius_m;
  const gx = world.goal.x - cx, gy = world.goal.y - cy, gz = world.goal.z - cz;
  out.goalDistance_m = Math.hypot(gx, gy, gz);
  out.goalAzimuth_rad = Math.atan2(-syaw * gx + cyaw * gy, cyaw * gx + syaw * gy);
  return out;
}

/** Azimuth in the heading frame (cos, sin of the yaw) of the horizontal offset (rx, ry), left positive. */
function azimuthOf(rx: number, ry: number, cyaw: number, syaw: number): number {
  return Math.atan2(-syaw * rx + cyaw * ry, cyaw * rx + syaw * ry);
}

/** Elevation of the offset (rx, ry, rz) above the horizontal plane, up positive. */
function elevationOf(rx: number, ry: number, rz: number, cyaw: number, syaw: number): number {
  return Math.atan2(rz, Math.hypot(cyaw * rx + syaw * ry, -syaw * rx + cyaw * ry));
}

/**
 * The nearest-structure, per-class and path tests over every segment of the world (whole runs
 * skipped where they cannot change the result) into `out`, the closest points into hitPoints.
 */
function scanStructures(world: World, p: FlightPath, bodyRadius_m: number, margin: number, out: PrivilegedState): void {
  const seg = world.segments;
  const cx = p.cx, cy = p.cy, cz = p.cz, ex = p.ex, ey = p.ey, ez = p.ez, horizon = p.horizon;
  const pLx = p.lx, pHx = p.hx, pLy = p.ly, pHy = p.hy, pLz = p.lz, pHz = p.hz;
  const runs = runsOf(world);
  for (let q = 0; q < runs.start.length; q++) {
    if (runCannotImprove(runs, q, p, bodyRadius_m, margin, out.classDistance_m)) continue;
    const runEnd = runs.end[q]!;
    for (let i = runs.start[q]!; i < runEnd; i++) {
      const j = 3 * i;
      const ax = seg.a[j]!, ay = seg.a[j + 1]!, az = seg.a[j + 2]!, bx = seg.b[j]!, by = seg.b[j + 1]!, bz = seg.b[j + 2]!;
      const r = seg.radius[i]!;
      const cls = seg.cls[i]!;
      // Lower bound of the distance from c to the segment: distance to its bounding box. Skip the
      // exact test when the bound cannot beat the class's best (exact result, less work).
      const lx = Math.min(ax, bx), hx = Math.max(ax, bx), ly = Math.min(ay, by), hy = Math.max(ay, by), lz = Math.min(az, bz), hz = Math.max(az, bz);
      const ox = cx < lx ? lx - cx : cx > hx ? cx - hx : 0;
      const oy = cy < ly ? ly - cy : cy > hy ? cy - hy : 0;
      const oz = cz < lz ? lz - cz : cz > hz ? cz - hz : 0;
      const bound = Math.sqrt(ox * ox + oy * oy + oz * oz) - r - bodyRadius_m;
      if (bound < out.classDistance_m[cls]!) {
        // Nearest in any direction: the path segment with zero length is the point c.
        segmentSegmentClosest(cx, cy, cz, cx, cy, cz, ax, ay, az, bx, by, bz, pair);
        const surface = pair.distance - r - bodyRadius_m;
        if (surface < out.classDistance_m[cls]!) out.classDistance_m[cls] = surface;
        if (surface < out.nearestDistance_m) {
          out.nearestDistance_m = surface;
          out.nearestClass = cls;
          out.nearestObject = seg.object[i]!;
          hitPoints[0] = ax + (bx - ax) * pair.t; hitPoints[1] = ay + (by - ay) * pair.t; hitPoints[2] = az + (bz - az) * pair.t;
        }
      }
      // The path check only where the segment's box meets the swept body's box.
      const reach = r + bodyRadius_m + margin;
      if (hx < pLx - reach || lx > pHx + reach || hy < pLy - reach || ly > pHy + reach || hz < pLz - reach || lz > pHz + reach) continue;
      segmentSegmentClosest(cx, cy, cz, ex, ey, ez, ax, ay, az, bx, by, bz, pair);
      if (pair.distance < reach) {
        // First contact along the path, for a crossing at right angles: the closest approach minus
        // the half-chord of the reach circle (exact for perpendicular crossings, conservative else).
        const along = Math.max(0, pair.s * horizon - Math.sqrt(reach * reach - pair.distance * pair.distance));
        if (along < out.pathDistance_m) {
          out.pathDistance_m = along;
          out.pathClass = cls;
          out.pathObject = seg.object[i]!;
          hitPoints[3] = ax + (bx - ax) * pair.t; hitPoints[4] = ay + (by - ay) * pair.t; hitPoints[5] = az + (bz - az) * pair.t;
        }
      }
    }
  }
}

/**
 * Whether run q can be skipped: its box is off the path and no segment in it could beat the best
 * so far of any of its classes (the segment loop accepts only strict improvements, so the result
 * is the same as visiting every segment).
 */
function runCannotImprove(runs: Runs, q: number, p: FlightPath, bodyRadius_m: number, margin: number, classDistance: Float64Array): boolean {
  const qb = 6 * q;
  const lx = runs.box[qb]!, ly = runs.box[qb + 1]!, lz = runs.box[qb + 2]!, hx = runs.box[qb + 3]!, hy = runs.box[qb + 4]!, hz = runs.box[qb + 5]!;
  const rmax = runs.maxRadius[q]!;
  const reach = rmax + bodyRadius_m + margin;
  const offPath = hx < p.lx - reach || lx > p.hx + reach || hy < p.ly - reach || ly > p.hy + reach || hz < p.lz - reach || lz > p.hz + reach;
  if (!offPath) return false;
  const ox = p.cx < lx ? lx - p.cx : p.cx > hx ? p.cx - hx : 0;
  const oy = p.cy < ly ? ly - p.cy : p.cy > hy ? p.cy - hy : 0;
  const oz = p.cz < lz ? lz - p.cz : p.cz > hz ? p.cz - hz : 0;
  const bound = Math.sqrt(ox * ox + oy * oy + oz * oz) - rmax - bodyRadius_m;
  const cm = runs.classes[q]!;
  let worst = -Infinity;
  for (let c = 0; c < classDistance.length; c++) if ((cm & (1 << c)) !== 0 && classDistance[c]! > worst) worst = classDistance[c]!;
  return bound >= worst;
}
