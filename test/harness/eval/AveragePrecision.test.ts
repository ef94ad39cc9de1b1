import { averagePrecision, precisionRecallCurve } from "../../../src/harness/eval/AveragePrecision";
import { cellLabelsFromMask } from "../../../src/harness/eval/CellLabels";
import { ThinObstacleAp } from "../../../src/harness/eval/ThinObstacleAp";

// Expected values are computed by hand in the comments: PR points at each distinct score
// (highest first), interpolated precision = max precision at equal or higher recall, AP = sum of
// recall steps times interpolated precision (VOC 2010+ all-points).
describe("averagePrecision", () => {
  it("matches a hand-computed PR curve", () => {
    // t=.9: P=1 R=.5; t=.8: P=.5 R=.5; t=.7: P=2/3 R=1; t=.6: P=.5 R=1.
    // interpolated: 1, 2/3, 2/3, .5 -> AP = .5*1 + .5*(2/3) = 5/6.
    const input = { scores: [0.9, 0.8, 0.7, 0.6], labels: [1, 0, 1, 0] };
    const curve = precisionRecallCurve(input);
    const expected = [1, 0.5, 2 / 3, 0.5];
    curve.precision.forEach((p, i) => expect(p).toBeCloseTo(expected[i] ?? Number.NaN, 12));
    expect(Array.from(curve.recall)).toEqual([0.5, 0.5, 1, 1]);
    expect(averagePrecision(input)).toBeCloseTo(5 / 6, 12);
  });

  it("groups tied scores into one threshold, independent of input order", () => {
    // t=.9: P=1 R=.5; t=.5 (one pos, one neg tied): P=2/3 R=1; t=.1: P=.5 R=1 -> AP = .5 + .5*2/3.
    // The VOC devkit's per-detection sort would give 1.0 if the tied positive came first.
    const a = averagePrecision({ scores: [0.9, 0.5, 0.5, 0.1], labels: [1, 1, 0, 0] });
    const b = averagePrecision({ scores: [0.9, 0.5, 0.5, 0.1], labels: [1, 0, 1, 0] });
    const c = averagePrecision({ scores: [0.5, 0.1, 0.9, 0.5], labels: [0, 0, 1, 1] });
    expect(a).toBeCloseTo(5 / 6, 12);
    expect(b).toBeCloseTo(a, 12);
    expect(c).toBeCloseTo(a, 12);
  });

  it("all scores tied gives the prevalence; perfect ranking gives 1; worst gives P at R=1", () => {
    expect(averagePrecision({ scores: [0.5, 0.5, 0.5, 0.5], labels: [1, 0, 0, 0] })).toBeCloseTo(0.25, 12);
    expect(averagePrecision({ scores: [0.9, 0.8, 0.2], labels: [1, 1, 0] })).toBe(1);
    // only point with recall > 0 is the last: P = 1/3 at R = 1.
    expect(averagePrecision({ scores: [0.9, 0.8, 0.1], labels: [0, 0, 1] })).toBeCloseTo(1 / 3, 12);
  });

  it("is NaN without positives (recall undefined) and rejects bad inputs naming the value", () => {
    expect(averagePrecision({ scores: [0.3, 0.2], labels: [0, 0] })).toBeNaN();
    expect(averagePrecision({ scores: [], labels: [] })).toBeNaN();
    expect(() => averagePrecision({ scores: [0.1], labels: [0, 1] })).toThrow(/scores.length=1 differs from labels.length=2/);
    expect(() => averagePrecision({ scores: [Number.NaN], labels: [1] })).toThrow(/scores\[0\]=NaN/);
    expect(() => averagePrecision({ scores: [0.2], labels: [2] })).toThrow(/labels\[0\]=2, expected 0 or 1/);
  });
});

describe("cellLabelsFromMask", () => {
  it("marks a cell positive when any pixel of the class lies in it", () => {
    // 16x16 image, 8 px cells -> 2x2 grid. One wire pixel in cell (row 0, col 1), a branch pixel
    // and a wire pixel in cell (1, 0), nothing in cells (0, 0) and (1, 1).
    const mask = new Uint8Array(256);
    mask[3 * 16 + 15] = 1;
    mask[12 * 16 + 0] = 2;
    mask[15 * 16 + 7] = 1;
    const labels = cellLabelsFromMask(mask, { width: 16, height: 16, cell_px: 8 });
    expect(Array.from(labels)).toEqual([
      1, 0, 0, 0, // cell 0: background
      0, 1, 0, 0, // cell 1: wire
      0, 1, 1, 0, // cell 2: wire + branch
      1, 0, 0, 0, // cell 3: background
    ]);
  });

  it("rejects bad sizes and class ids with the value and the range", () => {
    expect(() => cellLabelsFromMask(new Uint8Array(10), { width: 16, height: 16, cell_px: 8 })).toThrow(/mask.length=10, expected width\*height=256/);
    expect(() => cellLabelsFromMask(new Uint8Array(100), { width: 10, height: 10, cell_px: 8 })).toThrow(/not a positive multiple of cell_px=8/);
    const bad = new Uint8Array(64);
    bad[5] = 7;
    expect(() => cellLabelsFromMask(bad, { width: 8, height: 8, cell_px: 8 })).toThrow(/mask\[5\]=7, expected a class id in \[0, 3\]/);
  });
});

describe("ThinObstacleAp", () => {
  it("reports per-class AP and the merged wire+branch class over all frames", () => {
    const ap = new ThinObstacleAp();
    // frame 1: 2 cells. cell A wire (p_wire .8), cell B background (p_wire .1, p_branch .6).
    ap.add([0.1, 0.8, 0.05, 0.05, 0.2, 0.1, 0.6, 0.1], [0, 1, 0, 0, 1, 0, 0, 0]);
    // frame 2: cell C branch (p_branch .3, p_wire .3), cell D background (all low).
    ap.add([0.4, 0.3, 0.3, 0.0, 0.9, 0.05, 0.05, 0.0], [0, 0, 1, 0, 1, 0, 0, 0]);
    const r = ap.report();
    // wire: scores .8(+), .3, .1, .05 -> the positive is ranked first: AP 1.
    expect(r.wire).toBe(1);
    // branch: scores .6(-), .3(+), .05, .05 -> P=1/2 at R=1: AP .5.
    expect(r.branch).toBeCloseTo(0.5, 6);
    // pole: no positives -> NaN, and the report says so.
    expect(r.pole_trunk).toBeNaN();
    expect(r.positives.pole_trunk).toBe(0);
    // wire+branch: scores .85(+), .7(-), .6(+), .1(-) -> P: 1, 1/2, 2/3 at R .5, .5, 1
    // -> AP = .5*1 + .5*2/3 = 5/6.
    expect(r.wire_branch).toBeCloseTo(5 / 6, 6);
    expect(r.cells).toBe(4);
  });

  it("columns of one accumulator appended to another rank as if every frame had been added there", () => {
    const frames: [number[], number[]][] = [
      [[0.1, 0.8, 0.05, 0.05, 0.2, 0.1, 0.6, 0.1], [0, 1, 0, 0, 1, 0, 0, 0]],
      [[0.4, 0.3, 0.3, 0.0, 0.9, 0.05, 0.05, 0.0], [0, 0, 1, 0, 1, 0, 0, 0]],
      [[0.2, 0.2, 0.2, 0.4, 0.7, 0.25, 0.05, 0.0], [0, 1, 0, 1, 0, 1, 0, 0]],
    ];
    const whole = new ThinObstacleAp();
    for (const [p, l] of frames) whole.add(p, l);
    const first = new ThinObstacleAp();
    const second = new ThinObstacleAp();
    first.add(...frames[0]!);
    second.add(...frames[1]!);
    second.add(...frames[2]!);
    const joined = new ThinObstacleAp();
    joined.appendColumns(first.columns());
    joined.appendColumns(second.columns());
    expect(joined.report()).toEqual(whole.report());
    expect(joined.columns()).toEqual(whole.columns());
    expect(joined.report().cells).toBe(6);
    // Copies: adding to the source later does not reach what was appended.
    const c = first.columns();
    first.add(...frames[1]!);
    expect(c.wire.scores.length).toBe(2);
    const bad = first.columns();
    expect(() => joined.appendColumns({ ...bad, branch: { scores: new Float32Array(1), labels: new Uint8Array(1) } })).toThrow(/differ in length/);
    expect(() => joined.appendColumns({ ...bad, wire: { scores: new Float32Array(4), labels: new Uint8Array(3) } })).toThrow(/4 scores and 3 labels/);
  });
});

