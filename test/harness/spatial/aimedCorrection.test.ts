/**
 * The aimed correction (seventeenth session; docs/results/aimed-correction-decision-rule.txt): each
 * region's clipped delta moved onto the cells whose uncorrected near-threat probability lies in the
 * aim window, the region's L2 norm kept; off by default.
 */
import { parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { makeNavigation } from "../../../src/control/navigation";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { aimSpatialDelta, spatialDelta } from "../../../src/harness/spatial/spatialCorrection";
import { initBackend } from "../../../src/harness/backend/initBackend";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const rows = 8;
const cols = 8;
const cells = rows * cols;
const logitOf = (p: number): number => Math.log(p / (1 - p));
const regionNorm = (delta: Float32Array, gr: number, gq: number): number => {
  let ss = 0;
  for (let r = 0; r < 4; r++) for (let q = 0; q < 4; q++) ss += delta[(gr * 4 + r) * cols + gq * 4 + q]! ** 2;
  return Math.sqrt(ss);
};

describe("aimSpatialDelta", () => {
  // threat probability 0.01 everywhere; in region 1 (rows 0-3, cols 4-7) two half-flagged cells and one flagged
  const logits = new Float32Array(cells * 5);
  for (let c = 0; c < cells; c++) logits[c * 5 + 4] = logitOf(0.01);
  logits[(0 * cols + 5) * 5 + 4] = logitOf(0.3);
  logits[(2 * cols + 6) * 5 + 4] = logitOf(0.15);
  logits[(3 * cols + 7) * 5 + 4] = logitOf(0.6); // flagged: not aimed
  const risk = Float32Array.from([1, 1, 0.5, 0]);
  const sens = new Float32Array(cells * 3).fill(1);

  it("keeps each region's norm on its aimed cells and zeroes the rest", () => {
    const delta = new Float32Array(cells);
    const formed = spatialDelta(risk, sens, [0, 0, 4], 0.3, rows, cols, 2, delta);
    const before = [regionNorm(delta, 0, 0), regionNorm(delta, 0, 1)];
    expect(before[1]).toBeGreaterThan(0);
    const st = aimSpatialDelta(delta, logits, rows, cols, { low: 0.1, high: 0.5 }, formed);
    expect(regionNorm(delta, 0, 1)).toBeCloseTo(before[1]!, 5);
    const aimedCells = [0 * cols + 5, 2 * cols + 6];
    for (let c = 0; c < cells; c++) {
      if (aimedCells.includes(c)) expect(delta[c]).toBeCloseTo(-before[1]! / Math.SQRT2, 5);
      else expect(delta[c]).toBe(0);
    }
    expect(st.activeRegions).toBe(1); // regions 0 and 2 had a delta but no aimed cell
    expect(formed.activeRegions).toBe(3);
    expect(st.maxAbs).toBeCloseTo(before[1]! / Math.SQRT2, 5);
    expect(st.maxRegionNorm).toBeCloseTo(before[1]!, 5);
    expect(st.clippedRegions).toBe(formed.clippedRegions);
  });

  it("is the identity when every cell is aimed, and rejects a bad window", () => {
    const delta = new Float32Array(cells);
    spatialDelta(risk, sens, [0.2, 0, 4], 0.3, rows, cols, 0.5, delta);
    const copy = Float32Array.from(delta);
    const formed = { maxRegionNorm: 0, maxAbs: 0, clippedRegions: 0, activeRegions: 0, rejected: false };
    aimSpatialDelta(delta, logits, rows, cols, { low: 0, high: 1 }, formed);
    for (let c = 0; c < cells; c++) expect(delta[c]).toBeCloseTo(copy[c]!, 6);
    expect(() => aimSpatialDelta(delta, logits, rows, cols, { low: 0.5, high: 0.1 }, formed)).toThrow("0 <= low < high <= 1");
    expect(() => aimSpatialDelta(delta, logits.subarray(5), rows, cols, { low: 0.1, high: 0.5 }, formed)).toThrow(RangeError);
  });
});

describe("SpatialHarnessRuntime with an aim", () => {
  const frame = (): { logits: Float32Array; rgb: Uint8Array } => {
    const logits = new Float32Array(64 * 5);
    for (let i = 0; i < logits.length; i++) logits[i] = 2 * Math.cos(i);
    const rgb = new Uint8Array(64 * 64 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37) % 251;
    return { logits, rgb };
  };
  const fly = (aim?: { low: number; high: number }): SpatialHarnessRuntime => {
    const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), 64, 64, { regionClip: 8, ...(aim === undefined ? {} : { aim }) });
    const { logits, rgb } = frame();
    const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4 };
    rt.step(logits, rgb, nav, 0);
    rt.step(logits, rgb, { ...nav, yaw_rad: 0.1 }, 0.25);
    return rt;
  };

  it("corrects only the aimed cells and leaves SPEC's formula as is without one", () => {
    const plain = fly();
    const aimed = fly({ low: 0.1, high: 0.5 });
    const { logits } = frame();
    let moved = 0;
    for (let c = 0; c < 64; c++) {
      const p = 1 / (1 + Math.exp(-logits[c * 5 + 4]!));
      if (p < 0.1 || p >= 0.5) expect(aimed.delta[c]).toBe(0);
      else if (aimed.delta[c]! < 0) moved++;
    }
    expect(moved).toBeGreaterThan(0);
    expect(plain.delta.some((d, c) => d < 0 && aimed.delta[c] === 0)).toBe(true);
    expect(Array.from(fly(undefined).delta)).toEqual(Array.from(plain.delta));
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 64, 64, { aim: { low: 0.2, high: 1.5 } })).toThrow("aim [0.2, 1.5)");
  });
});

describe("eval --harness --aim", () => {
  it("parses a window and names a bad one", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default", "--aim", "0.1,0.5"]).aim).toEqual({ low: 0.1, high: 0.5 });
    expect(parseEvalHarnessArgs(["--scenario", "default"]).aim).toBeUndefined();
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--aim", "0.5,0.1"])).toThrow("expected low,high");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--aim", "0.1"])).toThrow("expected low,high");
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--aim", "0.1,x"])).toThrow("--aim");
  });
});
