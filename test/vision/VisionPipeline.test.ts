import type { ImageLike } from "../../src/vision/imageToGrey";
import { MatPool } from "../../src/vision/MatPool";
import { loadOpenCv, wasmHeapBytes, wasmHeapTop, type Cv } from "../../src/vision/opencv";
import { VisionPipeline } from "../../src/vision/VisionPipeline";
import { render, smoothTexture } from "../../src/vision/synthetic";

const W = 128;
const H = 128;
const FRAME_NS = 50_000_000n; // 20 Hz

/** An rgb8 image of the grey frame (r = g = b), with 4 bytes of row padding. */
function rgbImage(grey: Uint8Array): ImageLike {
  const step = W * 3 + 4;
  const data = new Uint8Array(step * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = grey[y * W + x]!;
      data.set([v, v, v], y * step + x * 3);
    }
  }
  return { width: W, height: H, encoding: "rgb8", step, data };
}

describe("VisionPipeline", () => {
  let cv: Cv;
  const T = smoothTexture(3);
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test("first frame is zero padding, then K scaled steps; the rollout moves by k/K of the 1 m flow", () => {
    const p = new VisionPipeline(cv, { width: W, height: H, flow: { downscale: 1 } });
    const f0 = render(W, H, T);
    // Between the frames the image shifts by (0.5, 0) px while the drone flies 5 m/s * 0.05 s = 0.25 m,
    // so 1 m of the same motion is a (2, 0) px shift and step k of 3 shifts by 2k/3 px.
    const f1 = render(W, H, (x, y) => T(x - 0.5, y));
    const r0 = p.push(rgbImage(f0), { stampNs: 1_000_000_000n, speedMps: 5 });
    expect(r0.status).toBe("no-flow");
    expect(r0.validCount).toBe(0);
    expect(r0.frames.every((v) => v === 0)).toBe(true);
    expect(r0.frames.length).toBe(3 * W * H);
    const r1 = p.push(rgbImage(f1), { stampNs: 1_000_000_000n + FRAME_NS, speedMps: 5 });
    expect(r1.status).toBe("scaled");
    expect(r1.validCount).toBe(3);
    expect(r1.dtS).toBeCloseTo(0.05, 12);
    for (let k = 1; k <= 3; k++) {
      const shift = 0.5 + (2 * k) / 3;
      let err = 0;
      let n = 0;
      for (let y = 16; y < H - 16; y++) {
        for (let x = 16; x < W - 16; x++, n++) {
          const expected = (Math.min(255, Math.max(0, T(x - shift, y))) * 2) / 255 - 1; // "signed" output range
          err += Math.abs(r1.frames[(k - 1) * W * H + y * W + x]! - expected);
        }
      }
      // Measured MAE 0.003-0.0055 in [-1, 1] units (< 0.7 grey levels): flow error times 4 (1 m is
      // 4 frame intervals) plus bilinear resampling. A rollout off by 0.5 px measures >= 0.038.
      process.stdout.write(`rollout step ${k}: MAE ${(err / n).toFixed(4)} ([-1, 1] units) against the analytic frame\n`);
      expect(err / n).toBeLessThan(0.012);
    }
    // Texture channel lies in [-1, 1] and is not constant on a textured frame.
    let min = Infinity;
    let max = -Infinity;
    for (const v of r1.texture) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    expect(min).toBeGreaterThanOrEqual(-1);
    expect(max).toBeLessThanOrEqual(1);
    expect(max - min).toBeGreaterThan(0.1);
    p.dispose();
  });

  test("hover repeats the current frame (zero-speed); a backwards stamp is a bad interval; wrong size throws naming it", () => {
    const p = new VisionPipeline(cv, { width: W, height: H });
    const f = render(W, H, T);
    p.pushGrey(f, { stampNs: 0n, speedMps: 0 });
    const r = p.pushGrey(f, { stampNs: FRAME_NS, speedMps: 0.05 });
    expect(r.status).toBe("zero-speed");
    expect(r.validCount).toBe(3);
    expect(r.frames[2 * W * H + 500]).toBeCloseTo((f[500]! * 2) / 255 - 1, 6);
    expect(p.pushGrey(f, { stampNs: 0n, speedMps: 5 }).status).toBe("bad-interval");
    expect(p.result.validCount).toBe(0);
    expect(() => p.push({ width: 64, height: H, encoding: "mono8", step: 64, data: new Uint8Array(64 * H) }, { stampNs: 0n, speedMps: 1 })).toThrow(
      "width=64, expected 128",
    );
    p.dispose();
  });

  test("1,000 frames do not grow WASM memory and leave no live Mats after dispose", () => {
    // 64x64 keeps the 1,000 frames fast on a shared machine while every code path runs (flow at
    // 32x32, K = 3 warps, Sobel, tensor writes); a leak of one float Mat per frame would still be
    // 16 MB over the run.
    const S = 64;
    const frames = [render(S, S, T), render(S, S, (x, y) => T(x - 0.7, y + 0.2))];
    const liveBefore = MatPool.live;
    const p = new VisionPipeline(cv, { width: S, height: S });
    // Warm up so that OpenCV's internal one-time buffers exist before the baseline is taken.
    for (let i = 0; i < 5; i++) p.pushGrey(frames[i % 2] as Uint8Array, { stampNs: BigInt(i) * FRAME_NS, speedMps: 3 });
    const heap0 = wasmHeapBytes(cv);
    const top0 = wasmHeapTop(cv);
    const live0 = MatPool.live;
    for (let i = 5; i < 1005; i++) {
      const r = p.pushGrey(frames[i % 2] as Uint8Array, { stampNs: BigInt(i) * FRAME_NS, speedMps: 3 });
      expect(r.status).toBe("scaled");
    }
    expect(wasmHeapBytes(cv)).toBe(heap0);
    // Live allocations: the high-water mark does not move.
    expect(Math.abs(wasmHeapTop(cv) - top0)).toBeLessThan(64 * 1024);
    expect(MatPool.live).toBe(live0);
    p.dispose();
    expect(MatPool.live).toBe(liveBefore);
    // A bad option in a later part frees the Mats of the parts already built.
    expect(() => new VisionPipeline(cv, { width: S, height: S, texture: { ridgeKernel: 2 } })).toThrow("ridgeKernel=2");
    expect(MatPool.live).toBe(liveBefore);
  });
});
