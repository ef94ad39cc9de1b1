import { CorrectionApplier } from "../../../nodes/common/models/applyCorrection";

describe("CorrectionApplier", () => {
  it("adds delta to the action logits and leaves them unchanged with no delta", () => {
    const a = new CorrectionApplier();
    expect(Array.from(a.actionLogits([1, 2, 3], [0.5, -0.5, 0]))).toEqual([1.5, 1.5, 3]);
    expect(Array.from(a.actionLogits([1, 2, 3], undefined))).toEqual([1, 2, 3]);
  });

  it("reproduces the probabilities with zero delta and matches softmax(log p + delta) by hand", () => {
    const a = new CorrectionApplier();
    const p = [0.7, 0.2, 0.1, 0.0];
    const same = a.cellProbs(p, undefined, 4);
    for (let k = 0; k < 3; k++) expect(same[k]).toBeCloseTo(p[k]!, 6);
    // Hand computation: delta (0, ln 2, 0, 0) doubles class 1's weight: (0.7, 0.4, 0.1, ~0) / 1.2.
    const d = a.cellProbs(p, [0, Math.log(2), 0, 0], 4);
    expect(d[0]).toBeCloseTo(0.7 / 1.2, 6);
    expect(d[1]).toBeCloseTo(0.4 / 1.2, 6);
    expect(d[2]).toBeCloseTo(0.1 / 1.2, 6);
    expect(d[3]).toBeLessThan(1e-10);
  });

  it("stays finite for huge deltas (max subtraction) and rejects shape mismatches", () => {
    const a = new CorrectionApplier();
    const d = a.cellProbs([0.5, 0.5], [1000, -1000], 2);
    expect(d[0]).toBeCloseTo(1, 9);
    expect(d[1]).toBeCloseTo(0, 9);
    expect(() => a.cellProbs([0.5, 0.5, 0.5], undefined, 2)).toThrow("numClasses=2 with probs.length=3");
    expect(() => a.actionLogits([1, 2], [1])).toThrow("actionDelta.length=1, expected action count 2");
  });
});
