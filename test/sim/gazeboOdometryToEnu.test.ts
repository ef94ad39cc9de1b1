/**
 * The odometry -> ENU conversion (sim/gazebo/odometryToEnu.ts): known rotations by hand, the
 * rotation against the REP-103 matrix R = Rz(yaw) Ry(pitch) Rx(roll) built independently from
 * Euler angles, and the checks that drop bad messages.
 */
import fc from "fast-check";
import { checkOdometry, makeTwist, odometryTwistToEnu, rotateByQuaternion, type Quaternion, type Vector3 } from "../../sim/gazebo/odometryToEnu";
import { eulerToQuaternion } from "../../sim/sensors";

const odom = (q: Quaternion, linear: Vector3, angular: Vector3 = { x: 0, y: 0, z: 0 }) => ({
  pose: { pose: { orientation: q } },
  twist: { twist: { linear, angular } },
});

const quat = (yaw: number, pitch = 0, roll = 0): Quaternion => {
  const q = { x: 0, y: 0, z: 0, w: 1 };
  eulerToQuaternion(yaw, pitch, roll, q);
  return q;
};

/** R = Rz(yaw) Ry(pitch) Rx(roll) (REP-103 fixed-axis roll, pitch, yaw), row-major. */
function matrix(yaw: number, pitch: number, roll: number): number[] {
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch), cr = Math.cos(roll), sr = Math.sin(roll);
  return [
    cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
    sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
    -sp, cp * sr, cp * cr,
  ];
}

describe("odometryTwistToEnu", () => {
  it("yaw 90 deg (body x points north): body forward 1 m/s is ENU north 1 m/s; yaw rate stays on z", () => {
    const out = odometryTwistToEnu(odom(quat(Math.PI / 2), { x: 1, y: 0, z: 0 }, { x: 0, y: 0, z: 0.3 }), makeTwist());
    expect(out.linear.x).toBeCloseTo(0, 12);
    expect(out.linear.y).toBeCloseTo(1, 12);
    expect(out.linear.z).toBeCloseTo(0, 12);
    expect(out.angular.z).toBeCloseTo(0.3, 12);
  });

  it("identity orientation leaves the twist unchanged; yaw 180 deg flips x and y; body left at yaw 90 is west", () => {
    const v = { x: 2, y: -1, z: 0.5 };
    expect(odometryTwistToEnu(odom({ x: 0, y: 0, z: 0, w: 1 }, v), makeTwist()).linear).toEqual(v);
    const flipped = odometryTwistToEnu(odom(quat(Math.PI), v), makeTwist()).linear;
    expect([flipped.x, flipped.y, flipped.z].map((c) => Number(c.toFixed(12)))).toEqual([-2, 1, 0.5]);
    const left = odometryTwistToEnu(odom(quat(Math.PI / 2), { x: 0, y: 1, z: 0 }), makeTwist()).linear;
    expect(left.x).toBeCloseTo(-1, 12);
    expect(left.y).toBeCloseTo(0, 12);
  });

  it("pitch 10 deg nose down while flying level at 4 m/s north: the body-frame twist maps back to (0, 4, 0)", () => {
    // Gazebo computes body velocity as R^T v_world (OdometryPublisher.cc, 3D): build it that way.
    const yaw = Math.PI / 2, pitch = (10 * Math.PI) / 180;
    const R = matrix(yaw, pitch, 0);
    const w = [0, 4, 0];
    const body = { x: R[0]! * w[0]! + R[3]! * w[1]! + R[6]! * w[2]!, y: R[1]! * w[0]! + R[4]! * w[1]! + R[7]! * w[2]!, z: R[2]! * w[0]! + R[5]! * w[1]! + R[8]! * w[2]! };
    expect(body.z).toBeCloseTo(4 * Math.sin(pitch), 12); // nose down: the level velocity has a body-up component
    const out = odometryTwistToEnu(odom(quat(yaw, pitch), body), makeTwist()).linear;
    expect(out.x).toBeCloseTo(0, 12);
    expect(out.y).toBeCloseTo(4, 12);
    expect(out.z).toBeCloseTo(0, 12);
  });

  it("matches the REP-103 rotation matrix for any orientation (fast-check, 1e-9), and keeps the norm", () => {
    const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });
    const comp = fc.double({ min: -50, max: 50, noNaN: true });
    fc.assert(
      fc.property(angle, fc.double({ min: -1.5, max: 1.5, noNaN: true }), angle, comp, comp, comp, (yaw, pitch, roll, x, y, z) => {
        const R = matrix(yaw, pitch, roll);
        const out = rotateByQuaternion(quat(yaw, pitch, roll), { x, y, z }, { x: 0, y: 0, z: 0 });
        const expected = [R[0]! * x + R[1]! * y + R[2]! * z, R[3]! * x + R[4]! * y + R[5]! * z, R[6]! * x + R[7]! * y + R[8]! * z];
        expect(Math.abs(out.x - expected[0]!)).toBeLessThan(1e-9);
        expect(Math.abs(out.y - expected[1]!)).toBeLessThan(1e-9);
        expect(Math.abs(out.z - expected[2]!)).toBeLessThan(1e-9);
        expect(Math.abs(Math.hypot(out.x, out.y, out.z) - Math.hypot(x, y, z))).toBeLessThan(1e-9);
      }),
      { numRuns: 500 },
    );
  });

  it("normalises a quaternion that is 0.5 % off unit length (a pure rotation, no scaling); out may alias the input", () => {
    const q = quat(0.7, 0.2, -0.1);
    const scaled = { x: q.x * 1.005, y: q.y * 1.005, z: q.z * 1.005, w: q.w * 1.005 };
    const v = { x: 3, y: -2, z: 1 };
    const a = rotateByQuaternion(q, v, { x: 0, y: 0, z: 0 });
    const b = rotateByQuaternion(scaled, v, v);
    expect(b).toBe(v);
    expect(b.x).toBeCloseTo(a.x, 12);
    expect(b.y).toBeCloseTo(a.y, 12);
    expect(b.z).toBeCloseTo(a.z, 12);
    expect(() => rotateByQuaternion({ x: 0, y: 0, z: 0, w: 0 }, v, v)).toThrow("|q|=0, expected a nonzero finite quaternion");
  });
});

describe("checkOdometry", () => {
  const good = () => odom(quat(0.3), { x: 4, y: 0, z: 0 }, { x: 0, y: 0, z: 0.5 });

  it("accepts a unit orientation and plausible twist", () => {
    expect(checkOdometry(good())).toEqual({ type: "ok" });
  });

  it("rejects NaN/Inf, a zero or non-unit quaternion and absurd speeds, naming the value and the limit", () => {
    const m = good();
    m.twist.twist.linear.y = Number.NaN;
    expect(checkOdometry(m)).toEqual({ type: "reject", reason: "non_finite", detail: "twist.twist has NaN/Inf" });
    expect(checkOdometry(odom({ x: 0, y: 0, z: 0, w: Number.POSITIVE_INFINITY }, { x: 0, y: 0, z: 0 }))).toEqual({ type: "reject", reason: "non_finite", detail: "pose.pose.orientation has NaN/Inf" });
    // An all-zero quaternion: what a default-constructed Odometry carries.
    expect(checkOdometry(odom({ x: 0, y: 0, z: 0, w: 0 }, { x: 0, y: 0, z: 0 }))).toEqual({
      type: "reject",
      reason: "absurd_magnitude",
      detail: "|pose.pose.orientation|=0.0000, expected a unit quaternion (within 0.01)",
    });
    expect(checkOdometry(odom({ x: 0, y: 0, z: 0, w: 1 }, { x: 150, y: 0, z: 0 }))).toEqual({ type: "reject", reason: "absurd_magnitude", detail: "|twist.twist.linear|=150.0 m/s, expected <= 100" });
    expect(checkOdometry(odom({ x: 0, y: 0, z: 0, w: 1 }, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 40 }))).toEqual({
      type: "reject",
      reason: "absurd_magnitude",
      detail: "|twist.twist.angular|=40.0 rad/s, expected <= 35",
    });
  });
});
