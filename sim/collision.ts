/**
 * Collision of the drone's body sphere with the world: the sphere (centre c, radius R) touches a
 * structure segment of radius r exactly when dist(c, segment) < R + r (the segment is the axis of
 * a cylinder with hemispherical caps; a catenary conductor is its polyline of segments), and the
 * ground when c_z < R. Each segment keeps an axis-aligned bounding box so the exact test runs only
 * on segments whose box is within reach, and each run of consecutive segments of one object (a
 * conductor span, a tree, a pole) keeps the box of its segments' boxes, so whole objects out of
 * reach are skipped with one test; segments are still visited in index order.
 */
import { pointSegmentDistance } from "./geometry";
import type { Segments } from "./World";

/** No contact. */
export const HIT_NONE = -1;
/** Contact with the ground plane. */
export const HIT_GROUND = -2;

export class CollisionIndex {
  private readonly seg: Segments;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Runs of consecutive segments of one object: first segment, end (exclusive), and box. */
  private readonly runStart: Int32Array;
  private readonly runEnd: Int32Array;
  private readonly runLo: Float64Array;
  private readonly runHi: Float64Array;

  constructor(segments: Segments) {
    this.seg = segments;
    const n = segments.count;
    this.lo = new Float64Array(n * 3);
    this.hi = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const r = segments.radius[i]!;
      for (let k = 0; k < 3; k++) {
        const a = segments.a[3 * i + k]!;
        const b = segments.b[3 * i + k]!;
        this.lo[3 * i + k] = Math.min(a, b) - r;
        this.hi[3 * i + k] = Math.max(a, b) + r;
      }
    }
    let runs = 0;
    for (let i = 0; i < n; i++) if (i === 0 || segments.object[i] !== segments.object[i - 1]) runs++;
    this.runStart = new Int32Array(runs);
    this.runEnd = new Int32Array(runs);
    this.runLo = new Float64Array(runs * 3).fill(Infinity);
    this.runHi = new Float64Array(runs * 3).fill(-Infinity);
    let q = -1;
    for (let i = 0; i < n; i++) {
      if (i === 0 || segments.object[i] !== segments.object[i - 1]) {
        q++;
        this.runStart[q] = i;
      }
      this.runEnd[q] = i + 1;
      for (let k = 0; k < 3; k++) {
        this.runLo[3 * q + k] = Math.min(this.runLo[3 * q + k]!, this.lo[3 * i + k]!);
        this.runHi[3 * q + k] = Math.max(this.runHi[3 * q + k]!, this.hi[3 * i + k]!);
      }
    }
  }

  /**
   * The first segment index the sphere touches, HIT_GROUND for the ground, or HIT_NONE.
   * Structures are checked before the ground.
   */
  sphereHit(cx: number, cy: number, cz: number, radius: number): number {
    const { a, b, radius: rad } = this.seg;
    const lo = this.lo;
    const hi = this.hi;
    const rLo = this.runLo;
    const rHi = this.runHi;
    const runs = this.runStart.length;
    for (let q = 0; q < runs; q++) {
      const jq = 3 * q;
      if (cx < rLo[jq]! - radius || cx > rHi[jq]! + radius) continue;
      if (cy < rLo[jq + 1]! - radius || cy > rHi[jq + 1]! + radius) continue;
      if (cz < rLo[jq + 2]! - radius || cz > rHi[jq + 2]! + radius) continue;
      const end = this.runEnd[q]!;
      for (let i = this.runStart[q]!; i < end; i++) {
        const j = 3 * i;
        if (cx < lo[j]! - radius || cx > hi[j]! + radius) continue;
        if (cy < lo[j + 1]! - radius || cy > hi[j + 1]! + radius) continue;
        if (cz < lo[j + 2]! - radius || cz > hi[j + 2]! + radius) continue;
        const d = pointSegmentDistance(cx, cy, cz, a[j]!, a[j + 1]!, a[j + 2]!, b[j]!, b[j + 1]!, b[j + 2]!);
        if (d < radius + rad[i]!) return i;
      }
    }
    return cz < radius ? HIT_GROUND : HIT_NONE;
  }

  /** Surface distance from the sphere to the nearest structure (negative when penetrating), m. */
  clearance(cx: number, cy: number, cz: number, radius: number): number {
    const { a, b, radius: rad, count } = this.seg;
    let best = Infinity;
    for (let i = 0; i < count; i++) {
      const j = 3 * i;
      const d = pointSegmentDistance(cx, cy, cz, a[j]!, a[j + 1]!, a[j + 2]!, b[j]!, b[j + 1]!, b[j + 2]!) - rad[i]! - radius;
      if (d < best) best = d;
    }
    return best;
  }
}
