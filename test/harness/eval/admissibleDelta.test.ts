import fc from "fast-check";
import { minimalAdmissibleDelta, isReachable, ADMISSIBLE_WIN_MARGIN } from "../../../src/harness/eval/admissibleDelta";

function argmax(v: ArrayLike<number>): number {
  let b = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[b]!) b = i;
  return b;
}

describe("minimalAdmissibleDelta", () => {
  it("lowers exactly the actions at or above the target, to just below it", () => {
    const z = new Float32Array([2.0, 0.5, 1.2, -1]);
    const out = new Float32Array(4);
    const norm = minimalAdmissibleDelta(z, 2, out);
    expect(out[0]).toBeCloseTo(-(0.8 + ADMISSIBLE_WIN_MARGIN), 6);
    expect(out[1]).toBe(0);
    expect(out[2]).toBe(0);
    expect(out[3]).toBe(0);
    expect(norm).toBeCloseTo(0.8 + ADMISSIBLE_WIN_MARGIN, 6);
    expect(isReachable(z, 2, new Float32Array(4))).toBe(false); // 0.801 > 0.5
    expect(isReachable(new Float32Array([1.3, 0.5, 1.2, -1]), 2, new Float32Array(4))).toBe(true);
  });

  it("is zero when the target already wins", () => {
    const out = new Float32Array(3);
    expect(minimalAdmissibleDelta(new Float32Array([0, 3, 1]), 1, out)).toBe(0);
    expect(Array.from(out)).toEqual([0, 0, 0]);
  });

  it("makes the target the strict argmax, never raises a logit, and no admissible delta that works is shorter", () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -5, max: 5, noNaN: true }), { minLength: 2, maxLength: 7 }),
        fc.nat(),
        fc.array(fc.float({ min: 0, max: 3, noNaN: true }), { minLength: 7, maxLength: 7 }),
        (zs, t0, randomDown) => {
          const z = Float32Array.from(zs);
          const t = t0 % z.length;
          const out = new Float32Array(z.length);
          const norm = minimalAdmissibleDelta(z, t, out);
          const corrected = Array.from(z, (v, i) => v + out[i]!);
          expect(argmax(corrected)).toBe(t);
          for (const d of out) expect(d).toBeLessThanOrEqual(0);
          // any other non-positive delta under which t wins by the same margin is at least as long
          const other = Array.from(z, (_, i) => -randomDown[i]!);
          const wins = z.every((v, i) => i === t || v + other[i]! <= z[t]! + other[t]! - ADMISSIBLE_WIN_MARGIN);
          if (wins) expect(Math.hypot(...other)).toBeGreaterThanOrEqual(norm - 1e-4);
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });

  it("names bad arguments", () => {
    const z = new Float32Array(3);
    expect(() => minimalAdmissibleDelta(z, 3, new Float32Array(3))).toThrow(/target=3, expected an integer in \[0, 2\]/);
    expect(() => minimalAdmissibleDelta(z, 0, new Float32Array(2))).toThrow(/out length=2, expected 3/);
    expect(() => minimalAdmissibleDelta(z, 0, new Float32Array(3), 0)).toThrow(/margin=0/);
  });
});
