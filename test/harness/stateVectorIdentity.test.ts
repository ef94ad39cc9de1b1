/**
 * normaliseState now takes its ranges and its linear map from src/vision/normalize.ts (one place
 * for harness input normalisation, issue 4 item 6). The committed models were trained on the
 * vectors of the previous, self-contained implementation, so the refactor must be bit-identical:
 * `legacyNormaliseState` below is that implementation, copied verbatim from
 * src/harness/models/stateVector.ts at commit da8b8b4, and every produced Float32 is compared
 * by its bit pattern (Object.is on the Float32Array values, which also tells -0 from +0).
 */
import fc from "fast-check";

import { STATE_DIM, STATE_RANGES, normaliseState, type SensorSnapshot } from "../../src/harness/models/stateVector";
import { DEFAULT_NORMALIZATION, normalizeRange } from "../../src/vision/normalize";

const LEGACY_RANGES = {
  altitude_m: [0, 50],
  velocityEnu_m_s: [-10, 10],
  gyroDiff_rad_s: [-2, 2],
  accelDiff_m_s2: [-10, 10],
} as const;

function legacyNorm(v: number, lo: number, hi: number): number {
  if (!Number.isFinite(v)) return 0;
  const x = (2 * (v - lo)) / (hi - lo) - 1;
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

function legacyNormaliseState(snap: SensorSnapshot, out: Float32Array = new Float32Array(STATE_DIM)): Float32Array {
  const [alo, ahi] = LEGACY_RANGES.altitude_m;
  const [vlo, vhi] = LEGACY_RANGES.velocityEnu_m_s;
  const [glo, ghi] = LEGACY_RANGES.gyroDiff_rad_s;
  const [clo, chi] = LEGACY_RANGES.accelDiff_m_s2;
  out[0] = legacyNorm(snap.altitude_m, alo, ahi);
  for (let k = 0; k < 3; k++) out[1 + k] = legacyNorm(snap.velocityEnu_m_s[k] ?? 0, vlo, vhi);
  const n = snap.imu.length;
  for (let w = 0; w < 2; w++) {
    const cur = snap.imu[n - 2 + w];
    const prev = snap.imu[n - 2 + w - 1];
    const base = 4 + 6 * w;
    for (let k = 0; k < 3; k++) {
      if (cur === undefined || prev === undefined) {
        out[base + k] = 0;
        out[base + 3 + k] = 0;
      } else {
        out[base + k] = legacyNorm((cur.gyro_rad_s[k] ?? 0) - (prev.gyro_rad_s[k] ?? 0), glo, ghi);
        out[base + 3 + k] = legacyNorm((cur.accel_m_s2[k] ?? 0) - (prev.accel_m_s2[k] ?? 0), clo, chi);
      }
    }
  }
  return out;
}

function expectBitIdentical(snap: SensorSnapshot): void {
  const now = normaliseState(snap);
  const before = legacyNormaliseState(snap);
  const nowBits = new Uint32Array(now.buffer);
  const beforeBits = new Uint32Array(before.buffer);
  for (let i = 0; i < STATE_DIM; i++) {
    if (nowBits[i] !== beforeBits[i]) {
      throw new Error(`s[${i}]: ${now[i]} (0x${(nowBits[i] ?? 0).toString(16)}) != legacy ${before[i]} (0x${(beforeBits[i] ?? 0).toString(16)}) for ${JSON.stringify(snap)}`);
    }
  }
}

// Special values: NaN, infinities, signed zeros, range ends, just outside, extremes, tiny values
// whose linear map loses precision (cancellation in (2 (v - lo)) / (hi - lo) - 1).
const SPECIAL = [
  Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0, 1e-300, -1e-300, 5e-324, 1e-10, -1e-10,
  0.1, 0.3, 1 / 3, 2, -2, 10, -10, 10.000001, -10.000001, 15, 25, 50, 50.0000001, 100, -100,
  Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 9.81, -9.81, 3.14159, 49.999999,
];

describe("normaliseState on src/vision/normalize.ts", () => {
  it("keeps the ranges stored in model manifests", () => {
    expect(STATE_RANGES).toEqual(LEGACY_RANGES);
    expect(STATE_RANGES.velocityEnu_m_s[1]).toBe(DEFAULT_NORMALIZATION.velocityMps);
  });

  it("is bit-identical to the previous implementation on special values in every slot", () => {
    let checked = 0;
    for (const a of SPECIAL) {
      for (const b of SPECIAL) {
        expectBitIdentical({
          altitude_m: a,
          velocityEnu_m_s: [a, b, -a],
          imu: [
            { gyro_rad_s: [a, b, 0], accel_m_s2: [b, a, 9.81] },
            { gyro_rad_s: [b, a, a], accel_m_s2: [a, b, -b] },
            { gyro_rad_s: [0, -b, a], accel_m_s2: [0, a, b] },
          ],
        });
        checked++;
      }
    }
    expect(checked).toBe(SPECIAL.length ** 2);
  });

  it("is bit-identical with short IMU histories (missing differences are 0)", () => {
    for (const n of [0, 1, 2, 3, 5]) {
      const imu = Array.from({ length: n }, (_, i) => ({
        gyro_rad_s: [0.1 * i, -0.7 * i, Number.NaN] as const,
        accel_m_s2: [3.3 * i, 1e-9 * i, 40 * i] as const,
      }));
      expectBitIdentical({ altitude_m: 7.25, velocityEnu_m_s: [4.4, -3.3, 0.07], imu });
      expect(normaliseState({ altitude_m: 0, velocityEnu_m_s: [0, 0, 0], imu }).length).toBe(STATE_DIM);
    }
  });

  it("is bit-identical on 5,000 random snapshots (finite doubles of all magnitudes, NaN, infinities)", () => {
    const value = fc.oneof(
      fc.double({ min: -60, max: 60, noNaN: true }),
      fc.double(), // includes NaN, +-Infinity, -0, subnormals, extremes
      fc.constantFrom(...SPECIAL),
    );
    const v3 = fc.tuple(value, value, value);
    const sample = fc.record({ gyro_rad_s: v3, accel_m_s2: v3 });
    let runs = 0;
    fc.assert(
      fc.property(value, v3, fc.array(sample, { maxLength: 4 }), (altitude_m, velocityEnu_m_s, imu) => {
        expectBitIdentical({ altitude_m, velocityEnu_m_s, imu });
        runs++;
      }),
      { numRuns: 5000, seed: 20261130 },
    );
    expect(runs).toBe(5000);
  });

  it("normalizeRange: 'zero' maps every non-finite value to 0, 'propagate' keeps NaN and clips infinities", () => {
    expect(normalizeRange(Number.NaN, 0, 50, "zero")).toBe(0);
    expect(normalizeRange(Number.POSITIVE_INFINITY, 0, 50, "zero")).toBe(0);
    expect(normalizeRange(Number.NEGATIVE_INFINITY, -10, 10, "zero")).toBe(0);
    expect(normalizeRange(Number.NaN, 0, 50)).toBeNaN();
    expect(normalizeRange(Number.POSITIVE_INFINITY, 0, 50)).toBe(1);
    expect(normalizeRange(Number.NEGATIVE_INFINITY, 0, 50, "propagate")).toBe(-1);
    // Finite values are the same under both policies: 25 m is the centre of [0, 50].
    expect(normalizeRange(25, 0, 50, "zero")).toBe(0);
    expect(normalizeRange(60, 0, 50, "zero")).toBe(1);
  });
});
