import { enuToGeodetic, type Geodetic } from "../../src/control/geodesy";
import { goalRelative, makeNavigation, navigationFromSensors, pitchFromQuaternion } from "../../src/control/navigation";
import { NavigationState } from "../../src/control/NavigationState";
import { yawFromQuaternion } from "../../src/control/px4";
import { eulerToQuaternion } from "../../sim/sensors";

const ORIGIN = { lat_deg: 47.397, lon_deg: 8.545, alt_m: 488 };
const geo = (e: number, n: number, u: number): Geodetic => enuToGeodetic(ORIGIN, e, n, u, { latitude: 0, longitude: 0, altitude: 0 });

describe("navigation from the sensors (GNSS fix, attitude, goal in WGS84)", () => {
  it("agrees with the local-ENU geometry the simulator's privileged navigation uses", () => {
    for (const [e, n, yaw, ge, gn] of [[3, 4, 0.3, 50, 120], [-20, 60, -2.5, 10, -30], [0, 0, Math.PI / 2, 0, 150]] as const) {
      const nav = navigationFromSensors(
        { fix: geo(e, n, 10), goal: geo(ge, gn, 14), yawEnu_rad: yaw, pitch_rad: 0.1, velocityEnu_m_s: { x: 2 * Math.cos(yaw), y: 2 * Math.sin(yaw) }, groundAltitude_m: ORIGIN.alt_m },
        makeNavigation(),
      );
      const want = { bearing_rad: 0, distance_m: 0 };
      goalRelative(yaw, ge - e, gn - n, want);
      expect(nav.goalBearing_rad).toBeCloseTo(want.bearing_rad, 4);
      expect(nav.goalDistance_m).toBeCloseTo(want.distance_m, 1);
      expect(nav.goalDz_m).toBeCloseTo(4, 6);
      expect(nav.altitude_m).toBeCloseTo(10, 6);
      expect(nav.forwardSpeed_m_s).toBeCloseTo(2, 6);
      expect(nav.pitch_rad).toBe(0.1);
    }
  });

  it("bearing is positive left (REP-103): heading east, a goal to the north is at +90 deg", () => {
    const r = { bearing_rad: 0, distance_m: 0 };
    goalRelative(0, 0, 100, r);
    expect(r.bearing_rad).toBeCloseTo(Math.PI / 2, 9);
    goalRelative(Math.PI / 2, 100, 0, r);
    expect(r.bearing_rad).toBeCloseTo(-Math.PI / 2, 9);
  });

  it("reads yaw and pitch back from the simulator's quaternion", () => {
    const q = { x: 0, y: 0, z: 0, w: 1 };
    for (const [yaw, pitch, roll] of [[0.4, 0.2, -0.1], [-2, -0.3, 0.05]] as const) {
      eulerToQuaternion(yaw, pitch, roll, q);
      expect(yawFromQuaternion(q)).toBeCloseTo(yaw, 9);
      expect(pitchFromQuaternion(q)).toBeCloseTo(pitch, 9);
    }
  });

  it("names a non-finite input", () => {
    expect(() =>
      navigationFromSensors({ fix: geo(0, 0, 0), goal: { latitude: NaN, longitude: 8, altitude: 0 }, yawEnu_rad: 0, pitch_rad: 0, velocityEnu_m_s: { x: 0, y: 0 }, groundAltitude_m: 0 }, makeNavigation()),
    ).toThrow("goal.latitude=NaN");
  });
});

describe("NavigationState", () => {
  const q = { x: 0, y: 0, z: 0, w: 1 };
  it("says what is missing, in order, then navigates; stale inputs and reset() stop it", () => {
    const s = new NavigationState({ timeout_s: 1 });
    const nav = makeNavigation();
    expect(s.read(0n, nav)).toEqual({ ok: false, reason: expect.stringMatching(/^no goal/) });
    s.setGoal(geo(0, 100, 10));
    expect(s.read(0n, nav)).toEqual({ ok: false, reason: "no attitude (imu/data orientation) yet" });
    s.onAttitude(q, 0n);
    s.onFix(geo(0, 0, 10), 0n);
    expect(s.read(0n, nav)).toEqual({ ok: false, reason: "no GNSS velocity (gps/vel) yet" });
    s.onVelocity({ x: 1, y: 0 }, 0n);
    expect(s.read(500_000_000n, nav)).toEqual({ ok: true });
    // Ground = the first fix: altitude 0 above it.
    expect(nav.altitude_m).toBeCloseTo(0, 9);
    expect(nav.goalDistance_m).toBeCloseTo(100, 1);
    expect(s.read(1_500_000_000n, nav)).toEqual({ ok: false, reason: "attitude (imu/data orientation) is 1.50 s old (timeout 1 s)" });
    s.reset();
    expect(s.read(0n, nav).ok).toBe(false);
    expect(s.goal).toBeDefined();
  });

  it("rejects a goal outside WGS84 ranges and a bad configuration", () => {
    const s = new NavigationState({ timeout_s: 1 });
    expect(() => s.setGoal({ latitude: 91, longitude: 0, altitude: 0 })).toThrow("expected latitude in [-90, 90]");
    expect(s.goal).toBeUndefined();
    expect(() => new NavigationState({ timeout_s: 0 })).toThrow("timeout_s=0");
    expect(() => new NavigationState({ timeout_s: 1, groundAltitude_m: NaN })).toThrow("groundAltitude_m=NaN");
  });
});
