/**
 * The harness node's spatial corrector at camera sizes whose 8 px cell grid is not whole 4x4-cell
 * regions (1280x720: 160x90 cells): the frame and its cells run padded on the right and bottom,
 * with the camera's own focal length and principal point for the imagined view, and only the
 * frame's cells come back. Before, such frames were passed through uncorrected.
 */
import { SpatialCorrector } from "../../../nodes/common/models/SpatialCorrector";
import type { StudentOutputs } from "../../../nodes/common/models/models";
import { SensorState } from "../../../nodes/common/sensors/SensorState";
import { initBackend } from "../../../src/harness/backend";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { Rng } from "../../../src/util/Rng";
import { image } from "../fixtures";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

/** A frame and detector cells of a W x H camera: textured grey, a dark line, random cell probabilities. */
function inputs(W: number, H: number, seed: number): { rgb: Uint8Array; student: StudentOutputs } {
  const rng = new Rng(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.fill(Math.abs(y - 0.3 * x - 40) < 1 ? 20 : 90 + ((x * 7 + y * 13) % 60), 3 * (y * W + x), 3 * (y * W + x) + 3);
  const rows = H / 8;
  const cols = W / 8;
  const cellProbs = new Float32Array(rows * cols * 4);
  for (let c = 0; c < rows * cols; c++) {
    const e = [3 + rng.uniform(0, 2), rng.uniform(0, 2), rng.uniform(0, 1), rng.uniform(0, 1)].map(Math.exp);
    const sum = e.reduce((a, b) => a + b, 0);
    for (let k = 0; k < 4; k++) cellProbs[c * 4 + k] = e[k]! / sum;
  }
  const threatProbs = Float32Array.from({ length: rows * cols }, () => rng.uniform(0.01, 0.6));
  return { rgb, student: { actionLogits: new Float32Array(0), gridRows: rows, gridCols: cols, numClasses: 4, cellProbs, state: new Float32Array(0), pooledSize: 0, pooledInput: new Float32Array(0), threatProbs } };
}

describe("SpatialCorrector at any camera size", () => {
  it("corrects a 1280x720 frame (90 cell rows) on the frame's own cells, raising near-threat probabilities only", () => {
    const harness = new SpatialHarness({ seed: 3 });
    const corrector = new SpatialCorrector(harness, { regionClip: 2, lambda: { initial: 1 } });
    const { rgb, student } = inputs(1280, 720, 1);
    const img = image(0n, { width: 1280, height: 720, step: 3 * 1280, data: rgb });
    expect(corrector.problem(img, student)).toBeUndefined();
    // Flying forward at 3 m/s, 6 m up: the forward rate gives the correction something to scale.
    const state = { ...new SensorState().onFrame(0n), velocityEnu_m_s: [3, 0, 0] as [number, number, number], altitude_m: 6 };
    let out = corrector.correct(img, student, state, 0);
    out = corrector.correct(img, student, state, 0.25);
    expect(out.threat.length).toBe(90 * 160);
    expect(out.classProbs.length).toBe(90 * 160 * 4);
    expect(out.info.maxAbs).toBeGreaterThan(0);
    let raised = 0;
    for (let c = 0; c < 90 * 160; c++) {
      expect(out.threat[c]).toBeGreaterThanOrEqual(student.threatProbs![c]! - 1e-6);
      if (out.threat[c]! > student.threatProbs![c]! + 1e-3) raised++;
    }
    expect(raised).toBeGreaterThan(100);
    harness.dispose();
  });

  it("equals the runtime on the frame padded by hand (last row and column repeated, the camera's own frame), cropped", () => {
    const W = 96;
    const H = 40; // 12x5 cells -> padded to 12x8 cells, 96x64 px
    const harness = new SpatialHarness({ seed: 4 });
    const corrector = new SpatialCorrector(harness, { regionClip: 2 });
    const runtime = new SpatialHarnessRuntime(harness, 96, 64, { regionClip: 2, cameraFrame: { width: W, height: H } });
    const { rgb, student } = inputs(W, H, 2);
    const padded = new Uint8Array(96 * 64 * 3);
    for (let y = 0; y < 64; y++) padded.set(rgb.subarray(Math.min(y, H - 1) * W * 3, (Math.min(y, H - 1) + 1) * W * 3), y * 96 * 3);
    const logits = new Float32Array(8 * 12 * 5);
    for (let r = 0; r < 8; r++) {
      for (let q = 0; q < 12; q++) {
        const c = Math.min(r, 4) * 12 + q;
        for (let k = 0; k < 4; k++) logits[(r * 12 + q) * 5 + k] = Math.log(Math.max(1e-6, student.cellProbs[c * 4 + k]!));
        const p = Math.min(1 - 1e-6, Math.max(1e-6, student.threatProbs![c]!));
        logits[(r * 12 + q) * 5 + 4] = Math.log(p / (1 - p));
      }
    }
    const state = { ...new SensorState().onFrame(0n), velocityEnu_m_s: [3, 0, 0] as [number, number, number], altitude_m: 6 };
    const img = image(0n, { width: W, height: H, step: 3 * W, data: rgb });
    const nav = { altitude_m: 6, pitch_rad: state.pitch_rad, yaw_rad: state.yaw_rad, forwardSpeed_m_s: 3 } as never;
    corrector.correct(img, student, state, 0);
    runtime.step(logits, padded, nav, 0);
    const out = corrector.correct(img, student, state, 0.25);
    const info = runtime.step(logits, padded, nav, 0.25);
    expect(info.maxAbs).toBeGreaterThan(0); // a correction is applied, padded cells included
    expect(out.info).toEqual(info);
    expect(Array.from(out.threat)).toEqual(Array.from(runtime.threat.subarray(0, 5 * 12)));
    expect(Array.from(out.classProbs)).toEqual(Array.from(runtime.classProbs.subarray(0, 5 * 12 * 4)));
    // The camera model is the frame's own: the focal length from its width, the centre of 96x40.
    expect(runtime.camera.f_px).toBeCloseTo(48, 9);
    expect([runtime.camera.cx, runtime.camera.cy]).toEqual([48, 20]);
    expect(() => new SpatialHarnessRuntime(harness, 96, 64, { cameraFrame: { width: 100, height: 40 } })).toThrow("cameraFrame 100x40, expected a frame of at least 1x1 px inside the runtime's 96x64");
    harness.dispose();
  });
});
