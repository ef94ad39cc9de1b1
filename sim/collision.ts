/**
 * Collision of the drone's body sphere with the world: the sphere (centre c, radius R) touches a
 * structure segment of radius r exactly when dist(c, segment) < R + r (the segment is the axis of
 * a cylinder with hemispherical caps; a catenary conductor is its polyline of segments), and the
 * ground when c_z < R. Each segment keeps an axis-aligned bounding box so the exact test runs only
 * on segments whose box is within reach.
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
  }

  /**
   * The first segment index the sphere touches, HIT_GROUND for the ground, or HIT_NONE.
   * Structures are checked before the ground.
   */
  sphereHit(cx: number, cy: number, cz: number, radius: number): number {
    const { a, b, radius: rad, count } = this.seg;
    const lo = this.lo;
    const hi = this.hi;
    for (let i = 0; i < count; i++) {
      const j = 3 * i;
      if (cx < lo[j]! - radius || cx > hi[j]! + radius) continue;
      if (cy < lo[j + 1]! - radius || cy > hi[j + 1]! + radius) continue;
      if (cz < lo[j + 2]! - radius || cz > hi[j + 2]! + radius) continue;
      const d = pointSegmentDistance(cx, cy, cz, a[j]!, a[j + 1]!, a[j + 2]!, b[j]!, b[j + 1]!, b[j + 2]!);
      if (d < radius + rad[i]!) return i;
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
