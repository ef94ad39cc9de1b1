/**
 * Foliage clutter (issue 14 item 2): leaf-scale texture painted behind the objects of a simulated
 * crop. It must cover the crop with leaves and gaps (many short edges), never touch an object
 * pixel, stay inside its half-plane, and draw the same foliage from the same seed.
 */
import { Rng } from "../../src/util/Rng";
import { applyFoliageClutter, DEFAULT_FOLIAGE_CLUTTER, drawFoliageClutter, type FoliageClutter } from "../../src/vision/foliageClutter";

const S = 64;

function flat(v = 0.5): Float32Array {
  return new Float32Array(S * S * 3).fill(v);
}

/** Foliage drawn with certainty over the whole crop (seeded). */
function foliage(seed: number, extra: Partial<typeof DEFAULT_FOLIAGE_CLUTTER> = {}): FoliageClutter {
  const c = drawFoliageClutter(new Rng(seed), S, { ...DEFAULT_FOLIAGE_CLUTTER, chance: 1, fullChance: 1, ...extra });
  if (c === undefined) throw new Error("expected foliage at chance 1");
  return c;
}

/** Mean absolute difference of horizontally adjacent pixels (channel 1): edge density. */
function edgeDensity(img: Float32Array): number {
  let s = 0;
  for (let y = 0; y < S; y++) for (let x = 1; x < S; x++) s += Math.abs(img[3 * (y * S + x) + 1]! - img[3 * (y * S + x - 1) + 1]!);
  return s / (S * (S - 1));
}

describe("foliage clutter", () => {
  it("fills a flat crop with leaves and gaps: leaf-scale edges everywhere, dark gaps and lit leaves", () => {
    const img = flat();
    applyFoliageClutter(img, S, S, foliage(3, { coverage: [1.2, 1.2] }));
    expect(edgeDensity(flat())).toBe(0);
    expect(edgeDensity(img)).toBeGreaterThan(0.02);
    const green = Array.from({ length: S * S }, (_, p) => img[3 * p + 1]!).sort((a, b) => a - b);
    expect(green[Math.floor(0.05 * S * S)]!).toBeLessThan(0.25);
    expect(green[Math.floor(0.95 * S * S)]!).toBeGreaterThan(0.3);
  });

  it("never changes a masked (object) pixel, and stays on its side of a half-plane", () => {
    const img = flat();
    const mask = new Uint8Array(S * S);
    for (let x = 0; x < S; x++) {
      mask[30 * S + x] = 1;
      for (let c = 0; c < 3; c++) img[3 * (30 * S + x) + c] = 0.95;
    }
    const c = { ...foliage(4), half: { nx: 0, ny: 1, d: 20 } };
    applyFoliageClutter(img, S, S, c, mask);
    for (let x = 0; x < S; x++) expect(img[3 * (30 * S + x)]).toBe(Math.fround(0.95));
    for (let y = 0; y < 20; y++) for (let x = 0; x < S; x++) expect(img[3 * (y * S + x) + 1]).toBe(0.5);
    let changed = 0;
    for (let y = 21; y < S; y++) for (let x = 0; x < S; x++) if (y !== 30 && img[3 * (y * S + x) + 1] !== 0.5) changed++;
    expect(changed).toBeGreaterThan(0.9 * (S - 22) * S);
  });

  it("draws the same foliage from the same seed, at about the default chance, and refuses bad ranges by name", () => {
    expect(foliage(9)).toEqual(foliage(9));
    const drawn = Array.from({ length: 300 }, (_, i) => drawFoliageClutter(new Rng(100 + i), S)).filter((c) => c !== undefined).length / 300;
    expect(Math.abs(drawn - DEFAULT_FOLIAGE_CLUTTER.chance)).toBeLessThan(0.1);
    expect(() => drawFoliageClutter(new Rng(1), S, { ...DEFAULT_FOLIAGE_CLUTTER, leafRadius_px: [0.1, 2] })).toThrow(/leafRadius_px=\[0.1, 2\].*at least 0.5 px/);
    expect(() => drawFoliageClutter(new Rng(1), S, { ...DEFAULT_FOLIAGE_CLUTTER, coverage: [2, 1] })).toThrow(/coverage=\[2, 1\].*min <= max/);
    expect(() => applyFoliageClutter(flat(), S, S, foliage(1), new Uint8Array(3))).toThrow(/keep length 3/);
  });
});
