import { buildWorld, pointSegmentDistance } from "../../sim";
import { CollisionIndex, HIT_GROUND, HIT_NONE } from "../../sim/collision";
import { Rng } from "../../src/util/Rng";
import { fastScenario } from "./fixtures";

// Reference: the exact test on every segment in index order (the index must return the same
// first segment; its per-object boxes only skip work).
function bruteForceHit(world: ReturnType<typeof buildWorld>, cx: number, cy: number, cz: number, r: number): number {
  const { a, b, radius, count } = world.segments;
  for (let i = 0; i < count; i++) {
    const j = 3 * i;
    if (pointSegmentDistance(cx, cy, cz, a[j]!, a[j + 1]!, a[j + 2]!, b[j]!, b[j + 1]!, b[j + 2]!) < r + radius[i]!) return i;
  }
  return cz < r ? HIT_GROUND : HIT_NONE;
}

describe("CollisionIndex", () => {
  it("returns the same first hit as a brute-force scan, near structures and in free space", () => {
    const world = buildWorld(fastScenario("default", 64), 5);
    const index = new CollisionIndex(world.segments);
    const rng = new Rng(99);
    const { a, count } = world.segments;
    let hits = 0;
    for (let k = 0; k < 3000; k++) {
      // Half the probes start at a random segment end (many contacts), half anywhere in the scene.
      const near = k % 2 === 0;
      const i = rng.int(0, count - 1);
      const cx = near ? a[3 * i]! + rng.uniform(-1, 1) : rng.uniform(-60, 60);
      const cy = near ? a[3 * i + 1]! + rng.uniform(-1, 1) : rng.uniform(-20, 180);
      const cz = near ? a[3 * i + 2]! + rng.uniform(-1, 1) : rng.uniform(-1, 40);
      const r = rng.uniform(0.05, 0.8);
      const got = index.sphereHit(cx, cy, cz, r);
      expect(got).toBe(bruteForceHit(world, cx, cy, cz, r));
      if (got >= 0) hits++;
    }
    // The probes exercise contacts, not only misses.
    expect(hits).toBeGreaterThan(300);
  });
});
