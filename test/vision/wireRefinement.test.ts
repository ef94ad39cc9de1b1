/**
 * VisionPipeline's optional Lucas-Kanade refinement at thin-structure pixels, on the synthetic
 * scene of bench/vision.bench.ts: a 1-px dark wire at 30 deg moving (1.2, 0.8) px in front of a
 * low-contrast background moving (0.4, -0.3) px. With |v| dt = 1 m the flow per metre equals the
 * measured flow, so the pipeline's `flowPerMetre` is compared with the wire's true motion on the
 * wire pixels (centre within 0.5 px), by the component normal to the wire (the only observable one).
 *
 * Measured at 128x128 (dense flow at 64x64): dense 0.249 px, refined 0.013 px (667 wire-candidate
 * pixels replaced), refined with only 64 tracked points 0.012 px. Bounds: refined < half the dense
 * error; the 64-point budget still beats the dense flow.
 */
import { loadOpenCv, type Cv } from "../../src/vision/opencv";
import { render, smoothTexture, wire } from "../../src/vision/synthetic";
import { VisionPipeline } from "../../src/vision/VisionPipeline";

const W = 128;
const H = 128;
const ANGLE = Math.PI / 6;
const WIRE = { x: 1.2, y: 0.8 };
const BG = { x: 0.4, y: -0.3 };

function scene(bgShift: { x: number; y: number }, wireShift: { x: number; y: number }): (x: number, y: number) => number {
  const T = smoothTexture(5);
  const bg = (x: number, y: number): number => 128 + 0.25 * (T(x - bgShift.x, y - bgShift.y) - 128);
  return wire(bg, 64 + wireShift.x, 64 + wireShift.y, ANGLE, 100, 1);
}

describe("VisionPipeline wire refinement (Lucas-Kanade at thin-structure pixels)", () => {
  let cv: Cv;
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test("reduces the normal flow error on the wire", () => {
    const g0 = render(W, H, scene({ x: 0, y: 0 }, { x: 0, y: 0 }));
    const g1 = render(W, H, scene(BG, WIRE));
    const nx = -Math.sin(ANGLE);
    const ny = Math.cos(ANGLE);
    const normalError = (options: { wireRefinement?: { maxPoints?: number } }): { err: number; replaced: number } => {
      const p = new VisionPipeline(cv, { width: W, height: H, ...options });
      p.pushGrey(g0, { stampNs: 0n, speedMps: 10 });
      const r = p.pushGrey(g1, { stampNs: 100_000_000n, speedMps: 10 }); // |v| dt = 1 m
      expect(r.status).toBe("scaled");
      const f = p.warper.flowPerMetre;
      let e = 0;
      let n = 0;
      for (let y = 16; y < H - 16; y++) {
        for (let x = 16; x < W - 16; x++) {
          if (Math.abs((x - 64) * nx + (y - 64) * ny) >= 0.5) continue;
          const i = y * W + x;
          e += Math.abs((f[2 * i]! - WIRE.x) * nx + (f[2 * i + 1]! - WIRE.y) * ny);
          n++;
        }
      }
      const replaced = p.lastWirePixels;
      p.dispose();
      return { err: e / n, replaced };
    };
    const plain = normalError({});
    const refined = normalError({ wireRefinement: {} });
    const capped = normalError({ wireRefinement: { maxPoints: 64 } });
    process.stdout.write(
      `wire normal-flow error: dense ${plain.err.toFixed(3)} px, LK-refined ${refined.err.toFixed(3)} px (${refined.replaced} px), LK with 64 points ${capped.err.toFixed(3)} px\n`,
    );
    expect(plain.replaced).toBe(0);
    expect(refined.replaced).toBeGreaterThan(100);
    expect(refined.err).toBeLessThan(0.5 * plain.err);
    expect(capped.err).toBeLessThan(plain.err);
  });

  test("rejects a bad point budget", () => {
    expect(() => new VisionPipeline(cv, { width: W, height: H, wireRefinement: { maxPoints: 0 } })).toThrow("wireRefinement.maxPoints=0, expected an integer >= 1");
  });
});
