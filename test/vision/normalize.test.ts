import {
  DEFAULT_NORMALIZATION,
  normalizationRanges,
  normalizeAltitude,
  normalizeRange,
  normalizeSensors,
  normalizeSymmetric,
} from "../../src/vision/normalize";

describe("normalize", () => {
  test("known values, clipping at the ends, NaN propagates", () => {
    expect(normalizeRange(25, 0, 50)).toBe(0);
    expect(normalizeRange(0, 0, 50)).toBe(-1);
    expect(normalizeRange(80, 0, 50)).toBe(1);
    expect(normalizeRange(-3, 0, 50)).toBe(-1);
    expect(normalizeSymmetric(7.5, 15)).toBe(0.5);
    expect(normalizeSymmetric(-40, 15)).toBe(-1);
    expect(normalizeSymmetric(Number.NaN, 15)).toBeNaN();
    expect(normalizeAltitude(12.5)).toBe(-0.5);
  });

  test("sensor vector [altitude, vE, vN, vU] with custom ranges", () => {
    const out = new Float32Array(6).fill(9);
    normalizeSensors({ altitudeM: 10, velocityEnuMps: { x: 3, y: -30, z: 0 } }, out, 1, normalizationRanges({ altitudeM: { min: 0, max: 20 }, velocityMps: 6 }));
    expect(Array.from(out)).toEqual([9, 0, 0.5, -1, 0, 9]);
    expect(() => normalizeSensors({ altitudeM: 1, velocityEnuMps: { x: 0, y: 0, z: 0 } }, out, 3)).toThrow("offset=3, expected 0..2");
  });

  test("invalid ranges name the field", () => {
    expect(() => normalizationRanges({ altitudeM: { min: 5, max: 5 } })).toThrow("altitudeM={min: 5, max: 5}");
    expect(() => normalizationRanges({ velocityMps: -1 })).toThrow("velocityMps=-1");
    expect(normalizationRanges()).toEqual(DEFAULT_NORMALIZATION);
  });
});
