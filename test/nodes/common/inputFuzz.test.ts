import fc from "fast-check";

import { checkImage, checkImu, checkNavSatFix, checkTwistStamped } from "../../../nodes/common/sensors/inputValidation";
import { StampGuard } from "../../../nodes/common/ros/StampGuard";
import type { Image, Imu, NavSatFix } from "../../../nodes/common/sensors/sensorTypes";

// Property tests (issue 8): any field values, including NaN, Infinity, negative and huge sizes,
// give an "ok" or a "reject" with a reason and never throw. FUZZ_RUNS raises the case count.
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const anyNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 2 ** 31));
const header = { stamp: { sec: 0, nanosec: 0 }, frame_id: "f" };
const v3 = fc.record({ x: anyNumber, y: anyNumber, z: anyNumber });

describe("input checks never throw (fast-check)", () => {
  it("Image with arbitrary size, step, encoding and data length", () => {
    fc.assert(
      fc.property(anyNumber, anyNumber, anyNumber, fc.string(), fc.nat(4096), (width, height, step, encoding, len) => {
        const msg: Image = { header, width, height, step, encoding, is_bigendian: 0, data: new Uint8Array(len) };
        const r = checkImage(msg, { width: 256, height: 256, encodings: ["rgb8", "bgr8", "mono8"] });
        expect(["ok", "reject"]).toContain(r.type);
        if (r.type === "ok") expect(step * height).toBe(len);
      }),
      { numRuns: RUNS },
    );
  });

  it("Imu, NavSatFix and TwistStamped with arbitrary numbers", () => {
    fc.assert(
      fc.property(v3, v3, fc.record({ x: anyNumber, y: anyNumber, z: anyNumber, w: anyNumber }), anyNumber, anyNumber, anyNumber, fc.integer({ min: -128, max: 127 }), (w, a, q, lat, lon, alt, status) => {
        const imu: Imu = { header, orientation: q, orientation_covariance: [0], angular_velocity: w, angular_velocity_covariance: [], linear_acceleration: a, linear_acceleration_covariance: [] };
        const fix: NavSatFix = { header, status: { status, service: 1 }, latitude: lat, longitude: lon, altitude: alt, position_covariance: [], position_covariance_type: 0 };
        for (const r of [checkImu(imu), checkNavSatFix(fix), checkTwistStamped({ header, twist: { linear: w, angular: a } })]) {
          expect(["ok", "reject"]).toContain(r.type);
        }
        if (checkImu(imu).type === "ok") expect(Number.isFinite(w.x + w.y + w.z + a.x + a.y + a.z)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("StampGuard only ever accepts increasing stamps between resets", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(100), fc.nat(999_999_999)), { maxLength: 60 }), (stamps) => {
        const g = new StampGuard({ maxFuture_s: 1000, jumpBack_s: 10 });
        let last = -1n;
        for (const [sec, nanosec] of stamps) {
          const v = g.check({ sec, nanosec }, 1000n * 1_000_000_000n);
          const ns = BigInt(sec) * 1_000_000_000n + BigInt(nanosec);
          if (v.type === "ok") expect(ns > last).toBe(true);
          if (v.type !== "drop") last = ns;
        }
      }),
      { numRuns: RUNS },
    );
  });
});
