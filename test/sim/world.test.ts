/**
 * Worlds drawn from the bundled scenarios respect the ranges (conductors 5-30 mm, branches
 * 10-50 mm, lines across the path between start and goal) and the perturbation block scales what
 * it names (wire thickness, lighting, sensor noise and bias) by the values in default.yaml.
 */
import { buildWorld, createSimulation, CLASS_BRANCH, CLASS_WIRE } from "../../sim";
import { fastScenario } from "./fixtures";

describe("buildWorld", () => {
  it.each([1, 2, 3, 4, 5])("default.yaml seed %i: wires cross the path, radii in range", (seed) => {
    const w = buildWorld(fastScenario("default", 64), seed);
    const seg = w.segments;
    const wireRadii = new Set<number>();
    let crossing = 0;
    for (let i = 0; i < seg.count; i++) {
      const r = seg.radius[i]!;
      if (seg.cls[i] === CLASS_WIRE) {
        wireRadii.add(r);
        expect(r).toBeGreaterThanOrEqual(0.005);
        expect(r).toBeLessThanOrEqual(0.03);
        // The segment spans the path's x (start x) between start and goal: the drone must pass it.
        const ax = seg.a[3 * i]! - w.start.x, bx = seg.b[3 * i]! - w.start.x;
        if (ax * bx <= 0 && seg.a[3 * i + 1]! > w.start.y && seg.a[3 * i + 1]! < w.goal.y) crossing++;
      }
      if (seg.cls[i] === CLASS_BRANCH) {
        expect(r).toBeGreaterThanOrEqual(0.01 - 1e-12);
        expect(r).toBeLessThanOrEqual(0.05);
      }
    }
    expect(wireRadii.size).toBeGreaterThan(0);
    expect(crossing).toBeGreaterThanOrEqual(2); // at least two lines (2-4) of >= 1 conductor
  });

  it("trees_only.yaml has trees and no wires", () => {
    const w = buildWorld(fastScenario("trees_only", 64), 1);
    expect(w.objects.some((o) => o.kind === "wire")).toBe(false);
    expect(w.objects.filter((o) => o.kind === "trunk").length).toBeGreaterThanOrEqual(20);
  });

  it("the perturbation block scales wire thickness, lighting, sensor noise and bias", () => {
    const s = fastScenario("default", 64);
    const nominal = createSimulation(s, { seed: 8 });
    const perturbed = createSimulation(s, { seed: 8, perturbed: true });
    const p = s.perturbation; // 0.85, 0.85, 1.15, 1.15 in default.yaml
    const n = nominal.world.segments;
    const q = perturbed.world.segments;
    expect(q.count).toBe(n.count);
    for (let i = 0; i < n.count; i++) {
      if (n.cls[i] === CLASS_WIRE) expect(q.radius[i]).toBeCloseTo(n.radius[i]! * p.wireThicknessScale, 12);
    }
    expect(perturbed.world.exposure).toBeCloseTo(nominal.world.exposure * p.lightingScale, 12);
    expect(perturbed.imuNoise.accelNoiseStd_m_s2).toBeCloseTo(nominal.imuNoise.accelNoiseStd_m_s2 * p.sensorNoiseScale, 12);
    expect(perturbed.gpsNoise.horizontalStd_m).toBeCloseTo(nominal.gpsNoise.horizontalStd_m * p.sensorNoiseScale, 12);
    perturbed.imuNoise.accelBias.forEach((b, k) => expect(b).toBeCloseTo(nominal.imuNoise.accelBias[k]! * p.sensorBiasScale, 12));
  });
});
