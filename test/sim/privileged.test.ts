/**
 * Privileged state: hand-computed values for a wire straight ahead, and the pruned search
 * against a brute-force scan of every segment at random drone states.
 */
import { buildWorld, computePrivileged, makeDroneState, makePrivilegedState, segmentSegmentClosest, CLASS_WIRE, type World } from "../../sim";
import { Rng } from "../../src/util/Rng";
import { fastScenario } from "./fixtures";

const base = buildWorld(fastScenario("default", 64), 12);

describe("privileged state", () => {
  it("a wire 5 m ahead: nearest 5 - r - R, path contact 5 - (r + R + margin), bearing straight ahead", () => {
    const world: World = {
      ...base,
      segments: { count: 1, a: Float64Array.of(-50, 5, 10), b: Float64Array.of(50, 5, 10), radius: Float64Array.of(0.01), cls: Uint8Array.of(CLASS_WIRE), object: Int32Array.of(0) },
      objects: [{ id: 0, kind: "wire", cls: CLASS_WIRE, albedo: [0.1, 0.1, 0.1], specular: 0, firstSegment: 0, segmentCount: 1 }],
    };
    const s = makeDroneState(0, 0, 10, Math.PI / 2);
    s.velocity.set([0, 2, 0]);
    const p = computePrivileged(world, s, 0.35, makePrivilegedState(), { horizon_m: 30, margin_m: 0.2 });
    expect(p.nearestDistance_m).toBeCloseTo(5 - 0.01 - 0.35, 9);
    expect(p.classDistance_m[CLASS_WIRE]).toBeCloseTo(4.64, 9);
    expect(p.nearestClass).toBe(CLASS_WIRE);
    expect(p.nearestAzimuth_rad).toBeCloseTo(0, 9);
    expect(p.nearestElevation_rad).toBeCloseTo(0, 9);
    expect(p.pathDistance_m).toBeCloseTo(5 - 0.56, 9);
    expect(p.timeToCollision_s).toBeCloseTo((5 - 0.56) / 2, 9);
    // Flying 1 m above the wire's reach: nothing on the path.
    s.position[2] = 10.6;
    expect(computePrivileged(world, s, 0.35, makePrivilegedState(), { horizon_m: 30, margin_m: 0.2 }).pathDistance_m).toBe(Infinity);
  });

  it("matches a brute-force scan of all segments at random states", () => {
    const rng = new Rng(99);
    const seg = base.segments;
    const pair = { s: 0, t: 0, distance: 0 };
    const out = makePrivilegedState();
    for (let k = 0; k < 60; k++) {
      const s = makeDroneState(rng.uniform(-20, 20), rng.uniform(0, base.goal.y), rng.uniform(2, 15), rng.uniform(-Math.PI, Math.PI));
      s.velocity.set([rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-1, 1)]);
      computePrivileged(base, s, 0.35, out);
      const perClass = [Infinity, Infinity, Infinity, Infinity];
      const [x, y, z] = s.position as unknown as [number, number, number];
      for (let i = 0; i < seg.count; i++) {
        segmentSegmentClosest(x, y, z, x, y, z, seg.a[3 * i]!, seg.a[3 * i + 1]!, seg.a[3 * i + 2]!, seg.b[3 * i]!, seg.b[3 * i + 1]!, seg.b[3 * i + 2]!, pair);
        const c = seg.cls[i]!;
        perClass[c] = Math.min(perClass[c]!, pair.distance - seg.radius[i]! - 0.35);
      }
      for (let c = 1; c <= 3; c++) expect(out.classDistance_m[c]).toBeCloseTo(perClass[c]!, 9);
      expect(out.nearestDistance_m).toBeCloseTo(Math.min(...perClass), 9);
    }
  });
});
