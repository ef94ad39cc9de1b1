import * as tf from "@tensorflow/tfjs";

import { HarnessCorrector, STATE_FEATURE_NAMES } from "../../../nodes/common/models/HarnessCorrector";
import { CorrectionApplier } from "../../../nodes/common/models/applyCorrection";
import { SensorState } from "../../../nodes/common/sensors/SensorState";
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { Rgb8Converter } from "../../../nodes/common/sensors/toRgb8";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { STATE_DIM, normaliseState } from "../../../src/harness/models/stateVector";
import { Student } from "../../../src/harness/models/Student";
import { decideFrame, newFrameDecision } from "../../../src/harness/runtime/HarnessedPolicy";
import { StateHistory } from "../../../src/harness/runtime/StateHistory";
import { loadOpenCv } from "../../../src/vision/opencv";
import { VisionPipeline } from "../../../src/vision/VisionPipeline";
import { MS, fix, image, imu, vel } from "../fixtures";

/** A 64x64 test image with a bright diagonal "wire" on a gradient sky (deterministic). */
function scene(atNs: bigint, shift: number) {
  const im = image(atNs, { width: 64, height: 64, step: 192, data: new Uint8Array(64 * 64 * 3) });
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const i = (y * 64 + x) * 3;
      const wire = Math.abs(y - (x + shift) / 2 - 16) < 1;
      im.data[i] = wire ? 20 : 120 + y;
      im.data[i + 1] = wire ? 20 : 150 + y;
      im.data[i + 2] = wire ? 20 : 200;
    }
  }
  return im;
}

describe("Rgb8Converter", () => {
  it("swaps bgr8, drops alpha, expands mono8 and skips row padding", () => {
    const c = new Rgb8Converter();
    const px = (encoding: string, bytes: number[], step: number) =>
      Array.from(c.convert(image(0n, { width: 1, height: 1, encoding, step, data: Uint8Array.from(bytes) })));
    expect(px("bgr8", [1, 2, 3, 9], 4)).toEqual([3, 2, 1]);
    expect(px("rgba8", [1, 2, 3, 4], 4)).toEqual([1, 2, 3]);
    expect(px("bgra8", [1, 2, 3, 4], 4)).toEqual([3, 2, 1]);
    expect(px("mono8", [7, 0], 2)).toEqual([7, 7, 7]);
  });
});

describe("StudentDetector / HarnessCorrector (F1's networks behind the node interfaces)", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("match decideFrame (src/harness/runtime/HarnessedPolicy.ts) on two consecutive frames", () => {
    const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8, 8], seed: 5 });
    const harness = new HarnessNet({ seed: 7 });
    const detector = new StudentDetector(student, 64, 64);
    const corrector = new HarnessCorrector(harness);
    const fromImage = new HarnessCorrector(harness, { ownsModel: false });
    const sensors = new SensorState();
    const applier = new CorrectionApplier();
    const refHistory = new StateHistory();
    const refRates = new Float32Array(STATE_DIM);
    const ref = newFrameDecision(8 * 8);
    const tensorsBefore = tf.memory().numTensors;
    // Frames one state period (0.25 s) apart: each state enters the |ds/dt| history, as in training.
    for (let f = 0; f < 2; f++) {
      const t = BigInt(f) * 250n * MS;
      sensors.onImu(imu(t, { angular_velocity: { x: 0.3 * f, y: 0, z: 0 }, linear_acceleration: { x: f, y: 0, z: 9.81 } }));
      sensors.onFix(fix(t, { altitude: 500 + 2 * f }));
      sensors.onVel(vel(t, 3 + f));
      const im = scene(t, 4 * f);
      const st = sensors.onFrame(t);
      const out = detector.infer(im, st);
      expect(Array.from(out.state)).toEqual(Array.from(normaliseState(st)));
      for (let cell = 0; cell < 64; cell++) {
        let sum = 0;
        for (let k = 0; k < 4; k++) sum += out.cellProbs[cell * 4 + k]!;
        expect(sum).toBeCloseTo(1, 5);
      }
      expect(out.pooledSize).toBe(64);
      // The pooled-input path (from perception) and the from-image path give the same correction.
      const viaImage = fromImage.correct(im, { ...out, pooledSize: 0, pooledInput: new Float32Array(0) }, st);
      const corr = corrector.correct(im, out, st);
      for (let i = 0; i < 7; i++) expect(corr.actionDelta[i]).toBeCloseTo(viaImage.actionDelta[i]!, 6);
      expect(corr.risk).toBeCloseTo(viaImage.risk, 6);
      expect(corr.rolloutLength).toBe(3);
      expect(corr.topFeatures).toHaveLength(3);
      expect(corr.topFeatures.every((n) => STATE_FEATURE_NAMES.includes(n))).toBe(true);
      // Reference: F1's decideFrame with the same state and rates.
      refHistory.push(out.state);
      refHistory.rates(0.25, refRates);
      decideFrame(student, harness, corr.lambda, { rgb: im.data, width: 64, height: 64, state: out.state, rates: refRates }, ref);
      const logits = applier.actionLogits(out.actionLogits, corr.actionDelta);
      for (let i = 0; i < 7; i++) expect(logits[i]).toBeCloseTo(ref.actionLogits[i]! + ref.actionDelta[i]!, 4);
      expect(corr.risk).toBeCloseTo(ref.risk, 5);
      const probs = applier.cellProbs(out.cellProbs, corr.cellDelta, 4);
      const refProbs = tf.tidy(() => tf.softmax(tf.tensor2d(ref.cellLogits, [64, 4])).dataSync());
      for (let i = 0; i < probs.length; i++) expect(probs[i]).toBeCloseTo(refProbs[i]!, 4);
      if (f === 1) {
        // Second frame: the state changed, so |ds/dt| > 0 and the correction is not trivially zero.
        expect(Math.max(...Array.from(corr.actionDelta).map(Math.abs))).toBeGreaterThan(0);
      }
    }
    // Every per-frame tensor was released (tf.tidy).
    expect(tf.memory().numTensors).toBe(tensorsBefore);
    detector.dispose();
    corrector.dispose();
  });
});

describe("StudentDetector / HarnessCorrector with a VisionPipeline (rollout from optical flow)", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("with a VisionPipeline, fills the rollout channels from optical-flow warps once the drone moves", async () => {
    const cv = await loadOpenCv();
    const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 5 });
    const harness = new HarnessNet({ seed: 7 });
    const detector = new StudentDetector(student, 64, 64);
    const withVision = new HarnessCorrector(harness, { ownsModel: false, vision: new VisionPipeline(cv, { width: 64, height: 64 }) });
    const without = new HarnessCorrector(harness, { ownsModel: false });
    const sensors = new SensorState();
    const risks: Array<[number, number]> = [];
    for (let f = 0; f < 3; f++) {
      const t = BigInt(f) * 33n * MS;
      sensors.onImu(imu(t));
      sensors.onFix(fix(t));
      sensors.onVel(vel(t, 4));
      const im = scene(t, 3 * f);
      const st = sensors.onFrame(t);
      const out = detector.infer(im, st);
      risks.push([withVision.correct(im, out, st).risk, without.correct(im, out, st).risk]);
    }
    // First frame: no previous frame, no flow: zero padding, identical to the default path.
    expect(risks[0]![0]).toBeCloseTo(risks[0]![1], 6);
    // Later frames: the rollout is scaled from measured flow and the harness input differs.
    expect(withVision.lastRolloutStatus).toBe("scaled");
    expect(Math.abs(risks[2]![0] - risks[2]![1])).toBeGreaterThan(1e-6);
    withVision.reset();
    detector.dispose();
    withVision.dispose();
    without.dispose();
  });
});
