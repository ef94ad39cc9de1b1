/**
 * Input normalisation (state vector, image + Sobel channel), ParamStore's load checks and the
 * backend fallback warning. Expected values are worked out in the comments.
 */
import * as tf from "@tensorflow/tfjs";
import { ParamStore, STATE_DIM, buildHarnessImage, buildImageInput, initBackend, normaliseState } from "../../src/harness";
import { concatChannels } from "../../src/harness/layers/concatChannels";

describe("backend selection", () => {
  it("falls back to cpu with a warning when the preferred backend is unavailable", async () => {
    // @tensorflow/tfjs-node is not installed here (its install needs libtensorflow downloads).
    const warnings: string[] = [];
    const info = await initBackend({ prefer: "tensorflow", warn: (m) => warnings.push(m) });
    expect(info.name).toBe("cpu");
    expect(tf.getBackend()).toBe("cpu");
    expect(warnings.join("")).toContain('backend "tensorflow" unavailable, falling back to the cpu backend');
  });
});

describe("normaliseState", () => {
  it("maps altitude, ENU velocity and IMU differences linearly to [-1, 1] and clamps", () => {
    const s = normaliseState({
      altitude_m: 25, // (2*25/50) - 1 = 0
      velocityEnu_m_s: [5, -10, 20], // 0.5, -1, clamp(2) = 1
      imu: [
        { gyro_rad_s: [0, 0, 0], accel_m_s2: [0, 0, 9.81] },
        { gyro_rad_s: [1, 0, 0], accel_m_s2: [0, 0, 9.81] }, // d gyro x = 1 -> 0.5
        { gyro_rad_s: [1, -1, 0], accel_m_s2: [5, 0, 9.81] }, // d gyro y = -1 -> -0.5, d accel x = 5 -> 0.5
      ],
    });
    expect(s.length).toBe(STATE_DIM);
    expect(Array.from(s.slice(0, 4))).toEqual([0, 0.5, -1, 1]);
    // Older difference (samples 0 -> 1) first.
    expect(s[4]).toBeCloseTo(0.5, 6);
    expect(s[9]).toBeCloseTo(0, 6);
    expect(s[10]).toBeCloseTo(0, 6);
    expect(s[11]).toBeCloseTo(-0.5, 6);
    expect(s[13]).toBeCloseTo(0.5, 6);
  });

  it("maps non-finite readings to 0 and missing IMU history to zero differences", () => {
    const s = normaliseState({ altitude_m: Number.NaN, velocityEnu_m_s: [Number.POSITIVE_INFINITY, 0, 0], imu: [] });
    expect(Array.from(s)).toEqual(new Array(STATE_DIM).fill(0));
    expect(() => normaliseState({ altitude_m: 1, velocityEnu_m_s: [0, 0, 0], imu: [] }, new Float32Array(3))).toThrow("out.length=3, expected 16");
  });
});

describe("buildImageInput", () => {
  it("maps RGB to [-1,1] and puts the clipped Sobel magnitude in channel 3", async () => {
    await initBackend();
    // 8x8 image, columns 0-3 black, 4-7 white. At columns 3 and 4 the Sobel x response of the
    // grey image is (1+2+1) * 1 = 4 -> 4 / SOBEL_FULL_SCALE(2) = 2 -> clipped to 1 -> 2*1-1 = 1.
    // Away from the edge (column 1) the gradient is 0 -> -1. (The backend is cpu here: the
    // fallback test above initialised it.)
    const v = new Float32Array(8 * 8 * 3);
    for (let y = 0; y < 8; y++) for (let x = 4; x < 8; x++) for (let c = 0; c < 3; c++) v[(y * 8 + x) * 3 + c] = 1;
    const out = tf.tidy(() => buildImageInput(tf.tensor4d(v, [1, 8, 8, 3])).dataSync<"float32">().slice());
    const at = (y: number, x: number, c: number): number => out[(y * 8 + x) * 4 + c] ?? NaN;
    expect(at(3, 0, 0)).toBe(-1);
    expect(at(3, 5, 2)).toBe(1);
    expect(at(3, 3, 3)).toBeCloseTo(1, 6);
    expect(at(3, 4, 3)).toBeCloseTo(1, 6);
    expect(at(3, 1, 3)).toBeCloseTo(-1, 6);
    expect(() => buildImageInput(tf.zeros<tf.Rank.R4>([1, 8, 8, 4]))).toThrow("channels=4, expected 3");
  });
});

describe("ParamStore.load", () => {
  it("rejects unknown, missing and mis-shaped weights by name", async () => {
    await initBackend();
    const p = new ParamStore("t", 1);
    p.add("a", [2, 3], "he");
    p.add("b", [3], "zeros");
    const good = p.snapshot();
    expect(() => p.load([{ name: "a", shape: [3, 2], values: new Float32Array(6) }, good[1]!])).toThrow('weight "a" has shape [3,2], expected [2,3]');
    expect(() => p.load([good[0]!])).toThrow("weights missing for t: b");
    expect(() => p.load([...good, { name: "c", shape: [1], values: new Float32Array(1) }])).toThrow('weight "c" is not part of t');
    p.load(good.map((w) => ({ ...w, values: w.values.map((x) => x + 1) })));
    expect(p.get("b").dataSync()).toEqual(new Float32Array([1, 1, 1]));
    p.dispose();
  });
});

describe("concatChannels", () => {
  it("equals tf.concat on the channel axis, with zero blocks", async () => {
    await initBackend();
    const [ours, ref] = tf.tidy(() => {
      const a = tf.randomUniform<tf.Rank.R4>([2, 4, 5, 3], -1, 1, "float32", 1);
      const b = tf.randomUniform<tf.Rank.R4>([2, 4, 5, 1], -1, 1, "float32", 2);
      const o = concatChannels([a, { zeroChannels: 2 }, b]);
      const r = tf.concat([a, tf.zeros([2, 4, 5, 2]), b], 3);
      return [o.dataSync().slice(), r.dataSync().slice()];
    });
    expect(ours).toEqual(ref);
    expect(() => concatChannels([{ zeroChannels: 1 }])).toThrow("needs at least one tensor");
  });
});

describe("buildHarnessImage", () => {
  it("puts the image pooled to 64x64 in channels 0-3 and each rollout frame as pooled grey in [-1,1]", async () => {
    await initBackend();
    const [ours, refImage, refFrame] = tf.tidy(() => {
      const rgb = tf.randomUniform<tf.Rank.R4>([1, 128, 128, 3], 0, 1, "float32", 21);
      const frame = tf.randomUniform<tf.Rank.R4>([1, 128, 128, 3], 0, 1, "float32", 22);
      const image = buildImageInput(rgb);
      const h = buildHarnessImage(image, [frame]);
      // Reference: grey first, then 2x-1, then 2x2 average pooling (128 -> 64).
      const grey = tf.sub<tf.Tensor4D>(tf.mul(tf.mean(frame, 3, true), 2), 1);
      return [
        h.dataSync().slice(),
        tf.avgPool(image, 2, 2, "valid").dataSync().slice(),
        tf.avgPool(grey, 2, 2, "valid").dataSync().slice(),
      ];
    });
    let maxErr = 0;
    for (let p = 0; p < 64 * 64; p++) {
      for (let c = 0; c < 4; c++) maxErr = Math.max(maxErr, Math.abs((ours[p * 7 + c] ?? NaN) - (refImage[p * 4 + c] ?? NaN)));
      maxErr = Math.max(maxErr, Math.abs((ours[p * 7 + 4] ?? NaN) - (refFrame[p] ?? NaN)));
      expect(ours[p * 7 + 5]).toBe(0);
      expect(ours[p * 7 + 6]).toBe(0);
    }
    // Float32 rounding of differently ordered linear operations.
    expect(maxErr).toBeLessThan(1e-5);
  });
});
