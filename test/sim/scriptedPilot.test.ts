/**
 * Issue 16 item 18: the docs/sim.md example (`sim --headless --seed 3`) exited 1: the scripted
 * pilot crept into a tree trunk at 16.4 s, and the error said "class 3 object 67". The pilot now
 * holds off trunks, poles and branches ahead (ScriptedPilot HOLD_OFF_M), and a collision is named.
 */
import { describeCollision } from "../../sim/describeCollision";
import { runHeadless } from "../../sim/runHeadless";
import { fastScenario } from "./fixtures";

/** The default scenario at a 64x64 camera: the world (and so the pilot's flight) does not depend on the image size. */
function small(): ReturnType<typeof fastScenario> {
  const s = fastScenario("default", 64);
  s.camera.width = 64;
  s.camera.height = 64;
  return s;
}

describe("scripted pilot", () => {
  // Seeds 3 and 4 hit a trunk (16.4 s) and branches (23.6 s) before the hold-off rule.
  it.each([
    [3, 18],
    [4, 25],
  ])("does not collide on seed %i of the default scenario within %i s", (seed, duration_s) => {
    const summary = runHeadless({ scenario: small(), seed, duration_s });
    expect(summary.collision).toBeUndefined();
    expect(summary.status).not.toBe("collided");
    expect(summary.minClearance_m).toBeGreaterThan(0);
  });

  it("names what a collision hit", () => {
    const at = { time_s: 16.384, position: [1.78, 51.5, 7.66] as [number, number, number] };
    expect(describeCollision({ ...at, cls: 3, objectId: 67, objectKind: "trunk" })).toBe("a tree trunk (object 67) at t=16.38 s (1.78, 51.50, 7.66)");
    expect(describeCollision({ ...at, cls: 3, objectId: 2, objectKind: "pole" })).toBe("a pole (object 2) at t=16.38 s (1.78, 51.50, 7.66)");
    expect(describeCollision({ ...at, cls: 0, objectId: -1, objectKind: "ground" })).toBe("the ground at t=16.38 s (1.78, 51.50, 7.66)");
  });

  it("reports the object kind of a collision as the world names it", () => {
    // A pilot that flies straight at 4 m/s at the altitude of the trees hits something on seed 3.
    const summary = runHeadless({
      scenario: small(),
      seed: 3,
      duration_s: 40,
      controller: (_sim, out) => Object.assign(out, { vx_m_s: 4, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }),
    });
    expect(summary.status).toBe("collided");
    expect(["wire", "pole", "trunk", "branches", "ground"]).toContain(summary.collision!.objectKind);
    expect(describeCollision(summary.collision!)).not.toMatch(/class \d/);
  });
});
