/**
 * imageInputFromRgb8 (the per-frame JavaScript path of the detectors' input) against the tensor
 * reference buildImageInput on rgb/255: same values to float32 rounding, on a random frame and on
 * a frame with a sharp 1-px line (the Sobel channel saturates there) and at the borders (zero
 * padding, as tf.conv2d 'same').
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../src/harness/backend";
import { buildImageInput, imageInputFromRgb8 } from "../../src/harness/models/imageInput";
import { Rng } from "../../src/util/Rng";

describe("imageInputFromRgb8", () => {
  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
  });

  function reference(rgb: Uint8Array, w: number, h: number): Float32Array {
    return tf.tidy(() => buildImageInput(tf.tensor4d(Float32Array.from(rgb, (v) => v / 255), [1, h, w, 3])).dataSync<"float32">().slice());
  }

  it("equals buildImageInput to 1e-5 on random and line images, borders included", () => {
    const w = 24;
    const h = 16;
    const rng = new Rng(3);
    const random = new Uint8Array(w * h * 3).map(() => Math.floor(rng.uniform() * 256));
    const line = new Uint8Array(w * h * 3).fill(200);
    for (let x = 0; x < w; x++) line.fill(10, (5 * w + x) * 3, (5 * w + x) * 3 + 3);
    for (const rgb of [random, line]) {
      const ours = imageInputFromRgb8(rgb, w, h, new Float32Array(w * h * 4));
      const ref = reference(rgb, w, h);
      let worst = 0;
      for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - ref[i]!));
      expect(worst).toBeLessThan(1e-5);
    }
    // The line saturates the texture channel next to it (+1), the flat area is -1.
    const out = imageInputFromRgb8(line, w, h, new Float32Array(w * h * 4));
    expect(out[(4 * w + 10) * 4 + 3]).toBeCloseTo(1, 6);
    expect(out[(10 * w + 10) * 4 + 3]).toBeCloseTo(-1, 6);
  });

  it("names wrong buffer sizes", () => {
    expect(() => imageInputFromRgb8(new Uint8Array(10), 4, 4, new Float32Array(64))).toThrow("rgb.length=10, expected 48 (4x4x3)");
    expect(() => imageInputFromRgb8(new Uint8Array(48), 4, 4, new Float32Array(8))).toThrow("out.length=8, expected 64 (4x4x4)");
  });
});
