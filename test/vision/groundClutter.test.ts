/**
 * Ground clutter (issue 14 item 2): paving and facade tiles painted behind the objects of a
 * simulated crop. What it must do: put joint lines where it says (spacing, orientation, contrast),
 * never touch an object pixel (the labels stay true), stay inside its half-plane, and draw the same
 * pattern from the same seed.
 */
import { Rng } from "../../src/util/Rng";
import { applyGroundClutter, DEFAULT_GROUND_CLUTTER, drawGroundClutter, type GroundClutter } from "../../src/vision/groundClutter";
import { cropMask, type FrameDataset, type FrameSample } from "../../src/harness/data/FrameDataset";

const S = 64;

function flat(v = 0.5): Float32Array {
  return new Float32Array(S * S * 3).fill(v);
}

/** An axis-aligned grid of 8 px tiles with dark joints 1 px wide, no jitter, over the whole image, modulating the ground. */
const GRID: GroundClutter = { angle: 0, u0: 0, v0: 0, a: 8, b: 8, jointWidth: 1, jointFactor: 0.5, tileJitter: 0, stagger: false, tileSeed: 1 };

function channel0(img: Float32Array, x: number, y: number): number {
  return img[3 * (y * S + x)]!;
}

describe("ground clutter pattern", () => {
  it("draws dark joints every `a` px and leaves the tiles' inside as it was", () => {
    const img = flat();
    applyGroundClutter(img, S, S, GRID);
    // Joints sit where v = y is a multiple of 8 (rows 0, 8, ...); columns the same.
    const row = Array.from({ length: S }, (_, y) => channel0(img, 3, y));
    const darkRows = row.map((v, y) => (v < 0.3 ? y : -1)).filter((y) => y >= 0);
    expect(darkRows).toEqual([0, 8, 16, 24, 32, 40, 48, 56]);
    expect(channel0(img, 3, 3)).toBeCloseTo(0.5, 6);
    expect(channel0(img, 8, 3)).toBeCloseTo(0.25, 6);
    expect(channel0(img, 8, 8)).toBeCloseTo(0.25, 6);
  });

  it("rotates with its angle: at 90 degrees the joint rows become columns of the same spacing", () => {
    const a = flat();
    const b = flat();
    applyGroundClutter(a, S, S, { ...GRID, b: 1e6, u0: 500 });
    applyGroundClutter(b, S, S, { ...GRID, b: 1e6, u0: 500, angle: Math.PI / 2 });
    const darkRowsA = Array.from({ length: S }, (_, y) => y).filter((y) => channel0(a, 3, y) < 0.3);
    const darkColsB = Array.from({ length: S }, (_, x) => x).filter((x) => channel0(b, x, 3) < 0.3);
    expect(darkRowsA.length).toBe(8);
    expect(darkColsB.length).toBe(8);
    // Only rows are striped in a (tiles endless along them): a column of a is uniform between joints.
    expect(Array.from({ length: S }, (_, x) => x).filter((x) => channel0(a, x, 3) < 0.3)).toEqual([]);
  });

  it("never changes a masked (object) pixel", () => {
    const img = flat();
    const mask = new Uint8Array(S * S);
    for (let x = 0; x < S; x++) {
      mask[20 * S + x] = 1;
      for (let c = 0; c < 3; c++) img[3 * (20 * S + x) + c] = 0.05;
    }
    const before = img.slice();
    applyGroundClutter(img, S, S, { ...GRID, paving: [0.8, 0.7, 0.6], tileJitter: 0.1 }, mask);
    for (let x = 0; x < S; x++) for (let c = 0; c < 3; c++) expect(img[3 * (20 * S + x) + c]).toBe(before[3 * (20 * S + x) + c]);
    // ... while the background around it did change (the paving replaced it).
    expect(channel0(img, 3, 3)).not.toBeCloseTo(0.5, 2);
  });

  it("stays on its side of a half-plane, with a kerb band just inside the boundary", () => {
    const img = flat();
    applyGroundClutter(img, S, S, { ...GRID, jointFactor: 1, half: { nx: 1, ny: 0, d: 32, kerbWidth: 4, kerbFactor: 1.4 } });
    for (let y = 0; y < S; y++) for (let x = 0; x < 32; x++) expect(channel0(img, x, y)).toBe(0.5);
    expect(channel0(img, 34, 10)).toBeCloseTo(0.7, 6);
    expect(channel0(img, 45, 10)).toBeCloseTo(0.5, 6);
  });
});

describe("ground clutter draws", () => {
  it("are reproducible per seed and cover the default chance", () => {
    const a = Array.from({ length: 400 }, (_, i) => drawGroundClutter(new Rng(i), S));
    const b = Array.from({ length: 400 }, (_, i) => drawGroundClutter(new Rng(i), S));
    expect(a).toEqual(b);
    const drawn = a.filter((c) => c !== undefined).length / a.length;
    expect(drawn).toBeGreaterThan(DEFAULT_GROUND_CLUTTER.chance - 0.08);
    expect(drawn).toBeLessThan(DEFAULT_GROUND_CLUTTER.chance + 0.08);
    for (const c of a) {
      if (c === undefined) continue;
      expect(c.a).toBeGreaterThanOrEqual(DEFAULT_GROUND_CLUTTER.spacing_px[0]);
      expect(c.a).toBeLessThanOrEqual(DEFAULT_GROUND_CLUTTER.spacing_px[1]);
      expect(c.b).toBeGreaterThanOrEqual(c.a);
      expect(c.jointFactor === 1).toBe(false);
    }
  });

  it("refuses ranges that make no pattern, naming the range", () => {
    expect(() => drawGroundClutter(new Rng(1), S, { ...DEFAULT_GROUND_CLUTTER, spacing_px: [1, 4] })).toThrow(/spacing_px=\[1, 4\].*at least 2 px/);
    expect(() => drawGroundClutter(new Rng(1), S, { ...DEFAULT_GROUND_CLUTTER, aspect: [3, 1] })).toThrow(/aspect=\[3, 1\].*min <= max/);
    expect(() => drawGroundClutter(new Rng(1), S, { ...DEFAULT_GROUND_CLUTTER, chance: Number.NaN })).toThrow(/chance=NaN/);
    expect(() => applyGroundClutter(new Float32Array(10), S, S, GRID)).toThrow(/image length 10, expected 64x64x3/);
    expect(() => applyGroundClutter(flat(), S, S, GRID, new Uint8Array(5))).toThrow(/keep length 5/);
  });
});

describe("cropMask", () => {
  it("copies the frame's class mask under a crop", () => {
    const W = 32;
    const mask = new Uint8Array(W * W);
    mask[9 * W + 10] = 1;
    mask[20 * W + 25] = 2;
    const frame = { seed: 1, rgb: new Uint8Array(W * W * 3), mask, state: new Float32Array(1), expertAction: 0 } as FrameSample;
    const dataset: FrameDataset = { grid: { width: W, height: W, cell_px: 8 }, frames: [frame] };
    const out = new Uint8Array(16 * 16);
    cropMask(dataset, { frame: 0, x0: 8, y0: 8, size: 16 }, out);
    expect(out[1 * 16 + 2]).toBe(1);
    expect(out[12 * 16 + 17 - 16]).toBe(0);
    expect(Array.from(out).filter((v) => v !== 0)).toEqual([1]);
  });
});
