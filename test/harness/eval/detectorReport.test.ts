/**
 * DetectorReportBuilder (issue 12): thin-obstacle AP against the visible-only labels on all
 * frames (`visible`) and on approach frames (`approach`), against every labelled pixel
 * (`allPixels`), and the near-threat AP (`threat`). A hand-made dataset of two 16x16 frames
 * with 8 px cells (4 cells each, row-major: 0 top left, 1 top right, 2 bottom left, 3 bottom
 * right); expected APs are worked out by hand from the all-points interpolated definition
 * (src/harness/eval/AveragePrecision.ts): with P(r) the precision at recall r,
 * AP = sum over score thresholds of (recall step) * (max precision at that recall or beyond).
 */
import type { FrameDataset, FrameSample } from "../../../src/harness/data/FrameDataset";
import { DetectorReportBuilder } from "../../../src/harness/eval/detectorReport";
import type { GridSpec } from "../../../src/harness/eval/CellLabels";

const grid: GridSpec = { width: 16, height: 16, cell_px: 8 };
const N = 16 * 16;
const [BG, WIRE, BRANCH, POLE] = [0, 1, 2, 3] as const;

type Px = [x: number, y: number, cls: number];

function makeFrame(labelled: Px[], invisible: Px[], near: number[] | undefined, threat: boolean): FrameSample {
  const mask = new Uint8Array(N);
  const visibleMask = new Uint8Array(N);
  for (const [x, y, c] of labelled) {
    mask[y * 16 + x] = c;
    visibleMask[y * 16 + x] = c;
  }
  // In the mask (a centre line crosses the pixel) but not visible (contrast under the noise).
  for (const [x, y, c] of invisible) mask[y * 16 + x] = c;
  const f: FrameSample = { seed: 2, rgb: new Uint8Array(3 * N), mask, visibleMask, state: new Float32Array(4), expertAction: 0, threat };
  if (near !== undefined) f.near = Uint8Array.from(near);
  return f;
}

/**
 * Frame 0 (approach, threat = true): a visible wire in cell 0, a visible branch in cell 3; near
 * cell 0. Frame 1: an invisible wire in cell 1, a visible wire in cell 2, a visible pole in
 * cell 3; near cell 2.
 * Visible wire cells: f0c0, f1c2 (2 of 8). All-pixel wire cells: those and f1c1 (3 of 8).
 */
function dataset(): FrameDataset {
  return {
    grid,
    frames: [
      makeFrame([[2, 2, WIRE], [12, 12, BRANCH]], [], [1, 0, 0, 0], true),
      makeFrame([[3, 12, WIRE], [12, 12, POLE]], [[12, 3, WIRE]], [0, 0, 1, 0], false),
    ],
  };
}

/** The visible class of each cell (wire > branch > pole > background), per frame. */
const VISIBLE_CLASS = [
  [WIRE, BG, BG, BRANCH],
  [BG, BG, WIRE, POLE],
];

/** Softmax-like probabilities: 0.97 on the visible class of each cell (perfect), 0.01 elsewhere. */
function perfect(frame: number): Float32Array {
  const p = new Float32Array(16).fill(0.01);
  VISIBLE_CLASS[frame]!.forEach((c, cell) => (p[cell * 4 + c] = 0.97));
  return p;
}

/** Inverted: 0.01 on the visible class, 0.33 on each other class. */
function inverted(frame: number): Float32Array {
  const p = new Float32Array(16).fill(0.33);
  VISIBLE_CLASS[frame]!.forEach((c, cell) => (p[cell * 4 + c] = 0.01));
  return p;
}

const NEAR = [
  [1, 0, 0, 0],
  [0, 0, 1, 0],
];
const threatPerfect = (frame: number): Float32Array => Float32Array.from(NEAR[frame]!, (l) => (l === 1 ? 0.9 : 0.1));
const threatInverted = (frame: number): Float32Array => Float32Array.from(NEAR[frame]!, (l) => (l === 1 ? 0.1 : 0.9));

describe("DetectorReportBuilder", () => {
  it("gives AP 1 for perfect probabilities on the visible, approach and threat measures", () => {
    const b = new DetectorReportBuilder(dataset());
    b.add(0, perfect(0), threatPerfect(0));
    b.add(1, perfect(1), threatPerfect(1));
    const r = b.report();
    expect(r.frames).toBe(2);
    expect(r.approachFrames).toBe(1);
    expect(r.visible.cells).toBe(8);
    expect(r.approach.cells).toBe(4);
    expect(r.visible.positives).toEqual({ wire: 2, branch: 1, pole_trunk: 1, wire_branch: 3 });
    for (const ap of [r.visible.wire, r.visible.branch, r.visible.pole_trunk, r.visible.wire_branch]) expect(ap).toBeCloseTo(1, 12);
    // Approach: frame 0 only (a wire and a branch, no pole: NaN, no positives).
    expect(r.approach.positives).toEqual({ wire: 1, branch: 1, pole_trunk: 0, wire_branch: 2 });
    expect(r.approach.wire).toBeCloseTo(1, 12);
    expect(r.approach.wire_branch).toBeCloseTo(1, 12);
    expect(r.approach.pole_trunk).toBeNaN();
    expect(r.threat).toBeCloseTo(1, 12);
  });

  it("counts a wire that is in the mask but not visible in allPixels only", () => {
    const b = new DetectorReportBuilder(dataset());
    b.add(0, perfect(0), threatPerfect(0));
    b.add(1, perfect(1), threatPerfect(1));
    const r = b.report();
    expect(r.visible.positives.wire).toBe(2);
    expect(r.allPixels.positives.wire).toBe(3);
    // The detector that is perfect on visible labels misses the invisible wire cell (score 0.01):
    // threshold 0.97: 2 TP, 0 FP -> P 1, R 2/3; threshold 0.01: 3 TP, 5 FP -> P 3/8, R 1.
    // AP = 2/3 * 1 + 1/3 * 3/8 = 19/24.
    expect(r.allPixels.wire).toBeCloseTo(19 / 24, 6);
    expect(r.visible.wire).toBeCloseTo(1, 12);
    // Branch and pole labels are the same in both.
    expect(r.allPixels.branch).toBeCloseTo(1, 12);
    expect(r.allPixels.pole_trunk).toBeCloseTo(1, 12);
  });

  it("falls back to the mask for frames recorded without a visibleMask", () => {
    const data = dataset();
    delete data.frames[1]!.visibleMask;
    const b = new DetectorReportBuilder(data);
    b.add(0, perfect(0), undefined);
    b.add(1, perfect(1), undefined);
    const r = b.report();
    expect(r.visible.positives.wire).toBe(3);
    expect(r.visible.wire).toBeCloseTo(r.allPixels.wire, 12);
  });

  it("gives AP well below 1 for inverted probabilities (the positive rate: every positive ranked last)", () => {
    const b = new DetectorReportBuilder(dataset());
    b.add(0, inverted(0), threatInverted(0));
    b.add(1, inverted(1), threatInverted(1));
    const r = b.report();
    // All positives score 0.01, all negatives 0.33 (or 0.9): the only recall step is at the last
    // threshold, where precision = positives / cells.
    expect(r.visible.wire).toBeCloseTo(2 / 8, 6);
    expect(r.approach.wire).toBeCloseTo(1 / 4, 6);
    expect(r.allPixels.wire).toBeCloseTo(3 / 8, 6);
    expect(r.threat).toBeCloseTo(2 / 8, 6);
  });

  it("reports threat NaN without threat probabilities or without any near cell", () => {
    const b = new DetectorReportBuilder(dataset());
    b.add(0, perfect(0), undefined);
    expect(b.report().threat).toBeNaN();
    const quiet = dataset();
    for (const f of quiet.frames) f.near = new Uint8Array(4);
    const q = new DetectorReportBuilder(quiet);
    q.add(0, perfect(0), threatPerfect(0));
    expect(q.report().threat).toBeNaN();
    // The class measures are unaffected.
    expect(q.report().visible.wire).toBeCloseTo(1, 12);
  });
});

describe("DetectorReportBuilder: rejected input", () => {
  it("rejects a threatProbs length mismatch, a bad frame index and class probabilities of the wrong length", () => {
    const b = new DetectorReportBuilder(dataset());
    expect(() => b.add(0, perfect(0), new Float32Array(3))).toThrow(RangeError);
    expect(() => b.add(0, perfect(0), new Float32Array(3))).toThrow("threatProbs.length=3, expected 4 (one per cell)");
    expect(() => b.add(0, perfect(0), new Float32Array(5))).toThrow("threatProbs.length=5, expected 4 (one per cell)");
    expect(() => b.add(2, perfect(0), undefined)).toThrow("frame index=2, expected [0, 1]");
    expect(() => b.add(0, new Float32Array(12), undefined)).toThrow("classProbs.length=12, expected 16 (4 per cell)");
  });

  // Regressions: add used to count the frame before rejecting its input.
  it("leaves the report unchanged when add rejects its input", () => {
    const b = new DetectorReportBuilder(dataset());
    expect(() => b.add(0, perfect(0), new Float32Array(3))).toThrow(RangeError);
    const r = b.report();
    expect(r.frames).toBe(0);
    expect(r.visible.cells).toBe(0);
  });

  it("rejects a threatProbs length mismatch also on frames without near labels", () => {
    const data = dataset();
    delete data.frames[0]!.near;
    const b = new DetectorReportBuilder(data);
    expect(() => b.add(0, perfect(0), new Float32Array(3))).toThrow(/threatProbs.length=3/);
  });
});
