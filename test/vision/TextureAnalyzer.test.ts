import { loadOpenCv, type Cv } from "../../src/vision/opencv";
import { renderF32, smoothTexture, wire } from "../../src/vision/synthetic";
import { TextureAnalyzer } from "../../src/vision/TextureAnalyzer";

const W = 64;
const H = 64;

describe("TextureAnalyzer", () => {
  let cv: Cv;
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test("gradient magnitude is in grey levels per pixel: a ramp of slope (3, 4) gives 5", () => {
    const t = new TextureAnalyzer(cv, { width: W, height: H });
    const m = new cv.Mat(H, W, cv.CV_32FC1);
    m.data32F.set(renderF32(W, H, (x, y) => 3 * x + 4 * y));
    const mag = t.gradientMagnitude(m).data32F;
    for (const i of [10 * W + 10, 30 * W + 40, 50 * W + 5]) expect(mag[i]).toBeCloseTo(5, 4);
    m.delete();
    t.dispose();
  });

  test("box and mask statistics: known mean and population variance; empty region gives zeros", () => {
    const t = new TextureAnalyzer(cv, { width: 4, height: 2 });
    const mag = Float32Array.from([1, 2, 3, 4, 10, 20, 30, 40]);
    const s = { pixels: 0, mean: 0, variance: 0 };
    expect(t.boxStats(mag, { x: 0, y: 0, width: 4, height: 1 }, s)).toEqual({ pixels: 4, mean: 2.5, variance: 1.25 });
    expect(t.boxStats(mag, { x: -5, y: 1, width: 7, height: 9 }, s)).toEqual({ pixels: 2, mean: 15, variance: 25 });
    expect(t.maskStats(mag, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0]), s)).toEqual({ pixels: 0, mean: 0, variance: 0 });
    // Shifted accumulation stays exact for large offsets (naive sum of squares would cancel).
    const big = Float32Array.from([1e6, 1e6 + 1, 1e6 + 2, 1e6 + 3, 0, 0, 0, 0]);
    expect(t.maskStats(big, Uint8Array.from([1, 1, 1, 1, 0, 0, 0, 0]), s).variance).toBeCloseTo(1.25, 9);
    t.dispose();
  });

  test("ridge filter marks a 1-px wire and its flanks, not a smooth texture; the seed's rule uses both thresholds", () => {
    const t = new TextureAnalyzer(cv, { width: W, height: H });
    const T = smoothTexture(9);
    const bg = (x: number, y: number): number => 128 + 0.3 * (T(x, y) - 128);
    const m = new cv.Mat(H, W, cv.CV_32FC1);
    const mask = new Uint8Array(W * H);
    m.data32F.set(renderF32(W, H, bg));
    expect(t.findCandidates(m, mask)).toBe(0);
    m.data32F.set(renderF32(W, H, wire(bg, 32, 32, 0.7, 80, 1)));
    const count = t.findCandidates(m, mask);
    // A 64-px image crossed diagonally: ~80 px of wire, ~3 px wide with the flanks.
    expect(count).toBeGreaterThan(150);
    expect(count).toBeLessThan(500);
    expect(mask[32 * W + 32]).toBe(1);
    expect(mask[5 * W + 60]).toBe(0);
    const s = t.maskStats(t.gradientMagnitude(m).data32F, mask, { pixels: 0, mean: 0, variance: 0 });
    expect(s.variance).toBeGreaterThan(5);
    expect(t.shouldStrengthenTexture(s.variance, 10)).toBe(true);
    expect(t.shouldStrengthenTexture(s.variance, 20)).toBe(false);
    expect(t.shouldStrengthenTexture(4, 10)).toBe(false);
    expect(() => new TextureAnalyzer(cv, { width: W, height: H, ridgeKernel: 4 })).toThrow("ridgeKernel=4, expected an odd integer >= 3");
    m.delete();
    t.dispose();
  });
});
