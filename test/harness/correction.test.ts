/**
 * The Correction Generator on hand-computed inputs (issue 5: "the delta formula, the clip and the
 * lambda schedule on hand-computed inputs"), the int8 path against float32 with a derived bound,
 * the texture rule and the rollout rates. Expected values are worked out in the comments.
 */
import * as tf from "@tensorflow/tfjs";
import {
  LambdaSchedule,
  SENSITIVITY_ROWS,
  STATE_DIM,
  NUM_ACTIONS,
  cellGradientVariance,
  correctionDelta,
  correctionDeltaInt8,
  correctionDeltaTensor,
  correctDetectionLogits,
  initBackend,
  newCorrectionDelta,
  newInt8DeltaWorkspace,
  newPaddedRollout,
  padRollout,
  softmaxCorrected,
  stateRates,
  textureGain,
  Rng,
  quantizeSymmetricInt8,
} from "../../src/harness";

const D = STATE_DIM;

function sMatrix(entries: [number, number, number][]): Float32Array {
  const S = new Float32Array(SENSITIVITY_ROWS * D);
  for (const [i, j, v] of entries) S[i * D + j] = v;
  return S;
}

describe("correctionDelta", () => {
  it("computes delta_i = -lambda r sum_j S[i,j] |ds_j/dt| on a hand-worked example", () => {
    // S[0,0]=2, S[0,1]=1, S[3,0]=0.5, S[7,2]=1 (row 7 = first detection class, background)
    // rates (0.1, -0.2, 0.3, 0...), r = 0.5, lambda = 0.3 -> -lambda r = -0.15
    // delta_0 = -0.15 (2*0.1 + 1*0.2) = -0.06; delta_3 = -0.15 (0.5*0.1) = -0.0075
    // detection_0 = -0.15 (1*0.3) = -0.045; no clip (norms < 0.5)
    const S = sMatrix([[0, 0, 2], [0, 1, 1], [3, 0, 0.5], [7, 2, 1]]);
    const rates = new Float32Array(D);
    rates.set([0.1, -0.2, 0.3]);
    const out = newCorrectionDelta();
    const stats = correctionDelta(S, rates, 0.5, 0.3, out);
    expect(out.action[0]).toBeCloseTo(-0.06, 6);
    expect(out.action[3]).toBeCloseTo(-0.0075, 6);
    expect(out.action[1]).toBe(-0);
    expect(out.detection[0]).toBeCloseTo(-0.045, 6);
    expect(stats.maxAbs).toBeCloseTo(0.06, 6);
    expect(stats.actionNormRaw).toBeCloseTo(Math.hypot(0.06, 0.0075), 6);
  });

  it("rescales to ||delta||_2 = 0.5 when larger, each part on its own", () => {
    // S[0,0] = S[1,0] = 10, rate 1, r = 1, lambda = 1 -> (-10, -10): norm 14.142 -> each -0.5/sqrt(2)
    const S = sMatrix([[0, 0, 10], [1, 0, 10], [8, 0, 0.2]]);
    const rates = new Float32Array(D);
    rates[0] = 1;
    const out = newCorrectionDelta();
    const stats = correctionDelta(S, rates, 1, 1, out);
    expect(stats.actionNormRaw).toBeCloseTo(Math.SQRT2 * 10, 4);
    expect(out.action[0]).toBeCloseTo(-0.5 / Math.SQRT2, 6);
    expect(out.action[1]).toBeCloseTo(-0.5 / Math.SQRT2, 6);
    // The detection part (norm 0.2) is not rescaled by the action part's clip.
    expect(out.detection[1]).toBeCloseTo(-0.2, 6);
  });

  it("rejects out-of-range inputs naming them", () => {
    const out = newCorrectionDelta();
    expect(() => correctionDelta(new Float32Array(3), new Float32Array(D), 0.5, 0.3, out)).toThrow("S length=3, expected 11x16=176");
    expect(() => correctionDelta(new Float32Array(176), new Float32Array(D), 1.5, 0.3, out)).toThrow("risk=1.5, expected a number in [0, 1]");
    expect(() => correctionDelta(new Float32Array(176), new Float32Array(D), Number.POSITIVE_INFINITY, 0.3, out)).toThrow("risk=Infinity");
    // NaN risk is a data failure: no correction, flagged (next test), not a throw.
    expect(correctionDelta(new Float32Array(176), new Float32Array(D), Number.NaN, 0.3, out).finite).toBe(false);
  });

  it("gives no correction and flags NaN max|delta| when S or the rates are not finite", () => {
    const S = sMatrix([[0, 0, 1]]);
    const rates = new Float32Array(D).fill(0.1);
    rates[3] = Number.NaN;
    const out = newCorrectionDelta();
    out.action.fill(7);
    const stats = correctionDelta(S, rates, 0.5, 0.3, out);
    expect(stats.finite).toBe(false);
    expect(stats.maxAbs).toBeNaN();
    expect(out.action.every((v) => v === 0)).toBe(true);
    S[5] = Number.POSITIVE_INFINITY;
    rates[3] = 0;
    const q = correctionDeltaInt8(S, rates, 0.5, 0.3, out, newInt8DeltaWorkspace());
    expect(q.finite).toBe(false);
    expect(out.detection.every((v) => v === 0)).toBe(true);
  });

  it("softmax(logits + delta) is stable for large logits", () => {
    // softmax(1000, 1001) = (1/(1+e), e/(1+e)) = (0.268941, 0.731059)
    const p = softmaxCorrected(new Float32Array([1000, 1001]), new Float32Array([0, 0]), new Float32Array(2));
    expect(p[0]).toBeCloseTo(0.268941, 5);
    expect(p[1]).toBeCloseTo(0.731059, 5);
    // A delta of -1 on the second logit ties them.
    const q = softmaxCorrected(new Float32Array([1000, 1001]), new Float32Array([0, -1]), new Float32Array(2));
    expect(q[0]).toBeCloseTo(0.5, 6);
  });
});

describe("correctionDelta: tensor forms", () => {
  it("the batched tensor form equals the typed-array form", async () => {
    await initBackend({ prefer: "wasm" });
    const rng = new Rng(11);
    const n = 3;
    const S = new Float32Array(n * SENSITIVITY_ROWS * D).map(() => rng.uniform() * 2);
    const rates = new Float32Array(n * D).map(() => rng.normal());
    const risk = new Float32Array([0.1, 0.6, 1]);
    const t = tf.tidy(() => {
      const d = correctionDeltaTensor(tf.tensor3d(S, [n, SENSITIVITY_ROWS, D]), tf.tensor2d(rates, [n, D]), tf.tensor1d(risk), 0.3);
      return [d.action.dataSync().slice(), d.detection.dataSync().slice()];
    });
    for (let k = 0; k < n; k++) {
      const out = newCorrectionDelta();
      correctionDelta(S.subarray(k * SENSITIVITY_ROWS * D, (k + 1) * SENSITIVITY_ROWS * D), rates.subarray(k * D, (k + 1) * D), risk[k] ?? 0, 0.3, out);
      for (let i = 0; i < NUM_ACTIONS; i++) expect(t[0]?.[k * NUM_ACTIONS + i]).toBeCloseTo(out.action[i] ?? NaN, 5);
      for (let i = 0; i < 4; i++) expect(t[1]?.[k * 4 + i]).toBeCloseTo(out.detection[i] ?? NaN, 5);
    }
  });

  it("applies the detection delta per cell through the uncertainty gate", async () => {
    await initBackend({ prefer: "wasm" });
    const [certain, unsure] = tf.tidy(() => {
      // Cell 0 is confident (logits 20,0,0,0: gate ~ 0); cell 1 is uniform (gate = 1).
      const logits = tf.tensor4d([20, 0, 0, 0, 0, 0, 0, 0], [1, 1, 2, 4]);
      const c = correctDetectionLogits(logits, tf.tensor2d([[-0.4, 0, 0, 0]])).dataSync();
      return [Array.from(c.slice(0, 4)), Array.from(c.slice(4, 8))];
    });
    expect(certain?.[0]).toBeCloseTo(20, 4);
    expect(unsure?.[0]).toBeCloseTo(-0.4, 6);
    expect(unsure?.[1]).toBe(0);
  });
});

describe("LambdaSchedule", () => {
  it("starts at 0.3, decays while r < 0.2, holds in between, grows while r > 0.7, within bounds", () => {
    const l = new LambdaSchedule();
    expect(l.value).toBe(0.3);
    expect(l.update(0.1)).toBeCloseTo(0.3 * 0.99, 12); // 0.297
    expect(l.update(0.5)).toBeCloseTo(0.297, 12);
    expect(l.update(0.2)).toBeCloseTo(0.297, 12); // boundary: not < 0.2
    expect(l.update(0.8)).toBeCloseTo(0.297 * 1.01, 12); // 0.29997
    expect(l.update(0.7)).toBeCloseTo(0.29997, 12); // boundary: not > 0.7
    for (let i = 0; i < 2000; i++) l.update(1);
    expect(l.value).toBe(1);
    expect(l.reduceForRunaway()).toBe(0.5);
    for (let i = 0; i < 2000; i++) l.update(0);
    expect(l.value).toBe(0.01);
    expect(() => l.update(-0.1)).toThrow("risk=-0.1, expected a number in [0, 1]");
    expect(() => new LambdaSchedule({ initial: 2 })).toThrow("initial=2, expected [0.01, 1]");
  });

  it("starts over at its initial value on reset (a new flight)", () => {
    const l = new LambdaSchedule({ initial: 0.4 });
    for (let i = 0; i < 50; i++) l.update(1);
    expect(l.value).toBeGreaterThan(0.4);
    l.reset();
    expect(l.value).toBe(0.4);
  });
});

describe("int8 delta path", () => {
  it("stays within the quantisation error bound of the float32 path", () => {
    const rng = new Rng(5);
    const ws = newInt8DeltaWorkspace();
    const f = newCorrectionDelta();
    const q = newCorrectionDelta();
    for (let trial = 0; trial < 50; trial++) {
      const S = new Float32Array(SENSITIVITY_ROWS * D).map(() => rng.uniform() * 0.3);
      const rates = new Float32Array(D).map(() => rng.normal() * 0.2);
      // lambda r small enough that no clip hides the error.
      const risk = rng.uniform();
      const lambda = 0.3;
      correctionDelta(S, rates, risk, lambda, f, Infinity);
      correctionDeltaInt8(S, rates, risk, lambda, q, ws, Infinity);
      // Each operand is off by at most half a step: eS = max|S|/254, eR = max|rate|/254, so
      // |err_i| <= lambda r sum_j (S_ij eR + |rate_j| eS + eS eR).
      let mS = 0;
      let mR = 0;
      for (const v of S) mS = Math.max(mS, v);
      for (const v of rates) mR = Math.max(mR, Math.abs(v));
      const eS = mS / 254;
      const eR = mR / 254;
      for (let i = 0; i < SENSITIVITY_ROWS; i++) {
        let bound = 0;
        for (let j = 0; j < D; j++) bound += (S[i * D + j] ?? 0) * eR + Math.abs(rates[j] ?? 0) * eS + eS * eR;
        bound *= lambda * risk;
        const a = i < NUM_ACTIONS ? f.action[i] : f.detection[i - NUM_ACTIONS];
        const b = i < NUM_ACTIONS ? q.action[i] : q.detection[i - NUM_ACTIONS];
        expect(Math.abs((a ?? 0) - (b ?? 0))).toBeLessThanOrEqual(bound * (1 + 1e-5) + 1e-9);
      }
    }
  });
});

describe("texture rule and rollout rates", () => {
  it("computes per-cell gradient variance (hand-worked ramp)", () => {
    // I = 10 x on an 8x8 image: gx = 5 at the two border columns (one-sided, halved), 10 inside;
    // per row g = (5,10,10,10,10,10,10,5): mean 8.75, mean square 81.25, variance 4.6875.
    const grey = new Float32Array(64).map((_, i) => 10 * (i % 8));
    const out = cellGradientVariance(grey, 8, 8, 8, new Float32Array(1));
    expect(out[0]).toBeCloseTo(4.6875, 5);
    expect(cellGradientVariance(new Float32Array(64).fill(7), 8, 8, 4, new Float32Array(4))).toEqual(new Float32Array(4));
  });

  it("raises the texture gain below 15 m where wire cells have variance > 5", () => {
    // Wire cells: 0, 1, 3 (prob >= 0.5); variance > 5 in cells 0 and 3 -> f = 2/3.
    // gain = 1 + 0.5 * r * f = 1 + 0.5 * 0.6 * 2/3 = 1.2
    const base = { cellVariance: new Float32Array([10, 1, 100, 6]), wireProb: new Float32Array([0.9, 0.9, 0.1, 0.9]), risk: 0.6 };
    expect(textureGain({ ...base, altitude_m: 10 })).toBeCloseTo(1.2, 6);
    expect(textureGain({ ...base, altitude_m: 15 })).toBe(1);
    expect(textureGain({ ...base, altitude_m: Number.NaN })).toBe(1);
    expect(textureGain({ ...base, altitude_m: 10, risk: 0 })).toBe(1);
  });

  it("pads rollouts to a fixed length and averages |ds/dt| over the valid steps only", () => {
    // s0 = 0; s1[0] = 0.1; s2[0] = 0.3; dt = 0.5 s: (0.1 + 0.2) / (2 * 0.5) = 0.3
    const s1 = new Float32Array(D);
    s1[0] = 0.1;
    const s2 = new Float32Array(D);
    s2[0] = 0.3;
    const r = padRollout(new Float32Array(D), [{ action: 0, reward: 0, nextState: s1 }, { action: 1, reward: -1, nextState: s2 }], newPaddedRollout());
    expect(r.length).toBe(2);
    expect(Array.from(r.actions)).toEqual([0, 1, -1]);
    expect(Array.from(r.rewards)).toEqual([0, -1, 0]);
    const rates = stateRates(r, 0.5, new Float32Array(D));
    expect(rates[0]).toBeCloseTo(0.3, 6);
    expect(rates[1]).toBe(0);
    expect(stateRates(padRollout(new Float32Array(D), [], r), 0.5, new Float32Array(D)).every((v) => v === 0)).toBe(true);
    expect(() => stateRates(r, 0, new Float32Array(D))).toThrow("dt_s=0, expected a finite number > 0");
  });
});

describe("quantizeSymmetricInt8", () => {
  it("maps max|x| to 127 and 0 to 0, with scale max|x|/127", () => {
    // x = (-2, 1, 0, 0.5): scale 2/127; q = round(x * 63.5) = (-127, 64, 0, 32) (63.5 rounds up, 31.75 -> 32)
    const q = new Int8Array(4);
    const scale = quantizeSymmetricInt8(new Float32Array([-2, 1, 0, 0.5]), q);
    expect(scale).toBeCloseTo(2 / 127, 12);
    expect(Array.from(q)).toEqual([-127, 64, 0, 32]);
    expect(quantizeSymmetricInt8(new Float32Array([-2, 1]), q.subarray(0, 2), { absolute: true })).toBeCloseTo(2 / 127, 12);
    expect(Array.from(q.subarray(0, 2))).toEqual([127, 64]);
    expect(quantizeSymmetricInt8(new Float32Array(3), new Int8Array(3))).toBe(0);
  });
});
