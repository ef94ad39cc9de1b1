import { NUM_SENSITIVITY_DIMS } from "../../../src/harness/spatial/SpatialHarness";
import { targetShare } from "../../../src/harness/spatial/targetShare";
import { formatTargetShare } from "../../../src/cli/commands/fitHarness";

// An 8x8 grid: four 4x4 regions (region 0 = rows 0-3, cols 0-3; region 1 = rows 0-3, cols 4-7).
const rows = 8;
const cols = 8;
const sample = (targets: number[], sens: [number, number[]][], rates = [2, 0.5, 0]) => {
  const targetCells = new Uint8Array(rows * cols);
  for (const c of targets) targetCells[c] = 1;
  const sgt = new Float32Array(rows * cols * NUM_SENSITIVITY_DIMS);
  for (const [c, s] of sens) sgt.set(s, c * NUM_SENSITIVITY_DIMS);
  return { targetCells, rates: Float32Array.from(rates), sgt };
};

describe("targetShare", () => {
  it("is the target cells' share of the region's squared push, S . |rates| per cell", () => {
    // Region 0: target cell 0 pushes 1 * 2 = 2 (yaw), cell 1 pushes 2 (not a target), cell 8 pushes 4 * 0.5 = 2 (pitch).
    // Squared: 4 on the target, 12 in all: share 1/3; 1 target cell of 16.
    const s = sample([0], [[0, [1, 0, 0]], [1, [1, 0, 0]], [8, [0, 4, 0]]]);
    const t = targetShare([s], rows, cols);
    expect(t.regions).toBe(1);
    expect(t.silentRegions).toBe(0);
    expect(t.meanShare).toBeCloseTo(1 / 3, 6);
    expect(t.meanUniform).toBeCloseTo(1 / 16, 6);
    // The forward dimension's rate is 0 here: S on it pushes nothing.
    expect(targetShare([sample([0], [[0, [0, 0, 9]], [1, [1, 0, 0]]])], rows, cols).meanShare).toBe(0);
  });

  it("counts a risky region with no push as silent (share 0) and skips samples without targets", () => {
    const s = sample([0, 4, 5], [[0, [1, 0, 0]]]); // region 0 all on its target; region 1 silent
    const t = targetShare([s, { rates: s.rates, sgt: s.sgt }], rows, cols);
    expect(t.regions).toBe(2);
    expect(t.silentRegions).toBe(1);
    expect(t.meanShare).toBeCloseTo(0.5, 6);
    expect(t.meanUniform).toBeCloseTo((1 / 16 + 2 / 16) / 2, 6);
    expect(Number.isNaN(targetShare([], rows, cols).meanShare)).toBe(true);
  });

  it("takes another S when given (the harness's prediction) and names a wrong size", () => {
    const s = sample([0], [[0, [1, 0, 0]], [1, [1, 0, 0]]]);
    const onlyTarget = new Float32Array(rows * cols * NUM_SENSITIVITY_DIMS);
    onlyTarget[0] = 5;
    expect(targetShare([s], rows, cols, () => onlyTarget).meanShare).toBe(1);
    expect(() => targetShare([s], rows, cols, () => new Float32Array(3))).toThrow("targetShare: sample 0 has 64 target cells and 3 sensitivities for a 8x8 grid");
    expect(formatTargetShare({ regions: 4, silentRegions: 1, meanShare: 0.25, meanUniform: 0.125 }, "S_gt")).toBe(
      "push on the target's cells with a perfect risk and S_gt: 25.0 % of ||delta_region||^2 (an even spread: 12.5 %) over 4 risky val regions, 1 with no push",
    );
  });
});
