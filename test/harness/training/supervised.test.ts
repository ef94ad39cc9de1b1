import * as tf from "@tensorflow/tfjs";
import { actionCrossEntropy, distillationLoss, weightedCellCrossEntropy } from "../../../src/harness/training/supervisedLosses";
import { cellTargets, cropTargets, randomCrop, type FrameDataset } from "../../../src/harness/data/FrameDataset";
import { Rng } from "../../../src/util/Rng";

beforeAll(async () => {
  await tf.setBackend("cpu");
});

describe("supervised losses (hand-computed, natural logs)", () => {
  it("weighted cell cross-entropy is the weight-normalised mean NLL", () => {
    // cell 0: logits [0,0] target 0 -> ln 2 = .693147 (w 1); cell 1: [ln 3, 0] target 1 ->
    // -ln .25 = 1.386294 (w 3). (0.693147 + 3 * 1.386294) / 4 = 4.852030 / 4 = 1.213008.
    const l = weightedCellCrossEntropy(tf.tensor2d([[0, 0], [Math.log(3), 0]]), tf.tensor1d([0, 1], "int32"), tf.tensor1d([1, 3]));
    expect(l.dataSync()[0]).toBeCloseTo(1.213008, 5);
  });

  it("distillation is 0 for equal logits and T^2 KL otherwise", () => {
    const a = tf.tensor2d([[1, 2, 3]]);
    expect(distillationLoss(a, a).dataSync()[0]).toBeCloseTo(0, 6);
    // T = 2: teacher [2 ln 3, 0] / 2 -> p = [.75, .25]; student [0, 0] -> [.5, .5].
    // KL = .75 ln 1.5 + .25 ln .5 = .130812; times T^2 = 4 -> .523248.
    expect(distillationLoss(tf.tensor2d([[0, 0]]), tf.tensor2d([[2 * Math.log(3), 0]])).dataSync()[0]).toBeCloseTo(0.523248, 5);
  });

  it("action cross-entropy", () => {
    expect(actionCrossEntropy(tf.tensor2d([[0, 0], [0, Math.log(3)]]), tf.tensor1d([0, 1], "int32")).dataSync()[0]).toBeCloseTo(
      (Math.log(2) - Math.log(0.75)) / 2,
      6,
    );
  });
});

describe("FrameDataset helpers", () => {
  // 32x32 frame, 8 px cells -> 4x4 grid. A wire across row 9 (cell row 1), a trunk in column 30
  // (cell column 3) that also crosses the wire's cell row.
  const mask = new Uint8Array(32 * 32);
  for (let x = 0; x < 32; x++) mask[9 * 32 + x] = 1;
  for (let y = 0; y < 32; y++) mask[y * 32 + 30] = 3;
  const grid = { width: 32, height: 32, cell_px: 8 };
  const ds: FrameDataset = { grid, frames: [{ seed: 1, rgb: new Uint8Array(32 * 32 * 3), mask, state: new Float32Array(16), expertAction: 0 }] };

  it("cell targets put thin structures first (wire over pole/trunk)", () => {
    expect(Array.from(cellTargets(mask, grid))).toEqual([0, 0, 0, 3, 1, 1, 1, 1, 0, 0, 0, 3, 0, 0, 0, 3]);
  });

  it("crops are cell-aligned and their targets are the matching cells", () => {
    const full = cellTargets(mask, grid);
    const out = new Int32Array(16);
    cropTargets(ds, { frame: 0, x0: 0, y0: 0, size: 32 }, full, out, 0);
    expect(Array.from(out)).toEqual(Array.from(full));
    const rng = new Rng(5);
    for (let i = 0; i < 50; i++) {
      const c = randomCrop(ds, 0, 32, rng);
      expect(c.x0 % 8).toBe(0);
      expect(c.y0 % 8).toBe(0);
    }
    expect(() => randomCrop(ds, 0, 48, rng)).toThrow(/crop size=48, expected a multiple of 32/);
  });
});
