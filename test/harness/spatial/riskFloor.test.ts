/**
 * The floor on the region risk as the correction reads it (SpatialHarnessOptions.riskFloor,
 * eval --harness --risk-floor; twenty-fifth session): r' = max(0, r - floor) / (1 - floor) after
 * the lambda schedule has read the raw risk; off (0) by default.
 */
import { parseEvalHarnessArgs } from "../../../src/cli/commands/evalHarness";
import { makeNavigation } from "../../../src/control/navigation";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { REGION_CELLS, SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { syntheticFrame } from "./syntheticFrame";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

const W = 128;
const H = 128;
const cols = W / 8;
const cells = (W / 8) * (H / 8);
const { logits, rgb } = syntheticFrame(W, H);
const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4 };

/** Two steps (yawing on the second) of a runtime with these options; its risk, delta and the second step's lambda. */
function fly(riskFloor?: number): { risk: Float32Array; delta: Float32Array; lambda: number } {
  const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), W, H, { regionClip: 100, ...(riskFloor === undefined ? {} : { riskFloor }) });
  rt.step(logits, rgb, nav, 0);
  const info = rt.step(logits, rgb, { ...nav, yaw_rad: 0.1 }, 0.25);
  return { risk: Float32Array.from(rt.risk), delta: Float32Array.from(rt.delta), lambda: info.lambda };
}

const regionOf = (c: number): number => Math.floor(Math.floor(c / cols) / REGION_CELLS) * (cols / REGION_CELLS) + Math.floor((c % cols) / REGION_CELLS);

describe("SpatialHarnessRuntime riskFloor", () => {
  it("removes the push of the regions under the floor and rescales the others by r' / r, lambda unchanged", () => {
    const raw = fly();
    const sorted = Array.from(raw.risk).sort((a, b) => a - b);
    // a floor between two of the harness's own risks, so regions lie on both sides of it
    const floor = (sorted[7]! + sorted[8]!) / 2;
    expect(sorted[7]!).toBeLessThan(sorted[8]!);
    const floored = fly(floor);
    expect(floored.lambda).toBe(raw.lambda);
    let kept = 0;
    let zeroed = 0;
    for (let q = 0; q < raw.risk.length; q++) {
      const r = raw.risk[q]!;
      expect(floored.risk[q]!).toBeCloseTo(Math.max(0, r - floor) / (1 - floor), 5);
      if (r > floor) kept++;
      else zeroed++;
    }
    expect(kept).toBeGreaterThan(0);
    expect(zeroed).toBeGreaterThan(0);
    let moved = 0;
    for (let c = 0; c < cells; c++) {
      const r = raw.risk[regionOf(c)]!;
      const ratio = r > floor ? (r - floor) / (1 - floor) / r : 0;
      expect(floored.delta[c]!).toBeCloseTo(raw.delta[c]! * ratio, 5);
      if (ratio > 0 && raw.delta[c]! < -1e-4) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });

  it("is the risk as is at 0 and refuses a floor outside [0, 1)", () => {
    const raw = fly();
    const zero = fly(0);
    expect(zero.risk).toEqual(raw.risk);
    expect(zero.delta).toEqual(raw.delta);
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 64, 64, { riskFloor: 1 })).toThrow("riskFloor=1, expected a number in [0, 1)");
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 64, 64, { riskFloor: -0.1 })).toThrow("riskFloor=-0.1");
  });
});

describe("eval --harness --risk-floor", () => {
  it("reads a floor in [0, 0.99] and names a bad one", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default", "--risk-floor", "0.5"]).riskFloor).toBe(0.5);
    expect(parseEvalHarnessArgs(["--scenario", "default"]).riskFloor).toBeUndefined();
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--risk-floor", "1"])).toThrow("--risk-floor=1, expected a number in [0, 0.99]");
  });
});
