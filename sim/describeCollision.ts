import type { CollisionEvent } from "./Simulation";

const WHAT: Record<CollisionEvent["objectKind"], string> = {
  wire: "a wire",
  pole: "a pole",
  trunk: "a tree trunk",
  branches: "tree branches",
  ground: "the ground",
};

/** "a tree trunk (object 67) at t=16.38 s (1.78, 51.50, 7.66)": what was hit by name, then where. */
export function describeCollision(c: CollisionEvent): string {
  const object = c.objectKind === "ground" ? WHAT.ground : `${WHAT[c.objectKind]} (object ${c.objectId})`;
  return `${object} at t=${c.time_s.toFixed(2)} s (${c.position.map((v) => v.toFixed(2)).join(", ")})`;
}
