/**
 * The custom-gradient conv against tfjs's own autodiff of tf.conv2d on the cpu backend
 * (Conv2DBackpropFilter/Input reference kernels), to 1e-4 relative error (issue 5 item 1).
 */
import * as tf from "@tensorflow/tfjs";
import { conv2dSame } from "../../src/harness/layers/conv2dSame";
import { initBackend } from "../../src/harness/backend";
import { Rng } from "../../src/util/Rng";

function randomValues(n: number, rng: Rng): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = rng.normal();
  return a;
}

function relErr(a: Float32Array, b: Float32Array): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    num += d * d;
    den += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return Math.sqrt(num / Math.max(den, 1e-30));
}

type Grads = { y: Float32Array; dx: Float32Array; dw: Float32Array; db: Float32Array };

function gradsOf(
  f: (x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D) => tf.Tensor4D,
  xv: Float32Array, xs: [number, number, number, number],
  wv: Float32Array, ws: [number, number, number, number],
  bv: Float32Array, gv: Float32Array,
): Grads {
  return tf.tidy(() => {
    const x = tf.tensor4d(xv, xs);
    const w = tf.tensor4d(wv, ws);
    const b = tf.tensor1d(bv);
    const g = tf.tensor(gv, [xs[0], xs[1], xs[2], ws[3]]);
    const y = f(x, w, b);
    // Loss = sum(y * g) with a random cotangent g, so dY = g.
    const grads = tf.grads((a: tf.Tensor, c: tf.Tensor, d: tf.Tensor) => tf.sum(tf.mul(f(a as tf.Tensor4D, c as tf.Tensor4D, d as tf.Tensor1D), g)));
    const [dx, dw, db] = grads([x, w, b]);
    return {
      y: y.dataSync<"float32">().slice(),
      dx: (dx as tf.Tensor).dataSync<"float32">().slice(),
      dw: (dw as tf.Tensor).dataSync<"float32">().slice(),
      db: (db as tf.Tensor).dataSync<"float32">().slice(),
    };
  });
}

describe("conv2dSame (custom gradient)", () => {
  const rng = new Rng(7);
  const xs: [number, number, number, number] = [2, 9, 11, 3];
  const ws: [number, number, number, number] = [3, 3, 3, 5];
  const xv = randomValues(2 * 9 * 11 * 3, rng);
  const wv = randomValues(3 * 3 * 3 * 5, rng);
  const bv = randomValues(5, rng);
  const gv = randomValues(2 * 9 * 11 * 5, rng);
  const reference = (x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D): tf.Tensor4D => tf.add(tf.conv2d(x, w, 1, "same"), b);

  afterAll(async () => {
    await tf.setBackend("wasm");
  });

  it("matches the cpu backend's autodiff of tf.conv2d to 1e-4 relative error, on cpu and on wasm", async () => {
    await tf.setBackend("cpu");
    const ref = gradsOf(reference, xv, xs, wv, ws, bv, gv);
    const oursCpu = gradsOf((x, w, b) => conv2dSame(x, w, b), xv, xs, wv, ws, bv, gv);
    const info = await initBackend({ prefer: "wasm" });
    expect(info.name).toBe("wasm");
    await tf.setBackend("wasm");
    const oursWasm = gradsOf((x, w, b) => conv2dSame(x, w, b), xv, xs, wv, ws, bv, gv);
    for (const ours of [oursCpu, oursWasm]) {
      expect(relErr(ours.y, ref.y)).toBeLessThan(1e-4);
      expect(relErr(ours.dx, ref.dx)).toBeLessThan(1e-4);
      expect(relErr(ours.dw, ref.dw)).toBeLessThan(1e-4);
      expect(relErr(ours.db, ref.db)).toBeLessThan(1e-4);
    }
  });

  it.each([1, 5])("matches the cpu reference for a k=%i kernel too", async (k) => {
    const r = new Rng(k);
    const ws2: [number, number, number, number] = [k, k, 3, 4];
    const wv2 = randomValues(k * k * 3 * 4, r);
    const bv2 = randomValues(4, r);
    const gv2 = randomValues(2 * 9 * 11 * 4, r);
    await tf.setBackend("cpu");
    const ref = gradsOf(reference, xv, xs, wv2, ws2, bv2, gv2);
    await tf.setBackend("wasm");
    const ours = gradsOf((x, w, b) => conv2dSame(x, w, b), xv, xs, wv2, ws2, bv2, gv2);
    expect(relErr(ours.y, ref.y)).toBeLessThan(1e-4);
    expect(relErr(ours.dx, ref.dx)).toBeLessThan(1e-4);
    expect(relErr(ours.dw, ref.dw)).toBeLessThan(1e-4);
  });

  it.each([2, 4])("matches the cpu autodiff of a dilated tf.conv2d (dilation %i) on wasm", async (d) => {
    const r = new Rng(10 + d);
    const xsD: [number, number, number, number] = [2, 13, 12, 3];
    const xvD = randomValues(2 * 13 * 12 * 3, r);
    const gvD = randomValues(2 * 13 * 12 * 5, r);
    // tfjs has no gradient for dilated conv2d: the reference is the plain conv with the kernel
    // spread to K = d(k-1)+1 taps (zeros between), built by a 0/1 placement matrix so autodiff
    // reaches w through the matMul.
    const k = ws[0];
    const K = d * (k - 1) + 1;
    const place = new Float32Array(K * K * k * k);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) place[(i * d * K + j * d) * k * k + i * k + j] = 1;
    const dilated = (x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D): tf.Tensor4D => {
      const wExp = tf.reshape<tf.Rank.R4>(tf.matMul(tf.tensor2d(place, [K * K, k * k]), tf.reshape(w, [k * k, ws[2] * ws[3]])), [K, K, ws[2], ws[3]]);
      return tf.add(tf.conv2d(x, wExp, 1, "same"), b);
    };
    await tf.setBackend("cpu");
    const ref = gradsOf(dilated, xvD, xsD, wv, ws, bv, gvD);
    await tf.setBackend("wasm");
    const ours = gradsOf((x, w, b) => conv2dSame(x, w, b, { dilation: d }), xvD, xsD, wv, ws, bv, gvD);
    expect(relErr(ours.y, ref.y)).toBeLessThan(1e-4);
    expect(relErr(ours.dx, ref.dx)).toBeLessThan(1e-4);
    expect(relErr(ours.dw, ref.dw)).toBeLessThan(1e-4);
    expect(relErr(ours.db, ref.db)).toBeLessThan(1e-4);
    // The dilated result is not the plain one (the option is not ignored).
    const plain = gradsOf((x, w, b) => conv2dSame(x, w, b), xvD, xsD, wv, ws, bv, gvD);
    expect(relErr(plain.y, ref.y)).toBeGreaterThan(0.1);
  });

  it("returns a zero input gradient when skipInputGrad is set, with the same filter gradient", async () => {
    await tf.setBackend("wasm");
    const full = gradsOf((x, w, b) => conv2dSame(x, w, b), xv, xs, wv, ws, bv, gv);
    const skip = gradsOf((x, w, b) => conv2dSame(x, w, b, { skipInputGrad: true }), xv, xs, wv, ws, bv, gv);
    expect(skip.dx.every((v) => v === 0)).toBe(true);
    expect(relErr(skip.dw, full.dw)).toBeLessThan(1e-6);
  });

  it("names the bad shape in its errors", () => {
    const x = tf.zeros<tf.Rank.R4>([1, 4, 4, 2]);
    expect(() => conv2dSame(x, tf.zeros<tf.Rank.R4>([3, 3, 3, 4]), tf.zeros<tf.Rank.R1>([4]))).toThrow("input channels=2, expected 3");
    expect(() => conv2dSame(x, tf.zeros<tf.Rank.R4>([2, 2, 2, 4]), tf.zeros<tf.Rank.R1>([4]))).toThrow("kernel 2x2");
    tf.disposeVariables();
  });
});
