/**
 * CellLabels.nearThreatCells (issue 12): a cell is a near threat when it holds a labelled pixel
 * whose depth is under max(range_m, forwardSpeed * timeToContact_s) (defaults 12 m and 3 s).
 * Hand-made 16x16 masks with 8 px cells: 2x2 cells, row-major (cell 0 top left, 1 top right,
 * 2 bottom left, 3 bottom right).
 */
import { DEFAULT_NEAR_THREAT, nearThreatCells, type GridSpec } from "../../../src/harness/eval/CellLabels";

const grid: GridSpec = { width: 16, height: 16, cell_px: 8 };
const N = 16 * 16;

/** A mask and depth map with the given labelled pixels (x, y, class, depth). */
function scene(pixels: ReadonlyArray<[number, number, number, number]>): { mask: Uint8Array; depth: Float32Array } {
  const mask = new Uint8Array(N);
  const depth = new Float32Array(N);
  for (const [x, y, cls, d] of pixels) {
    mask[y * 16 + x] = cls;
    depth[y * 16 + x] = d;
  }
  return { mask, depth };
}

/** The near-threat cells of a scene of the given pixels at `speed`, default options. */
function nearCells(pixels: ReadonlyArray<[number, number, number, number]>, speed: number): number[] {
  const { mask, depth } = scene(pixels);
  return Array.from(nearThreatCells(mask, depth, grid, speed));
}

describe("nearThreatCells", () => {
  it("uses the documented defaults (12 m, 3 s)", () => {
    expect(DEFAULT_NEAR_THREAT).toEqual({ range_m: 12, timeToContact_s: 3 });
  });

  it("marks the cell of a labelled pixel within range and only that cell", () => {
    // A wire pixel at 5 m in the bottom-right cell (x 8..15, y 8..15).
    const { mask, depth } = scene([[9, 12, 1, 5]]);
    expect(Array.from(nearThreatCells(mask, depth, grid, 2))).toEqual([0, 0, 0, 1]);
    // Any obstacle class counts: a branch (2) or a pole/trunk (3) in the top-left cell.
    expect(nearCells([[0, 0, 2, 5]], 2)).toEqual([1, 0, 0, 0]);
    expect(nearCells([[7, 7, 3, 5]], 2)).toEqual([1, 0, 0, 0]);
  });

  it("scales the threshold with speed: 20 m is not near at 2 m/s (limit 12 m) but near at 8 m/s (8 * 3 = 24 m)", () => {
    const { mask, depth } = scene([[3, 10, 1, 20]]);
    expect(Array.from(nearThreatCells(mask, depth, grid, 2))).toEqual([0, 0, 0, 0]);
    expect(Array.from(nearThreatCells(mask, depth, grid, 8))).toEqual([0, 0, 1, 0]);
    // 4 m/s: limit max(12, 12) = 12 m, 20 m is not near; 6.7 m/s: 20.1 m, it is.
    expect(Array.from(nearThreatCells(mask, depth, grid, 4))).toEqual([0, 0, 0, 0]);
    expect(Array.from(nearThreatCells(mask, depth, grid, 6.7))).toEqual([0, 0, 1, 0]);
  });

  it("uses strict inequalities at the limit and ignores non-positive or non-finite depths", () => {
    // Exactly at the 12 m range: not near; just under: near (12 - 1e-3 is exact enough in float32).
    expect(nearCells([[0, 0, 1, 12]], 0)).toEqual([0, 0, 0, 0]);
    expect(nearCells([[0, 0, 1, 11.999]], 0)).toEqual([1, 0, 0, 0]);
    // A labelled pixel without depth (0), with a negative one, NaN or Infinity is not near.
    const bad = scene([
      [0, 0, 1, 0],
      [8, 0, 1, -3],
      [0, 8, 1, Number.NaN],
      [8, 8, 1, Number.POSITIVE_INFINITY],
    ]);
    expect(Array.from(nearThreatCells(bad.mask, bad.depth, grid, 8))).toEqual([0, 0, 0, 0]);
  });

  it("ignores depth values on background pixels", () => {
    // Depth everywhere 1 m, but only one labelled pixel (top right, at 30 m: not near at 2 m/s).
    const { mask, depth } = scene([[12, 2, 1, 30]]);
    for (let i = 0; i < N; i++) if (mask[i] === 0) depth[i] = 1;
    expect(Array.from(nearThreatCells(mask, depth, grid, 2))).toEqual([0, 0, 0, 0]);
    // The same pixel at 3 m makes only its own cell near.
    depth[2 * 16 + 12] = 3;
    expect(Array.from(nearThreatCells(mask, depth, grid, 2))).toEqual([0, 1, 0, 0]);
  });

  it("treats a negative forward speed as zero (only the range applies)", () => {
    const { mask, depth } = scene([
      [0, 0, 1, 11],
      [8, 8, 1, 13],
    ]);
    expect(Array.from(nearThreatCells(mask, depth, grid, -10))).toEqual([1, 0, 0, 0]);
  });

  it("honours options and overwrites a reused out buffer", () => {
    const { mask, depth } = scene([
      [0, 0, 1, 4],
      [8, 8, 1, 9],
    ]);
    const out = new Uint8Array(4).fill(7);
    const r = nearThreatCells(mask, depth, grid, 1, { range_m: 5, timeToContact_s: 3 }, out);
    expect(r).toBe(out);
    expect(Array.from(out)).toEqual([1, 0, 0, 0]);
    // 9 m at 4 m/s with 2.5 s: 9 < 10.
    nearThreatCells(mask, depth, grid, 4, { range_m: 5, timeToContact_s: 2.5 }, out);
    expect(Array.from(out)).toEqual([1, 0, 0, 1]);
  });

  it("rejects wrong lengths, a non-finite speed and a bad grid with errors naming the values", () => {
    const { mask, depth } = scene([]);
    expect(() => nearThreatCells(new Uint8Array(N - 1), depth, grid, 2)).toThrow(RangeError);
    expect(() => nearThreatCells(new Uint8Array(N - 1), depth, grid, 2)).toThrow(`labelMask.length=${N - 1}, depth.length=${N}, expected width*height=${N}`);
    expect(() => nearThreatCells(mask, new Float32Array(N + 1), grid, 2)).toThrow(`labelMask.length=${N}, depth.length=${N + 1}, expected width*height=${N}`);
    expect(() => nearThreatCells(mask, depth, grid, Number.NaN)).toThrow(RangeError);
    expect(() => nearThreatCells(mask, depth, grid, Number.NaN)).toThrow("forwardSpeed_m_s=NaN, expected a finite number");
    expect(() => nearThreatCells(mask, depth, grid, Number.POSITIVE_INFINITY)).toThrow("forwardSpeed_m_s=Infinity");
    expect(() => nearThreatCells(mask, depth, grid, 2, DEFAULT_NEAR_THREAT, new Uint8Array(5))).toThrow("out.length=5, expected 4");
    expect(() => nearThreatCells(mask, depth, { width: 16, height: 12, cell_px: 8 }, 2)).toThrow(/16x12 is not a positive multiple of cell_px=8/);
  });

  // Regression: a NaN threshold used to make every comparison false and silently label nothing
  // near. STYLE.md: numerical ops validate and name their arguments.
  it("rejects a NaN range_m or timeToContact_s with a RangeError naming it", () => {
    const { mask, depth } = scene([[0, 0, 1, 5]]);
    expect(() => nearThreatCells(mask, depth, grid, 2, { range_m: Number.NaN, timeToContact_s: 3 })).toThrow(/range_m=NaN/);
    expect(() => nearThreatCells(mask, depth, grid, 2, { range_m: 12, timeToContact_s: Number.NaN })).toThrow(/timeToContact_s=NaN/);
  });
});
