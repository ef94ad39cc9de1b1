/**
 * S_gt by finite differences against analytic gradients (tf.grad) of a small known network, the
 * student's S_gt against a direct perturbation of its full forward pass, and the harness loss on
 * hand-computed values (issue 5 tests).
 */
import * as tf from "@tensorflow/tfjs";
import {
  HARNESS_ALPHA,
  HARNESS_LOSS_WEIGHT,
  SENSITIVITY_ROWS,
  SGT_EPSILON,
  STATE_DIM,
  Rng,
  Student,
  buildImageInput,
  finiteDifferenceSensitivity,
  harnessLoss,
  harnessLossValue,
  initBackend,
  studentSgt,
} from "../../src/harness";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("finite-difference S_gt", () => {
  it("matches |d pi_i / d s_j| from tf.grad for softmax(W2 tanh(W1 s + b1) + b2)", () => {
    const rng = new Rng(3);
    const D = 4;
    const H = 5;
    const R = 3;
    const w1 = tf.tensor2d(Array.from({ length: D * H }, () => rng.normal()), [D, H]);
    const b1 = tf.tensor1d(Array.from({ length: H }, () => rng.normal() * 0.1));
    const w2 = tf.tensor2d(Array.from({ length: H * R }, () => rng.normal()), [H, R]);
    const b2 = tf.tensor1d(Array.from({ length: R }, () => rng.normal() * 0.1));
    const net = (s: tf.Tensor2D): tf.Tensor2D => tf.softmax(tf.add<tf.Tensor2D>(tf.matMul(tf.tanh(tf.add(tf.matMul(s, w1), b1)), w2), b2));
    const state = new Float32Array([0.3, -0.5, 0.1, 0.8]);

    const fd = finiteDifferenceSensitivity(net, state, R, new Float32Array(R * D));
    const analytic = new Float32Array(R * D);
    for (let i = 0; i < R; i++) {
      const g = tf.tidy(() => tf.grad((s: tf.Tensor) => tf.sum(tf.slice(net(s as tf.Tensor2D), [0, i], [1, 1])))(tf.tensor2d(state, [1, D])).dataSync().slice());
      for (let j = 0; j < D; j++) analytic[i * D + j] = Math.abs(g[j] ?? 0);
    }
    // Tolerance: central-difference truncation eps^2/6 |f'''| (~2e-5 * O(1)) plus float32
    // rounding of a probability difference divided by 2 eps (~1e-7 / 0.02 = 5e-6): 2e-4 covers both.
    let maxErr = 0;
    for (let k = 0; k < R * D; k++) maxErr = Math.max(maxErr, Math.abs((fd[k] ?? 0) - (analytic[k] ?? 0)));
    expect(maxErr).toBeLessThan(2e-4);
    // And the gradients are not trivially zero.
    expect(Math.max(...analytic)).toBeGreaterThan(0.05);
    tf.dispose([w1, b1, w2, b2]);
  });

  it("computes the student's S_gt (7 actions + 4 cell-averaged classes) consistent with its full forward pass", () => {
    const student = new Student({ policyHidden: [32], seed: 4 });
    const rng = new Rng(8);
    const image = tf.tidy(() => buildImageInput(tf.randomUniform<tf.Rank.R4>([1, 64, 64, 3], 0, 1, "float32", 9)));
    const state = new Float32Array(STATE_DIM).map(() => rng.uniform() * 2 - 1);
    const sgt = studentSgt(student, image, state);
    expect(sgt.length).toBe(SENSITIVITY_ROWS * STATE_DIM);
    expect(sgt.every((v) => v >= 0 && Number.isFinite(v))).toBe(true);

    // Entry (action 2, feature 5) recomputed through the full forward pass.
    const j = 5;
    const probsAt = (delta: number): Float32Array =>
      tf.tidy(() => {
        const s = state.slice();
        s[j] = (s[j] ?? 0) + delta;
        const out = student.forward({ image, state: tf.tensor2d(s, [1, STATE_DIM]) });
        const pa = tf.softmax(out.actionLogits);
        const pd = tf.mean(tf.softmax(out.detLogits), [1, 2]);
        return tf.concat([pa, pd], 1).dataSync<"float32">().slice();
      });
    const plus = probsAt(SGT_EPSILON);
    const minus = probsAt(-SGT_EPSILON);
    for (const i of [2, 8]) {
      const direct = Math.abs((plus[i] ?? 0) - (minus[i] ?? 0)) / (2 * SGT_EPSILON);
      expect(sgt[i * STATE_DIM + j]).toBeCloseTo(direct, 4);
    }
    // The detection rows depend on the state through the detection head's state bias.
    expect(Math.max(...sgt.slice(7 * STATE_DIM))).toBeGreaterThan(0);
    image.dispose();
    student.dispose();
  });
});

describe("harness loss", () => {
  it("is max(0, r_true - r_pred) + alpha ||S - S_gt||^2 with alpha = 0.05, weight 0.15", () => {
    expect(HARNESS_ALPHA).toBe(0.05);
    expect(HARNESS_LOSS_WEIGHT).toBe(0.15);
    // Sample A: r_true 1, r_pred 0.3 -> hinge 0.7; S - S_gt = (1, 2, 0, 0) -> 5 * 0.05 = 0.25: 0.95
    // Sample B: r_true 0, r_pred 0.6 -> hinge 0; S = S_gt -> 0: 0. Batch mean 0.475.
    const SA = new Float32Array([1, 2, 0, 0]);
    const zeros = new Float32Array(4);
    expect(harnessLossValue(0.3, 1, SA, zeros)).toBeCloseTo(0.95, 6);
    expect(harnessLossValue(0.6, 0, zeros, zeros)).toBe(0);
    const [total, risk, sens] = tf.tidy(() => {
      const t = harnessLoss(tf.tensor1d([0.3, 0.6]), tf.tensor1d([1, 0]), tf.tensor3d([1, 2, 0, 0, 0, 0, 0, 0], [2, 2, 2]), tf.zeros([2, 2, 2]));
      return [t.total.dataSync()[0], t.risk.dataSync()[0], t.sensitivity.dataSync()[0]];
    });
    expect(total).toBeCloseTo(0.475, 6);
    expect(risk).toBeCloseTo(0.35, 6);
    expect(sens).toBeCloseTo(2.5, 6);
  });

  it("offers the seed 3.1 cross-entropy variant, which (unlike the hinge) penalises over-prediction", () => {
    const [hinge, bce] = tf.tidy(() => {
      const S = tf.zeros<tf.Rank.R3>([1, 1, 1]);
      const h = harnessLoss(tf.tensor1d([0.9]), tf.tensor1d([0]), S, S).total.dataSync()[0];
      const b = harnessLoss(tf.tensor1d([0.9]), tf.tensor1d([0]), S, S, { riskLoss: "bce" }).total.dataSync()[0];
      return [h, b];
    });
    expect(hinge).toBe(0);
    // -log(1 - 0.9) = 2.302585
    expect(bce).toBeCloseTo(2.302585, 4);
  });
});
