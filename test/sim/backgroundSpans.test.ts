/**
 * The background is shaded in 8-px spans with linear interpolation between exact span ends
 * (sim/Renderer.ts, rowSpans). Against the same renderer with spanTolerance 0 (every pixel
 * exact) over poses that cover low and high altitude, banks and a view into the sun, the
 * interpolation must be invisible: mean |difference| below 0.1 grey level and at most 0.2 % of
 * the values more than 8 levels off (measured when written: mean 0.047, 0.052 % over 8, from mip
 * level switches of nearest-sampled distant texels near the horizon).
 */
import { buildWorld, makeCamera, Renderer } from "../../sim";
import { fastScenario } from "./fixtures";

const world = (() => {
  const s = fastScenario("default", 256);
  s.lighting.cloudCover = { min: 0.5, max: 0.5 };
  return buildWorld(s, 9);
})();
const camera = makeCamera(128, 128, 90, 5);

function frame(r: Renderer, pose: { x: number; y: number; z: number; yaw: number; pitch: number; roll: number }): Uint8Array {
  const rgb = new Uint8Array(camera.width * camera.height * 3);
  r.render(pose, { rgb });
  return rgb;
}

describe("background spans", () => {
  it("match exact per-pixel shading within a fraction of a grey level", () => {
    const fast = new Renderer(world, camera);
    const exact = new Renderer(world, camera, { spanTolerance: 0 });
    const sunYaw = Math.atan2(world.sky.sunDir[1], world.sky.sunDir[0]);
    const sunEl = Math.asin(world.sky.sunDir[2]);
    const poses = [
      { x: 3, y: 10, z: 12, yaw: 1.2, pitch: 0, roll: 0.02 },
      { x: -40, y: 70, z: 2, yaw: -0.4, pitch: 0.3, roll: -0.1 },
      { x: 10, y: 5, z: 35, yaw: 2.5, pitch: 0.2, roll: 0.35 },
      { x: 0, y: 0, z: 15, yaw: sunYaw, pitch: -sunEl, roll: 0 },
    ];
    let sum = 0, over8 = 0, n = 0;
    for (const p of poses) {
      const a = frame(fast, p);
      const b = frame(exact, p);
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs(a[i]! - b[i]!);
        sum += d;
        if (d > 8) over8++;
      }
      n += a.length;
    }
    process.stdout.write(`spans vs exact: mean |d| ${(sum / n).toFixed(3)}, ${((100 * over8) / n).toFixed(3)} % of values > 8 levels\n`);
    expect(sum / n).toBeLessThan(0.1);
    expect(over8 / n).toBeLessThan(0.002);
  });

  it("rejects a tolerance outside [0, 0.5] naming the value", () => {
    expect(() => new Renderer(world, camera, { spanTolerance: 0.9 })).toThrow("spanTolerance=0.9, expected in [0, 0.5]");
  });
});
