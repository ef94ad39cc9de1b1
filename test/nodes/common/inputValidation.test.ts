import { checkImage, checkImu, checkNavSatFix, checkTwistStamped } from "../../../nodes/common/sensors/inputValidation";
import type { Image, Imu, NavSatFix } from "../../../nodes/common/sensors/sensorTypes";

const header = { stamp: { sec: 1, nanosec: 0 }, frame_id: "f" };
const expected = { width: 4, height: 2, encodings: ["rgb8", "bgr8"] };

function image(over: Partial<Image> = {}): Image {
  return { header, height: 2, width: 4, encoding: "rgb8", is_bigendian: 0, step: 12, data: new Uint8Array(24), ...over };
}

function imu(over: Partial<Imu> = {}): Imu {
  return {
    header,
    orientation: { x: 0, y: 0, z: 0, w: 1 },
    orientation_covariance: new Array<number>(9).fill(0),
    angular_velocity: { x: 0, y: 0, z: 0.1 },
    angular_velocity_covariance: new Array<number>(9).fill(0),
    linear_acceleration: { x: 0, y: 0, z: 9.81 },
    linear_acceleration_covariance: new Array<number>(9).fill(0),
    ...over,
  };
}

function fix(over: Partial<NavSatFix> = {}): NavSatFix {
  return { header, status: { status: 0, service: 1 }, latitude: 47.4, longitude: 8.5, altitude: 420, position_covariance: new Array<number>(9).fill(0), position_covariance_type: 0, ...over };
}

describe("checkImage", () => {
  it("accepts a well-formed image, also with row padding", () => {
    expect(checkImage(image(), expected)).toEqual({ type: "ok" });
    expect(checkImage(image({ step: 16, data: new Uint8Array(32) }), expected)).toEqual({ type: "ok" });
  });
  it.each([
    [image({ encoding: "yuv422" }), "unsupported_encoding", 'encoding="yuv422", expected one of rgb8, bgr8'],
    [image({ width: 0, step: 0, data: new Uint8Array(0) }), "zero_size", "size 0x2, expected nonzero width and height"],
    [image({ step: 8 }), "bad_step", "step=8, expected >= width*3=12 for rgb8"],
    [image({ data: new Uint8Array(23) }), "bad_step", "data.length=23, expected step*height=12*2=24"],
    [image({ width: 2, step: 6, data: new Uint8Array(12) }), "resolution", "size 2x2, expected 4x2"],
  ])("rejects a bad image (%#) with reason and detail", (msg, reason, detail) => {
    const r = checkImage(msg, expected);
    expect(r.type).toBe("reject");
    if (r.type === "reject") {
      expect(r.reason).toBe(reason);
      expect(r.detail).toContain(detail);
    }
  });
  it("accepts any size when the expected size is 0", () => {
    expect(checkImage(image({ width: 2, step: 6, data: new Uint8Array(12) }), { ...expected, width: 0, height: 0 }).type).toBe("ok");
  });
});

describe("checkImu", () => {
  it("accepts a level, resting IMU and one without orientation (covariance[0] = -1) carrying NaN orientation", () => {
    expect(checkImu(imu()).type).toBe("ok");
    const cov = new Array<number>(9).fill(0);
    cov[0] = -1;
    expect(checkImu(imu({ orientation: { x: Number.NaN, y: 0, z: 0, w: 0 }, orientation_covariance: cov })).type).toBe("ok");
  });
  it("rejects NaN/Inf, non-unit quaternions and absurd magnitudes", () => {
    expect(checkImu(imu({ angular_velocity: { x: Number.NaN, y: 0, z: 0 } }))).toMatchObject({ reason: "non_finite" });
    expect(checkImu(imu({ linear_acceleration: { x: Number.POSITIVE_INFINITY, y: 0, z: 0 } }))).toMatchObject({ reason: "non_finite" });
    expect(checkImu(imu({ orientation: { x: 0, y: 0, z: 0, w: 2 } }))).toMatchObject({ reason: "absurd_magnitude" });
    expect(checkImu(imu({ linear_acceleration: { x: 0, y: 0, z: 500 } }))).toEqual({
      type: "reject", reason: "absurd_magnitude", detail: "|linear_acceleration|=500.0 m/s^2, expected <= 160",
    });
    expect(checkImu(imu({ angular_velocity: { x: 40, y: 0, z: 0 } }))).toMatchObject({ reason: "absurd_magnitude" });
  });
});

describe("checkNavSatFix / checkTwistStamped", () => {
  it("accepts a fix, rejects NO_FIX, NaN and out-of-range coordinates", () => {
    expect(checkNavSatFix(fix()).type).toBe("ok");
    expect(checkNavSatFix(fix({ status: { status: -1, service: 1 } }))).toEqual({ type: "reject", reason: "no_fix", detail: "status=-1 (STATUS_NO_FIX)" });
    expect(checkNavSatFix(fix({ latitude: Number.NaN }))).toMatchObject({ reason: "non_finite" });
    expect(checkNavSatFix(fix({ latitude: 95 }))).toMatchObject({ reason: "absurd_magnitude" });
  });
  it("accepts a plausible velocity, rejects NaN and > 100 m/s", () => {
    const tw = (x: number) => ({ header, twist: { linear: { x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
    expect(checkTwistStamped(tw(5)).type).toBe("ok");
    expect(checkTwistStamped(tw(Number.NaN))).toMatchObject({ reason: "non_finite" });
    expect(checkTwistStamped(tw(150))).toMatchObject({ reason: "absurd_magnitude" });
  });
});
