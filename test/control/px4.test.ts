import {
  bodyFluToEnu,
  enuToNed,
  fluToFrd,
  px4TimestampUs,
  trajectorySetpointFromBody,
  velocityOffboardControlMode,
  yawFromQuaternion,
} from "../../src/control/px4";

describe("px4 frame conversions (px4_ros_com frame_transforms axis maps)", () => {
  it("maps ENU (x,y,z) to NED (y,x,-z) and back", () => {
    expect(enuToNed({ x: 1, y: 2, z: 3 })).toEqual({ x: 2, y: 1, z: -3 });
    expect(enuToNed(enuToNed({ x: 1, y: 2, z: 3 }))).toEqual({ x: 1, y: 2, z: 3 });
  });
  it("maps FLU (x,y,z) to FRD (x,-y,-z), in place too", () => {
    const v = { x: 1, y: 2, z: 3 };
    expect(fluToFrd(v, v)).toBe(v);
    expect(v).toEqual({ x: 1, y: -2, z: -3 });
  });
  it("rotates body FLU into ENU by heading (90 deg: forward = north)", () => {
    const v = bodyFluToEnu({ x: 1, y: 0, z: 0.5 }, Math.PI / 2);
    expect(v.x).toBeCloseTo(0, 12);
    expect(v.y).toBeCloseTo(1, 12);
    expect(v.z).toBeCloseTo(0.5, 12);
  });
  it("reads the yaw of an ENU quaternion (rotation of 30 deg about z)", () => {
    const a = Math.PI / 6;
    expect(yawFromQuaternion({ x: 0, y: 0, z: Math.sin(a / 2), w: Math.cos(a / 2) })).toBeCloseTo(a, 12);
  });
});

describe("TrajectorySetpoint / OffboardControlMode", () => {
  it("flying forward while facing east is +east = NED y; climbing is -NED z; left yaw is negative yawspeed", () => {
    const sp = trajectorySetpointFromBody({ vx_m_s: 2, vy_m_s: 0, vz_m_s: 1, yawRate_rad_s: 0.5 }, 0, 1_234_567_890n);
    expect(sp.timestamp).toBe(1_234_567n);
    expect(sp.velocity[0]).toBeCloseTo(0, 12);
    expect(sp.velocity[1]).toBeCloseTo(2, 12);
    expect(sp.velocity[2]).toBeCloseTo(-1, 12);
    expect(sp.yawspeed).toBeCloseTo(-0.5, 12);
    expect(sp.position.every(Number.isNaN)).toBe(true);
    expect(sp.acceleration.every(Number.isNaN)).toBe(true);
    expect(Number.isNaN(sp.yaw)).toBe(true);
  });
  it("facing north (ENU yaw 90 deg), forward is NED +x (north)", () => {
    const sp = trajectorySetpointFromBody({ vx_m_s: 3, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, Math.PI / 2, 0n);
    expect(sp.velocity[0]).toBeCloseTo(3, 12);
    expect(sp.velocity[1]).toBeCloseTo(0, 12);
  });
  it("rejects a non-finite heading", () => {
    expect(() => trajectorySetpointFromBody({ vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, Number.NaN, 0n)).toThrow(
      "yawEnu_rad=NaN, expected a finite angle in radians",
    );
  });
  it("selects velocity control only, timestamp in microseconds", () => {
    const m = velocityOffboardControlMode(5_000_999n);
    expect(m).toEqual({
      timestamp: 5_000n, position: false, velocity: true, acceleration: false, attitude: false,
      body_rate: false, thrust_and_torque: false, direct_actuator: false,
    });
    expect(px4TimestampUs(999n)).toBe(0n);
  });
});
