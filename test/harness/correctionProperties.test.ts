/**
 * Properties of the Correction Generator over random inputs (fast-check; FUZZ_RUNS raises the
 * case count): ||delta||_2 <= 0.5 per part, delta <= 0, homogeneity in lambda * r below the clip,
 * pi_corrected is a distribution, lambda stays in its bounds, and the int8 path stays within its
 * quantisation bound.
 */
import fc from "fast-check";
import {
  DELTA_NORM_MAX,
  LAMBDA_MAX,
  LAMBDA_MIN,
  LambdaSchedule,
  NUM_ACTIONS,
  SENSITIVITY_ROWS,
  STATE_DIM,
  correctionDelta,
  correctionDeltaInt8,
  newCorrectionDelta,
  newInt8DeltaWorkspace,
  softmaxCorrected,
} from "../../src/harness";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const f32 = (min: number, max: number): fc.Arbitrary<number> => fc.float({ min: Math.fround(min), max: Math.fround(max), noNaN: true, noDefaultInfinity: true });
const sArb = fc.float32Array({ minLength: SENSITIVITY_ROWS * STATE_DIM, maxLength: SENSITIVITY_ROWS * STATE_DIM, min: 0, max: Math.fround(50), noNaN: true, noDefaultInfinity: true });
const ratesArb = fc.float32Array({ minLength: STATE_DIM, maxLength: STATE_DIM, min: Math.fround(-20), max: Math.fround(20), noNaN: true, noDefaultInfinity: true });

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

describe("correction properties", () => {
  it("clips each part to ||delta||_2 <= 0.5 and never raises a logit", () => {
    const out = newCorrectionDelta();
    fc.assert(
      fc.property(sArb, ratesArb, f32(0, 1), f32(0, 1), (S, rates, risk, lambda) => {
        const stats = correctionDelta(S, rates, risk, lambda, out);
        expect(stats.finite).toBe(true);
        expect(norm(out.action)).toBeLessThanOrEqual(DELTA_NORM_MAX * (1 + 1e-6));
        expect(norm(out.detection)).toBeLessThanOrEqual(DELTA_NORM_MAX * (1 + 1e-6));
        for (const v of out.action) expect(v).toBeLessThanOrEqual(0);
        for (const v of out.detection) expect(v).toBeLessThanOrEqual(0);
        expect(stats.maxAbs).toBeLessThanOrEqual(DELTA_NORM_MAX * (1 + 1e-6));
      }),
      { numRuns: RUNS },
    );
  });

  it("is proportional to lambda * r while below the clip", () => {
    const a = newCorrectionDelta();
    const b = newCorrectionDelta();
    fc.assert(
      fc.property(sArb, ratesArb, f32(0.01, 1), (S, rates, risk) => {
        correctionDelta(S, rates, risk, 0.3, a, Infinity);
        correctionDelta(S, rates, risk / 2, 0.3, b, Infinity);
        // Halving is exact in binary floating point, so only float32 storage rounding remains.
        for (let i = 0; i < NUM_ACTIONS; i++) {
          const half = (a.action[i] ?? NaN) / 2;
          expect(Math.abs((b.action[i] ?? NaN) - half)).toBeLessThanOrEqual(1e-6 * Math.abs(half) + 1e-38); // 1e-38: subnormal results
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("int8 delta stays within half a quantisation step per operand of float32", () => {
    const f = newCorrectionDelta();
    const q = newCorrectionDelta();
    const ws = newInt8DeltaWorkspace();
    fc.assert(
      fc.property(sArb, ratesArb, f32(0, 1), (S, rates, risk) => {
        correctionDelta(S, rates, risk, 0.3, f, Infinity);
        correctionDeltaInt8(S, rates, risk, 0.3, q, ws, Infinity);
        let mS = 0;
        let mR = 0;
        for (const v of S) mS = Math.max(mS, v);
        for (const v of rates) mR = Math.max(mR, Math.abs(v));
        const eS = mS / 254;
        const eR = mR / 254;
        for (let i = 0; i < NUM_ACTIONS; i++) {
          let bound = 0;
          for (let j = 0; j < STATE_DIM; j++) bound += (S[i * STATE_DIM + j] ?? 0) * eR + Math.abs(rates[j] ?? 0) * eS + eS * eR;
          bound = bound * 0.3 * risk;
          // Plus float32 storage rounding of both results (relative 6e-8; 1e-6 allowed).
          expect(Math.abs((f.action[i] ?? 0) - (q.action[i] ?? 0))).toBeLessThanOrEqual(bound + 1e-6 * Math.abs(f.action[i] ?? 0) + 1e-38); // 1e-38: subnormal results
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("correction properties: the corrected softmax and the lambda schedule", () => {
  it("softmax(logits + delta) is a probability distribution, also for extreme logits", () => {
    const p = new Float32Array(NUM_ACTIONS);
    const logitsArb = fc.float32Array({ minLength: NUM_ACTIONS, maxLength: NUM_ACTIONS, min: Math.fround(-1e4), max: Math.fround(1e4), noNaN: true, noDefaultInfinity: true });
    const deltaArb = fc.float32Array({ minLength: NUM_ACTIONS, maxLength: NUM_ACTIONS, min: Math.fround(-0.5), max: 0, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(logitsArb, deltaArb, (logits, delta) => {
        softmaxCorrected(logits, delta, p);
        let sum = 0;
        for (const v of p) {
          expect(v).toBeGreaterThanOrEqual(0);
          sum += v;
        }
        expect(sum).toBeCloseTo(1, 5);
      }),
      { numRuns: RUNS },
    );
  });

  it("keeps lambda within its bounds for any risk sequence", () => {
    fc.assert(
      fc.property(fc.array(f32(0, 1), { maxLength: 500 }), (risks) => {
        const l = new LambdaSchedule();
        for (const r of risks) {
          const v = l.update(r);
          expect(v).toBeGreaterThanOrEqual(LAMBDA_MIN);
          expect(v).toBeLessThanOrEqual(LAMBDA_MAX);
        }
      }),
      { numRuns: Math.max(20, RUNS / 10) },
    );
  });
});
