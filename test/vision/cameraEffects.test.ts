/**
 * Camera effects (issue 14 item 2): the training-time augmentation that makes simulator crops look
 * like a real drone camera's. Each effect must change what it claims and nothing else: the
 * geometry (where a 1 px line is) never moves, since the labels stay where the renderer put them.
 */
import { Rng } from "../../src/util/Rng";
import { applyCameraEffects, DEFAULT_CAMERA_EFFECTS, drawCameraEffects, gaussianTaps, type CameraEffects } from "../../src/vision/cameraEffects";

const W = 48;
const H = 32;

/** Mid-grey image with a dark 1 px vertical line at column 20. */
function lineImage(): Float32Array {
  const img = new Float32Array(W * H * 3).fill(0.6);
  for (let y = 0; y < H; y++) for (let c = 0; c < 3; c++) img[3 * (y * W + 20) + c] = 0.1;
  return img;
}

const NONE: CameraEffects = { vignette: 0, blurSigma: 0, gain: [1, 1, 1], noiseStd: 0, gamma: 1, sharpen: 0, jpegQuality: 0 };

/** Mean over rows of channel 0 per column. */
function columnMeans(img: Float32Array): number[] {
  const out: number[] = [];
  for (let x = 0; x < W; x++) {
    let s = 0;
    for (let y = 0; y < H; y++) s += img[3 * (y * W + x)]!;
    out.push(s / H);
  }
  return out;
}

function argmin(v: number[]): number {
  return v.reduce((best, x, i) => (x < v[best]! ? i : best), 0);
}

describe("camera effects", () => {
  it("with every effect off, leaves the image as it was", () => {
    const img = lineImage();
    applyCameraEffects(img, W, H, NONE, new Rng(1));
    expect(img).toEqual(lineImage());
  });

  it("Gaussian taps are symmetric and sum to 1", () => {
    const t = gaussianTaps(0.8);
    expect(t.length % 2).toBe(1);
    expect(t.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    for (let i = 0; i < t.length; i++) expect(t[i]).toBeCloseTo(t[t.length - 1 - i]!, 7);
  });

  it("blur lowers a 1 px line's contrast without moving it", () => {
    const img = lineImage();
    applyCameraEffects(img, W, H, { ...NONE, blurSigma: 1 }, new Rng(1));
    const cols = columnMeans(img);
    expect(argmin(cols)).toBe(20);
    expect(cols[20]!).toBeGreaterThan(0.2);
    expect(cols[19]!).toBeLessThan(0.6);
  });

  it("sharpening overshoots beside the line (the ISP halo) and keeps it in place", () => {
    const img = lineImage();
    applyCameraEffects(img, W, H, { ...NONE, sharpen: 1 }, new Rng(1));
    const cols = columnMeans(img);
    expect(argmin(cols)).toBe(20);
    expect(cols[19]!).toBeGreaterThan(0.6);
  });

  it("vignetting darkens the corners more than the centre", () => {
    const img = new Float32Array(W * H * 3).fill(0.5);
    applyCameraEffects(img, W, H, { ...NONE, vignette: 0.3 }, new Rng(1));
    const centre = img[3 * ((H / 2) * W + W / 2)]!;
    expect(img[0]!).toBeCloseTo(0.5 * 0.7, 5);
    expect(centre).toBeGreaterThan(0.49);
  });

  it("JPEG at quality 40 changes pixels a little and keeps the line", () => {
    const img = lineImage();
    applyCameraEffects(img, W, H, { ...NONE, jpegQuality: 40 }, new Rng(1));
    const ref = lineImage();
    let diff = 0;
    for (let i = 0; i < img.length; i++) diff += Math.abs(img[i]! - ref[i]!);
    expect(diff / img.length).toBeGreaterThan(0.001);
    expect(diff / img.length).toBeLessThan(0.05);
    expect(argmin(columnMeans(img))).toBe(20);
  });

  it("gain and gamma move brightness and stay in [0, 1]", () => {
    const img = lineImage();
    applyCameraEffects(img, W, H, { ...NONE, gain: [2, 2, 2], gamma: 0.8 }, new Rng(1));
    expect(Math.max(...img)).toBeLessThanOrEqual(1);
    expect(img[0]!).toBe(1);
    expect(img[3 * 20]!).toBeCloseTo(0.2 ** 0.8, 5);
  });

  it("draws within the default ranges and is deterministic for a seed", () => {
    const a = new Rng(7);
    const b = new Rng(7);
    for (let i = 0; i < 50; i++) {
      const fx = drawCameraEffects(a);
      expect(drawCameraEffects(b)).toEqual(fx);
      expect(fx.blurSigma).toBeGreaterThanOrEqual(DEFAULT_CAMERA_EFFECTS.blurSigma[0]);
      expect(fx.blurSigma).toBeLessThanOrEqual(DEFAULT_CAMERA_EFFECTS.blurSigma[1]);
      expect(fx.jpegQuality === 0 || (fx.jpegQuality >= 40 && fx.jpegQuality <= 90)).toBe(true);
    }
  });

  it("refuses an image of the wrong size, naming the sizes", () => {
    expect(() => applyCameraEffects(new Float32Array(10), W, H, NONE, new Rng(1))).toThrow(/48x32x3 = 4608/);
  });
});
