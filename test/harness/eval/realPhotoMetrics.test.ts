/**
 * The real-photograph metrics (SPEC "Real photographs"): expected values worked out by hand in
 * each test from the definitions in src/harness/eval/realPhotoMetrics.ts.
 */
import { RealSetScore, discMax, gridCellSamples, sobelMagnitudeMap } from "../../../src/harness/eval/realPhotoMetrics";

/** A W x H mask with a horizontal wire on row y. */
function wireRow(W: number, H: number, y: number): Uint8Array {
  const m = new Uint8Array(W * H);
  for (let x = 0; x < W; x++) m[y * W + x] = 1;
  return m;
}

describe("gridCellSamples", () => {
  it("lays a 32x32 grid at the photo's aspect: 96x64 gives 3x2 px cells, max score, any-positive label", () => {
    const W = 96, H = 64;
    const map = new Float32Array(W * H);
    map[5 * W + 7] = 0.8; // cell (row 2, col 2): rows 4-5, cols 6-8
    const mask = new Uint8Array(W * H);
    mask[63 * W + 95] = 1; // last cell
    const scores: number[] = [];
    const labels: number[] = [];
    gridCellSamples(map, mask, W, H, scores, labels);
    expect(scores).toHaveLength(1024);
    expect(scores[2 * 32 + 2]).toBeCloseTo(0.8, 6);
    expect(scores.filter((s) => s > 0)).toHaveLength(1);
    expect(labels[1023]).toBe(1);
    expect(labels.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it("refuses photos smaller than the grid and maps of the wrong size", () => {
    expect(() => gridCellSamples(new Float32Array(16), new Uint8Array(16), 4, 4, [], [])).toThrow("photo 4x4, expected at least 32x32");
    expect(() => gridCellSamples(new Float32Array(3), new Uint8Array(64 * 64), 64, 64, [], [])).toThrow("map.length=3, expected 64x64=4096");
  });
});

describe("tolerance F1 (5 px)", () => {
  const W = 64, H = 48;
  const gt = wireRow(W, H, 20);
  const asMap = (m: Uint8Array) => Float32Array.from(m);

  it("is 1 for the ground truth itself and for a copy 3 px away, 0 for one 7 px away", () => {
    for (const [shift, f1] of [[0, 1], [3, 1], [7, 0]] as const) {
      const t = new RealSetScore();
      t.add(asMap(wireRow(W, H, 20 + shift)), gt, W, H);
      expect(t.bestF1().f1).toBeCloseTo(f1, 6);
    }
  });

  it("a map that marks every pixel has recall 1 and precision = near-wire pixels / all pixels", () => {
    const t = new RealSetScore();
    t.add(new Float32Array(W * H).fill(1), gt, W, H);
    // Rows 15..25 are within 5 px of row 20: 11 rows of 64 out of 48 rows.
    const p = 11 / 48;
    expect(t.bestF1()).toMatchObject({ recall: 1 });
    expect(t.bestF1().precision).toBeCloseTo(p, 6);
    expect(t.bestF1().f1).toBeCloseTo((2 * p) / (1 + p), 6);
  });

  it("discMax uses a Euclidean disc: (4, 3) is inside radius 5, (4, 4) is not; it equals the brute-force disc max", () => {
    const src = new Float32Array(11 * 11);
    src[5 * 11 + 5] = 1;
    const out = discMax(src, 11, 11, 5);
    expect(out[(5 + 3) * 11 + 5 + 4]).toBe(1);
    expect(out[(5 + 4) * 11 + 5 + 4]).toBe(0);
    const W = 23, H = 17;
    const rnd = Float32Array.from({ length: W * H }, (_, i) => ((i * 7919) % 101) / 101);
    const fast = discMax(rnd, W, H, 5);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        let m = -Infinity;
        for (let dy = -5; dy <= 5; dy++) for (let dx = -5; dx <= 5; dx++) if (dx * dx + dy * dy <= 25 && x + dx >= 0 && x + dx < W && y + dy >= 0 && y + dy < H) m = Math.max(m, rnd[(y + dy) * W + x + dx]!);
        expect(fast[y * W + x]).toBe(m);
      }
    }
  });
});

describe("RealSetScore and the Sobel baseline", () => {
  it("a perfect map scores AP 1 and F1 1; chance is the positive-cell rate", () => {
    const W = 64, H = 64;
    const gt = wireRow(W, H, 10);
    const s = new RealSetScore();
    s.add(Float32Array.from(gt), gt, W, H);
    const r = s.result();
    expect(r.ap).toBeCloseTo(1, 9);
    expect(r.f1).toBeCloseTo(1, 9);
    expect(r.chance).toBeCloseTo(32 / 1024, 9); // one grid row of 32 cells holds the wire
  });

  it("Sobel magnitude of a black-to-white vertical step is 4 / (4 sqrt 2) on both sides of it, 0 on flat ground", () => {
    const W = 8, H = 8;
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 4; x < W; x++) rgb.fill(255, 3 * (y * W + x), 3 * (y * W + x) + 3);
    const m = sobelMagnitudeMap(rgb, W, H);
    expect(m[4 * W + 3]).toBeCloseTo(1 / Math.SQRT2, 6);
    expect(m[4 * W + 4]).toBeCloseTo(1 / Math.SQRT2, 6);
    expect(m[4 * W + 1]).toBe(0);
  });

  it("Sobel has OpenCV's reflected border: a flat photo gives 0 on its frame too, a step reaching the border keeps its value there", () => {
    const W = 6, H = 5;
    const flat = new Uint8Array(W * H * 3).fill(200);
    expect(Array.from(sobelMagnitudeMap(flat, W, H)).every((v) => v === 0)).toBe(true);
    const rgb = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 3; x < W; x++) rgb.fill(255, 3 * (y * W + x), 3 * (y * W + x) + 3);
    const m = sobelMagnitudeMap(rgb, W, H);
    // Top and bottom rows: the reflected row above equals the row below, so the step's value stays.
    expect(m[2]).toBeCloseTo(1 / Math.SQRT2, 6);
    expect(m[(H - 1) * W + 3]).toBeCloseTo(1 / Math.SQRT2, 6);
    expect(m[0]).toBe(0);
    expect(m[W - 1]).toBe(0);
    expect(() => sobelMagnitudeMap(new Uint8Array(3), 1, 1)).toThrow("image 1x1, expected at least 2x2");
  });
});
