/**
 * Flow on two simulator frames (sim/, issue 3) against the projected motion of the ground.
 *
 * Ground truth: every pixel's ray of frame 0 is intersected with the ground plane z = 0 (the
 * simulator's ground) using the camera pose and intrinsics the simulator reports, and the 3D point
 * is projected into frame 1's pose. Pixels showing an obstacle in frame 0's class mask, the sky,
 * ground farther than 40 m, and a 12 px border are excluded. The simulator's ground is weakly
 * textured in grey at 256x256 (at seed 1 about 8 % of the ground pixels have a mean local gradient
 * above 2 grey levels/px): flow is only observable where there is texture, so the comparison uses
 * those pixels (9x9 mean of |central-difference gradient| > 2 grey levels/px).
 *
 * Measured with the default estimator (128x128 Farneback, upsampled) and the default scenario's
 * camera noise (std 2 grey levels), wind off, 5 m/s forward, frames 1/30 s apart (median true
 * ground flow 0.64-0.73 px): median EPE 0.30-0.35 px over seeds 1-3, i.e. 46-50 % of the true
 * flow, much worse than on the synthetic texture (0.03 px) because the simulated ground has so
 * little contrast. Tolerance: median EPE < 0.45 px and < 60 % of the median true flow.
 */
import { DEFAULT_SCENARIO, cameraRotation, createSimulation, type CameraPose } from "../../sim";
import { FlowEstimator } from "../../src/vision/FlowEstimator";
import { imageToGrey } from "../../src/vision/imageToGrey";
import { loadOpenCv, type Cv } from "../../src/vision/opencv";

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1] as number;
}

describe("flow on simulator frames", () => {
  let cv: Cv;
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test.each([1, 2, 3])("seed %i: flow on textured ground matches the projected ground motion", (seed) => {
    const scenario = structuredClone(DEFAULT_SCENARIO);
    scenario.wind.meanSpeed_m_s = { min: 0, max: 0 };
    scenario.wind.gustStd_m_s = { min: 0, max: 0 };
    const sim = createSimulation(scenario, { seed });
    const cam = sim.camera;
    const W = cam.width;
    const H = cam.height;
    const rgb = new Uint8Array(W * H * 3);
    const mask = new Uint8Array(W * H);
    const boxes = sim.makeBoxList();
    const cmd = { vx_m_s: 5, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
    for (let i = 0; i < 60; i++) sim.step(cmd, 1 / 30); // reach speed first
    const g0 = new Uint8Array(W * H);
    const g1 = new Uint8Array(W * H);
    const pose = (): CameraPose => ({ ...sim.cameraPose({ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 }) });
    sim.renderCamera({ rgb, mask, boxes });
    imageToGrey({ width: W, height: H, encoding: "rgb8", step: W * 3, data: rgb }, g0);
    const mask0 = mask.slice();
    const p0 = pose();
    sim.step(cmd, 1 / 30);
    sim.renderCamera({ rgb, mask, boxes });
    imageToGrey({ width: W, height: H, encoding: "rgb8", step: W * 3, data: rgb }, g1);
    const p1 = pose();

    const R0 = cameraRotation(p0.yaw, p0.pitch, p0.roll, cam, new Float64Array(9));
    const R1 = cameraRotation(p1.yaw, p1.pitch, p1.roll, cam, new Float64Array(9));
    const r = (m: Float64Array, i: number): number => m[i] as number;
    // Local texture: 9x9 mean of the central-difference gradient magnitude of frame 0.
    const grad = new Float32Array(W * H);
    for (let v = 1; v < H - 1; v++) {
      for (let u = 1; u < W - 1; u++) {
        const i = v * W + u;
        grad[i] = Math.hypot(((g0[i + 1] as number) - (g0[i - 1] as number)) / 2, ((g0[i + W] as number) - (g0[i - W] as number)) / 2);
      }
    }
    const fe = new FlowEstimator(cv, { width: W, height: H });
    const flow = new Float32Array(W * H * 2);
    fe.compute(g0, g1, flow);
    fe.dispose();

    const errors: number[] = [];
    const truths: number[] = [];
    for (let v = 12; v < H - 12; v++) {
      for (let u = 12; u < W - 12; u++) {
        const i = v * W + u;
        if (mask0[i] !== 0) continue;
        let tex = 0;
        for (let a = -4; a <= 4; a++) for (let b = -4; b <= 4; b++) tex += grad[(v + a) * W + u + b] as number;
        if (tex / 81 <= 2) continue;
        const dx = (u - cam.cx) / cam.fx;
        const dy = (v - cam.cy) / cam.fy;
        const rx = r(R0, 0) * dx + r(R0, 1) * dy + r(R0, 2);
        const ry = r(R0, 3) * dx + r(R0, 4) * dy + r(R0, 5);
        const rz = r(R0, 6) * dx + r(R0, 7) * dy + r(R0, 8);
        if (rz >= -1e-6) continue; // sky
        const t = -p0.z / rz;
        if (t > 40) continue;
        const X = p0.x + t * rx - p1.x;
        const Y = p0.y + t * ry - p1.y;
        const Z = -p1.z;
        // optical = R1^T * (P - C1)
        const ox = r(R1, 0) * X + r(R1, 3) * Y + r(R1, 6) * Z;
        const oy = r(R1, 1) * X + r(R1, 4) * Y + r(R1, 7) * Z;
        const oz = r(R1, 2) * X + r(R1, 5) * Y + r(R1, 8) * Z;
        const gu = (cam.fx * ox) / oz + cam.cx - u;
        const gv = (cam.fy * oy) / oz + cam.cy - v;
        errors.push(Math.hypot((flow[2 * i] as number) - gu, (flow[2 * i + 1] as number) - gv));
        truths.push(Math.hypot(gu, gv));
      }
    }
    const medErr = median(errors);
    const medTrue = median(truths);
    process.stdout.write(`seed ${seed}: ${errors.length} textured ground px, median true flow ${medTrue.toFixed(3)} px, median EPE ${medErr.toFixed(3)} px\n`);
    expect(errors.length).toBeGreaterThan(500);
    expect(medTrue).toBeGreaterThan(0.3); // the test must have real motion to measure
    expect(medErr).toBeLessThan(0.45);
    expect(medErr).toBeLessThan(0.6 * medTrue);
  });
});
