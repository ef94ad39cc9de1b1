/**
 * Small models against closed forms: the catenary (sag, end points, symmetry), the WGS84
 * tangent-plane conversion (radii of curvature from NIMA TR8350.2), the drone's first-order
 * velocity response (63.2 % of a step after one time constant) and its limits.
 */
import { catenaryParameter, catenaryPoints, enuToGeodetic, geodeticToEnu, makeDroneState, stepDrone, type DroneParams } from "../../sim";

describe("catenary", () => {
  it("hangs with the requested mid-span sag between exact end points", () => {
    const out = new Float64Array(3 * 17);
    catenaryPoints([0, 0, 12], [60, 0, 12], 2.5, 16, out);
    expect([out[0], out[1], out[2]]).toEqual([0, 0, 12]);
    expect(out[3 * 16]).toBeCloseTo(60, 12);
    expect(out[3 * 16 + 2]).toBeCloseTo(12, 9);
    expect(out[3 * 8 + 2]).toBeCloseTo(12 - 2.5, 6); // mid-span point
    for (let i = 0; i <= 16; i++) expect(out[3 * i + 2]).toBeCloseTo(out[3 * (16 - i) + 2]!, 9);
    // a (cosh(L / 2a) - 1) = d, the defining relation.
    const a = catenaryParameter(60, 2.5);
    expect(a * (Math.cosh(30 / a) - 1)).toBeCloseTo(2.5, 6);
    expect(() => catenaryParameter(60, 0)).toThrow("sag_m=0, expected > 0");
  });
});

describe("geodesy", () => {
  const origin = { lat_deg: 47.397742, lon_deg: 8.545594, alt_m: 488 };
  it("1 m north and east match the WGS84 radii of curvature at the origin", () => {
    const g = enuToGeodetic(origin, 1, 1, 2, { latitude: 0, longitude: 0, altitude: 0 });
    // M = a (1 - e2) / (1 - e2 sin^2 lat)^1.5, N = a / sqrt(1 - e2 sin^2 lat); e2 = f (2 - f).
    const e2 = (1 / 298.257223563) * (2 - 1 / 298.257223563);
    const s2 = Math.sin((origin.lat_deg * Math.PI) / 180) ** 2;
    const M = (6378137 * (1 - e2)) / (1 - e2 * s2) ** 1.5;
    const N = 6378137 / Math.sqrt(1 - e2 * s2);
    expect(g.latitude - origin.lat_deg).toBeCloseTo((180 / Math.PI) / M, 12);
    expect(g.longitude - origin.lon_deg).toBeCloseTo((180 / Math.PI) / (N * Math.cos((origin.lat_deg * Math.PI) / 180)), 12);
    expect(g.altitude).toBe(490);
    const back = geodeticToEnu(origin, g);
    back.forEach((v, i) => expect(v).toBeCloseTo([1, 1, 2][i]!, 9));
  });
});

describe("drone dynamics", () => {
  const params: DroneParams = { timeConstant_s: 0.4, yawTimeConstant_s: 0.2, maxSpeed_m_s: 8, maxAccel_m_s2: 100, maxYawRate_rad_s: 1.5, drag_per_s: 0.1, bodyRadius_m: 0.3 };
  const still = [0, 0, 0];

  it("reaches 1 - 1/e of a velocity step after one time constant and settles on the command", () => {
    const s = makeDroneState(0, 0, 10, 0);
    const dt = 0.0005;
    for (let k = 0; k < 0.4 / dt; k++) stepDrone(s, params, { vx_m_s: 2, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, dt);
    // With drag k and feed-forward, v(t) = 2 (1 - exp(-(1/tau + k) t)); at t = tau: 2 (1 - e^-1.04).
    expect(s.velocity[0]).toBeCloseTo(2 * (1 - Math.exp(-(1 / 0.4 + 0.1) * 0.4)), 2);
    for (let k = 0; k < 5 / dt; k++) stepDrone(s, params, { vx_m_s: 2, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, dt);
    expect(s.velocity[0]).toBeCloseTo(2, 5); // 2 (1 - e^-14) after 5.4 s
  });

  it("clips speed, acceleration and yaw rate commands; the command is body FLU in the heading frame", () => {
    const s = makeDroneState(0, 0, 10, Math.PI / 2); // facing north
    const limited = { ...params, maxAccel_m_s2: 3 };
    stepDrone(s, limited, { vx_m_s: 20, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, 0.01);
    // First step: acceleration capped at 3 m/s^2, north (+y), minus drag on zero velocity.
    expect(s.velocity[1]).toBeCloseTo(0.03, 9);
    expect(Math.abs(s.velocity[0]!)).toBeLessThan(1e-12);
    for (let k = 0; k < 2000; k++) stepDrone(s, limited, { vx_m_s: 20, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, 0.01);
    expect(Math.hypot(s.velocity[0]!, s.velocity[1]!)).toBeCloseTo(8, 3);
    for (let k = 0; k < 300; k++) stepDrone(s, limited, { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 5 }, still, 0.01);
    expect(s.yawRate).toBeCloseTo(1.5, 6);
    expect(() => stepDrone(s, params, { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, 0)).toThrow("dt=0, expected > 0");
  });

  it("tilts nose down (positive pitch, REP-103) while accelerating forward", () => {
    const s = makeDroneState(0, 0, 10, 0);
    stepDrone(s, params, { vx_m_s: 3, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, still, 0.01);
    expect(s.pitch).toBeGreaterThan(0.1);
    expect(Math.abs(s.roll)).toBeLessThan(1e-9);
  });
});
