/**
 * Flow on two simulator frames (sim/, issue 3) against the projected motion of the ground.
 *
 * Ground truth: every pixel's ray of frame 0 is intersected with the ground plane z = 0 (the
 * simulator's ground) using the camera pose and intrinsics the simulator reports, and the 3D point
 * is projected into frame 1's pose. Pixels showing an obstacle in frame 0's class mask, the sky,
 * ground farther than 40 m, and a 12 px border are excluded. The simulator's ground is weakly
 * textured in grey at 256x256 (at seed 1 about 10 % of the ground pixels have a mean local gradient
 * above 2 grey levels/px): flow is only observable where there is texture, so the comparison uses
 * those pixels (9x9 mean of |central-difference gradient| > 2 grey levels/px).
 *
 * Measured with the default estimator (128x128 Farneback, upsampled) and the default scenario's
 * camera noise (std 2 grey levels), wind off, 5 m/s forward, frames 1/30 s apart, over seeds 1-3
 * and three versions of the simulator during development (its ground texture changed): median
 * true ground flow 0.64-1.69 px, median EPE 0.26-0.53 px, i.e. 17-52 % of the true flow, much
 * worse than on the synthetic texture (0.03 px) because the simulated ground has little contrast.
 * Tolerance, relative so that it survives simulator changes: median EPE < 70 % of the median
 * true flow (a zero-flow answer scores 100 %).
 *
 * Yawing at 0.6 rad/s (seed 3): median rotational flow 2.7-3.2 px; EPE against the
 * translation-only truth 2.31-2.89 px raw, 0.22-0.51 px after subtracting the gyro's rotational
 * flow (flowModel.ts with the simulator's camera pitch). Tolerance: compensated < 35 % of raw.
 */
import { DEFAULT_SCENARIO, cameraRotation, createSimulation, type CameraModel, type CameraPose } from "../../sim";
import { FlowEstimator } from "../../src/vision/FlowEstimator";
import { bodyFluToOptical, rotationalFlow } from "../../src/vision/flowModel";
import { imageToGrey } from "../../src/vision/imageToGrey";
import { loadOpenCv, type Cv } from "../../src/vision/opencv";

const DT = 1 / 30;

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

type Pair = {
  cam: CameraModel;
  g0: Uint8Array;
  g1: Uint8Array;
  mask0: Uint8Array;
  p0: CameraPose;
  p1: CameraPose;
  /** Body angular velocity (FLU, rad/s) at frame 1, as the gyro would report it. */
  omegaBody: { x: number; y: number; z: number };
};

/** Flies 2 s under `cmd` (wind off) to reach a steady state, then renders two frames DT apart. */
function simPair(seed: number, cmd: { vx_m_s: number; vy_m_s: number; vz_m_s: number; yawRate_rad_s: number }): Pair {
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
  for (let i = 0; i < 60; i++) sim.step(cmd, DT);
  const pose = (): CameraPose => ({ ...sim.cameraPose({ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 }) });
  const g0 = new Uint8Array(W * H);
  const g1 = new Uint8Array(W * H);
  sim.renderCamera({ rgb, mask, boxes });
  imageToGrey({ width: W, height: H, encoding: "rgb8", step: W * 3, data: rgb }, g0);
  const mask0 = mask.slice();
  const p0 = pose();
  sim.step(cmd, DT);
  sim.renderCamera({ rgb, mask, boxes });
  imageToGrey({ width: W, height: H, encoding: "rgb8", step: W * 3, data: rgb }, g1);
  const w = sim.drone.angularVelocity;
  return { cam, g0, g1, mask0, p0, p1: pose(), omegaBody: { x: w[0]!, y: w[1]!, z: w[2]! } };
}

/**
 * Ground-truth flow of the ground at the textured, unobstructed pixels of frame 0, from pose p0 to
 * pose `to` (position and orientation both taken from `to`). Returns pixel indices and flows.
 */
function groundTruth(pair: Pair, to: CameraPose): { idx: number[]; gu: number[]; gv: number[] } {
  const { cam, g0, mask0, p0 } = pair;
  const W = cam.width;
  const H = cam.height;
  const R0 = cameraRotation(p0.yaw, p0.pitch, p0.roll, cam, new Float64Array(9));
  const R1 = cameraRotation(to.yaw, to.pitch, to.roll, cam, new Float64Array(9));
  const r = (m: Float64Array, i: number): number => m[i]!;
  const grad = new Float32Array(W * H);
  for (let v = 1; v < H - 1; v++) {
    for (let u = 1; u < W - 1; u++) {
      const i = v * W + u;
      grad[i] = Math.hypot((g0[i + 1]! - g0[i - 1]!) / 2, (g0[i + W]! - g0[i - W]!) / 2);
    }
  }
  const out = { idx: [] as number[], gu: [] as number[], gv: [] as number[] };
  for (let v = 12; v < H - 12; v++) {
    for (let u = 12; u < W - 12; u++) {
      const i = v * W + u;
      if (mask0[i] !== 0) continue;
      let tex = 0;
      for (let a = -4; a <= 4; a++) for (let b = -4; b <= 4; b++) tex += grad[(v + a) * W + u + b]!;
      if (tex / 81 <= 2) continue;
      const dx = (u - cam.cx) / cam.fx;
      const dy = (v - cam.cy) / cam.fy;
      const rx = r(R0, 0) * dx + r(R0, 1) * dy + r(R0, 2);
      const ry = r(R0, 3) * dx + r(R0, 4) * dy + r(R0, 5);
      const rz = r(R0, 6) * dx + r(R0, 7) * dy + r(R0, 8);
      if (rz >= -1e-6) continue; // sky
      const t = -p0.z / rz;
      if (t > 40) continue;
      const X = p0.x + t * rx - to.x;
      const Y = p0.y + t * ry - to.y;
      const Z = -to.z;
      // optical = R1^T * (P - C1)
      const ox = r(R1, 0) * X + r(R1, 3) * Y + r(R1, 6) * Z;
      const oy = r(R1, 1) * X + r(R1, 4) * Y + r(R1, 7) * Z;
      const oz = r(R1, 2) * X + r(R1, 5) * Y + r(R1, 8) * Z;
      out.idx.push(i);
      out.gu.push((cam.fx * ox) / oz + cam.cx - u);
      out.gv.push((cam.fy * oy) / oz + cam.cy - v);
    }
  }
  return out;
}

function medianEpe(flow: Float32Array, gt: { idx: number[]; gu: number[]; gv: number[] }): number {
  return median(gt.idx.map((i, j) => Math.hypot(flow[2 * i]! - gt.gu[j]!, flow[2 * i + 1]! - gt.gv[j]!)));
}

describe("flow on simulator frames", () => {
  let cv: Cv;
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test.each([1, 2, 3])("seed %i: flow on textured ground matches the projected ground motion", (seed) => {
    const pair = simPair(seed, { vx_m_s: 5, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 });
    const { width: W, height: H } = pair.cam;
    const fe = new FlowEstimator(cv, { width: W, height: H });
    const flow = new Float32Array(W * H * 2);
    fe.compute(pair.g0, pair.g1, flow);
    fe.dispose();
    const gt = groundTruth(pair, pair.p1);
    const medErr = medianEpe(flow, gt);
    const medTrue = median(gt.gu.map((u, j) => Math.hypot(u, gt.gv[j]!)));
    process.stdout.write(`seed ${seed}: ${gt.idx.length} textured ground px, median true flow ${medTrue.toFixed(3)} px, median EPE ${medErr.toFixed(3)} px\n`);
    expect(gt.idx.length).toBeGreaterThan(500);
    expect(medTrue).toBeGreaterThan(0.3); // the test must have real motion to measure
    expect(medErr).toBeLessThan(0.7 * medTrue);
  });

  test("yawing flight: subtracting the gyro's rotational flow leaves the translational ground flow", () => {
    // 5 m/s forward while yawing at 0.6 rad/s: the rotation moves the image ~2 px per frame, the
    // translation < 1 px, so without compensation the 1 m rollout would be dominated by yaw.
    const pair = simPair(3, { vx_m_s: 5, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0.6 });
    const { cam } = pair;
    const W = cam.width;
    const H = cam.height;
    const fe = new FlowEstimator(cv, { width: W, height: H });
    const flow = new Float32Array(W * H * 2);
    fe.compute(pair.g0, pair.g1, flow);
    fe.dispose();
    // Translation-only truth: frame 1's position with frame 0's orientation.
    const trans = groundTruth(pair, { ...pair.p1, yaw: pair.p0.yaw, pitch: pair.p0.pitch, roll: pair.p0.roll });
    const rot = new Float32Array(W * H * 2);
    const wOpt = bodyFluToOptical(pair.omegaBody, { x: 0, y: 0, z: 0 }, cam.pitch_rad);
    rotationalFlow(W, H, cam, wOpt, DT, rot);
    const compensated = flow.map((f, i) => f - rot[i]!);
    const raw = medianEpe(flow, trans);
    const comp = medianEpe(compensated, trans);
    const medRot = median(trans.idx.map((i) => Math.hypot(rot[2 * i]!, rot[2 * i + 1]!)));
    process.stdout.write(
      `yaw 0.6 rad/s: median rotational flow ${medRot.toFixed(3)} px; EPE against translation-only truth: raw ${raw.toFixed(3)} px, gyro-compensated ${comp.toFixed(3)} px\n`,
    );
    expect(medRot).toBeGreaterThan(1);
    expect(comp).toBeLessThan(0.35 * raw);
  });
});
