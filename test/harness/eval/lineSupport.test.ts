import { formatLineSupportSpec, lineSupport, lineSupportHalfLength, lineSupportScore, parseLineSupportSpec } from "../../../src/harness/eval/lineSupport";

const ROWS = 24;
const COLS = 32;

/** A grid of `bg` with a straight line of value v from (r0, c0) in steps (dr, dc), n cells. */
function withLine(bg: number, v: number, r0: number, c0: number, dr: number, dc: number, n: number, p = new Float32Array(ROWS * COLS).fill(bg)): Float32Array {
  for (let t = 0; t < n; t++) p[(r0 + t * dr) * COLS + (c0 + t * dc)] = v;
  return p;
}

describe("lineSupport", () => {
  it("keeps a long faint line above a short bright blob (geo)", () => {
    // A wire across the whole grid at p = 0.5 and a 2x2 blob of clutter at p = 0.9.
    const p = withLine(0.02, 0.5, 12, 0, 0, 1, COLS);
    for (const [r, c] of [[4, 6], [4, 7], [5, 6], [5, 7]] as const) p[r * COLS + c] = 0.9;
    const s = lineSupportScore(p, ROWS, COLS, parseLineSupportSpec("0.2:geo"));
    const wire = s[12 * COLS + 16]!;
    const blob = s[4 * COLS + 6]!;
    expect(p[4 * COLS + 6]!).toBeGreaterThan(p[12 * COLS + 16]!);
    expect(wire).toBeGreaterThan(blob);
    expect(wire).toBeCloseTo(0.5, 5);
  });

  it.each([
    ["horizontal", 0, 1],
    ["vertical", 1, 0],
    ["diagonal", 1, 1],
  ] as const)("gives a %s line its own value as support", (_name, dr, dc) => {
    const p = withLine(0, 0.6, 0, 0, dr, dc, dr === 1 ? ROWS : COLS);
    const ls = lineSupport(p, ROWS, COLS, 5);
    const r = 10 * dr;
    const c = dr === 1 && dc === 0 ? 0 : 10;
    expect(ls[r * COLS + c]!).toBeCloseTo(0.6, 5);
    // A cell well off the line gets little: at most the share of samples a crossing segment
    // can take from the line (one bilinear sample in 11).
    expect(ls[(dr === 1 && dc === 0 ? 5 : 20) * COLS + (dr === 1 && dc === 0 ? 20 : 3)]!).toBeLessThan(0.1);
  });

  it("leaves samples outside the grid out of the mean (a wire leaving the image is not penalised)", () => {
    const p = withLine(0, 0.7, 3, 0, 0, 1, COLS);
    const ls = lineSupport(p, ROWS, COLS, 8);
    expect(ls[3 * COLS]!).toBeCloseTo(0.7, 5);
    expect(ls[3 * COLS + COLS - 1]!).toBeCloseTo(0.7, 5);
  });

  it("is the map itself on a constant grid, and ls scores stay in [0, 1]", () => {
    const p = new Float32Array(ROWS * COLS).fill(0.3);
    expect(Array.from(lineSupport(p, ROWS, COLS, 4)).every((v) => Math.abs(v - 0.3) < 1e-6)).toBe(true);
    const rand = Float32Array.from({ length: ROWS * COLS }, (_, i) => ((i * 7919) % 101) / 100);
    const s = lineSupportScore(rand, ROWS, COLS, parseLineSupportSpec("0.35:ls"));
    expect(Array.from(s).every((v) => v >= 0 && v <= 1)).toBe(true);
  });

  it("scales the half-length with the grid's longer side", () => {
    const spec = parseLineSupportSpec("0.2:geo");
    expect(lineSupportHalfLength(spec, 32, 32)).toBe(6);
    expect(lineSupportHalfLength(spec, 45, 68)).toBe(14);
    expect(lineSupportHalfLength(parseLineSupportSpec("0.01:ls"), 4, 4)).toBe(1);
  });

  it("parses and names specs, and names the problem in a bad one", () => {
    expect(parseLineSupportSpec("0.2:geo")).toEqual({ fraction: 0.2, combine: "geo", orientations: 12 });
    expect(formatLineSupportSpec(parseLineSupportSpec(" .35:ls "))).toBe("0.35:ls");
    expect(() => parseLineSupportSpec("0.2")).toThrow(/expected F:geo or F:ls/);
    expect(() => parseLineSupportSpec("0.2:max")).toThrow(/expected F:geo or F:ls/);
    expect(() => parseLineSupportSpec("1.5:geo")).toThrow(/outside \(0, 1\]/);
    expect(() => lineSupport(new Float32Array(5), 2, 3, 2)).toThrow(/p.length=5, expected rows\*cols=6/);
    expect(() => lineSupport(new Float32Array(6), 2, 3, 0)).toThrow(/halfLength=0/);
  });
});
