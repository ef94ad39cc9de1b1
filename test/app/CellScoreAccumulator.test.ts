import { CellScoreAccumulator, summarizeCurve } from "../../src/app/CellScoreAccumulator";
import { precisionRecallCurve } from "../../src/harness/eval/AveragePrecision";

/** Cells with 4 classes (background, wire, branch, pole/trunk), class fastest. */
function cells(rows: Array<{ p: [number, number, number, number]; l: [number, number, number, number] }>): { probs: Float32Array; labels: Uint8Array } {
  return { probs: Float32Array.from(rows.flatMap((r) => r.p)), labels: Uint8Array.from(rows.flatMap((r) => r.l)) };
}

describe("CellScoreAccumulator", () => {
  it("gives AP 1 when every positive cell outranks every negative one, over several frames", () => {
    const acc = new CellScoreAccumulator();
    const a = cells([
      { p: [0.1, 0.8, 0.05, 0.05], l: [0, 1, 0, 0] },
      { p: [0.9, 0.05, 0.03, 0.02], l: [1, 0, 0, 0] },
    ]);
    const b = cells([
      { p: [0.2, 0.7, 0.05, 0.05], l: [0, 1, 0, 0] },
      { p: [0.5, 0.1, 0.3, 0.1], l: [0, 0, 1, 0] },
    ]);
    acc.add(a.probs, a.labels, 4);
    acc.add(b.probs, b.labels, 4);
    const s = acc.summary();
    expect(acc.cells).toBe(4);
    expect(s.wire.ap).toBeCloseTo(1, 12);
    expect(s.wire.positives).toBe(2);
    // wire+branch: scores 0.85, 0.08, 0.75, 0.4 with labels 1, 0, 1, 1: ranked 0.85(+) 0.75(+) 0.4(+) 0.08(-) -> AP 1.
    expect(s.wireBranch.positives).toBe(3);
    expect(s.wireBranch.ap).toBeCloseTo(1, 12);
  });

  it("matches the hand-computed all-points AP for an interleaved ranking", () => {
    // wire scores 0.9(+) 0.8(-) 0.7(+) 0.6(-): precision at the positives 1 and 2/3, recall steps 0.5 each
    // -> AP = 0.5 * 1 + 0.5 * 2/3 = 0.8333 (VOC all-points interpolation).
    const acc = new CellScoreAccumulator();
    const f = cells([
      { p: [0.1, 0.9, 0, 0], l: [0, 1, 0, 0] },
      { p: [0.2, 0.8, 0, 0], l: [1, 0, 0, 0] },
      { p: [0.3, 0.7, 0, 0], l: [0, 1, 0, 0] },
      { p: [0.4, 0.6, 0, 0], l: [1, 0, 0, 0] },
    ]);
    acc.add(f.probs, f.labels, 4);
    expect(acc.summary().wire.ap).toBeCloseTo(0.5 + 0.5 * (2 / 3), 12);
  });

  it("reports NaN AP without positives and rejects mismatched lengths with the sizes in the message", () => {
    const acc = new CellScoreAccumulator();
    const f = cells([{ p: [0.9, 0.1, 0, 0], l: [1, 0, 0, 0] }]);
    acc.add(f.probs, f.labels, 4);
    expect(acc.summary().wire.ap).toBeNaN();
    expect(() => acc.add(new Float32Array(8), new Uint8Array(4), 4)).toThrow("probs.length=8, labels.length=4");
  });
});

describe("summarizeCurve", () => {
  it("thins a long curve to at most maxPoints + 1 points, monotone non-increasing precision, same AP", () => {
    const n = 5000;
    const scores = Float64Array.from({ length: n }, (_, i) => 1 - i / n);
    // Positives get rarer down the ranking (deterministic pattern).
    const labels = Uint8Array.from({ length: n }, (_, i) => (i % Math.max(1, Math.floor(i / 100) + 1) === 0 ? 1 : 0));
    const curve = precisionRecallCurve({ scores, labels });
    const s = summarizeCurve(curve, n, 50);
    expect(s.recall.length).toBeLessThanOrEqual(51);
    expect(s.recall.length).toBeGreaterThan(10);
    for (let i = 1; i < s.precision.length; i++) expect(s.precision[i]!).toBeLessThanOrEqual(s.precision[i - 1]! + 1e-12);
    expect(s.recall.at(-1)).toBeCloseTo(1, 12);
    expect(s.cells).toBe(n);
    expect(() => summarizeCurve(curve, n, 1)).toThrow("maxPoints=1, expected an integer >= 2");
  });
});

describe("binned scores", () => {
  it("agree with the exact AP (AveragePrecision.ts) within 1e-4 on 200k random cells", () => {
    // Deterministic pseudo-random cells (LCG); positives score higher on average.
    let s = 12345;
    const rnd = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const n = 200_000;
    const probs = new Float32Array(n * 4);
    const labels = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      const wire = rnd() < 0.05 ? 1 : 0;
      const branch = rnd() < 0.03 ? 1 : 0;
      const pw = Math.min(0.999, rnd() * (wire === 1 ? 1 : 0.6));
      const pb = (1 - pw) * rnd() * (branch === 1 ? 1 : 0.5);
      probs.set([1 - pw - pb, pw, pb, 0], i * 4);
      labels.set([wire | branch ? 0 : 1, wire, branch, 0], i * 4);
    }
    const acc = new CellScoreAccumulator();
    acc.add(probs, labels, 4);
    const exactWire = precisionRecallCurve({ scores: Float64Array.from({ length: n }, (_, i) => probs[i * 4 + 1]!), labels: Uint8Array.from({ length: n }, (_, i) => labels[i * 4 + 1]!) });
    const exactThin = precisionRecallCurve({
      scores: Float64Array.from({ length: n }, (_, i) => probs[i * 4 + 1]! + probs[i * 4 + 2]!),
      labels: Uint8Array.from({ length: n }, (_, i) => labels[i * 4 + 1]! | labels[i * 4 + 2]!),
    });
    const sum = acc.summary();
    expect(Math.abs(sum.wire.ap - summarizeCurve(exactWire, n).ap)).toBeLessThan(1e-4);
    expect(Math.abs(sum.wireBranch.ap - summarizeCurve(exactThin, n).ap)).toBeLessThan(1e-4);
    expect(sum.wire.ap).toBeGreaterThan(0.1);
  });
});
