/**
 * The top-down sketch of a world for the report's map: wire and branch segments projected onto
 * the ground plane (ENU x east, y north), poles and trunks as circles, start and goal.
 */
import { CLASS_BRANCH, CLASS_POLE_TRUNK, CLASS_WIRE, type World } from "../../sim/World";
import type { WorldSketch } from "./types";

export function worldSketch(world: World): WorldSketch {
  const s = world.segments;
  const wires: number[] = [];
  const branches: number[] = [];
  const posts: number[] = [];
  const postSeen = new Set<number>();
  for (let i = 0; i < s.count; i++) {
    const ax = s.a[3 * i]!, ay = s.a[3 * i + 1]!, bx = s.b[3 * i]!, by = s.b[3 * i + 1]!;
    const cls = s.cls[i]!;
    if (cls === CLASS_WIRE) wires.push(ax, ay, bx, by);
    else if (cls === CLASS_BRANCH) branches.push(ax, ay, bx, by);
    else if (cls === CLASS_POLE_TRUNK) {
      // A pole or trunk is drawn once, at the base of its first segment (they are near vertical).
      const obj = s.object[i]!;
      if (postSeen.has(obj)) continue;
      postSeen.add(obj);
      posts.push(ax, ay, s.radius[i]!);
    }
  }
  return { seed: world.seed, wires, branches, posts, start: { x: world.start.x, y: world.start.y }, goal: { x: world.goal.x, y: world.goal.y } };
}
