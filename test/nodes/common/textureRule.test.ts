/**
 * The seed's texture rule (scenario 4.2) in the running nodes: HarnessCorrector computes the
 * student's Sobel gain for the next frame from the per-cell gradient variance of the (warped)
 * frame, the student's wire cells, the altitude and the risk (src/harness/correction/textureGain.ts:
 * gain = 1 + 0.5 r f, f = share of wire cells with variance > 5, only below 15 m); the harness node
 * publishes it on harness/texture_gain (1 when texture_rule_enabled or correction_enabled is
 * false) and perception feeds it to the student on the next frame.
 */
import * as tf from "@tensorflow/tfjs";

import { HarnessCorrector } from "../../../nodes/common/models/HarnessCorrector";
import type { Correction, StudentOutputs } from "../../../nodes/common/models/models";
import type { FrameState } from "../../../nodes/common/sensors/SensorState";
import type { Image } from "../../../nodes/common/sensors/sensorTypes";
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { createHarnessNode } from "../../../nodes/harness";
import { createPerceptionNode } from "../../../nodes/perception";
import { ACTIONS, NUM_DETECTION_CLASSES } from "../../../src/harness/actions";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { Student } from "../../../src/harness/models/Student";
import { loadOpenCv } from "../../../src/vision/opencv";
import { VisionPipeline } from "../../../src/vision/VisionPipeline";
import { FakeCorrector, FakeDetector, MS, image } from "../fixtures";
import { SimRig } from "../SimRig";

const S = 64; // image side, px
const G = 8; // grid side, cells of 8x8 px
const WIRE_ROW = 3;

/**
 * Synthetic 64x64 frame on a flat grey background (gradient variance 0 everywhere). With
 * `textured`, cell row WIRE_ROW (pixel rows 24..31) holds a 1-px dark wire every other row at
 * varying contrast: the gradient magnitude inside those cells ranges from 0 to ~50 grey levels/px,
 * so the per-cell variance is far above the threshold 5. `shift` moves the pattern right.
 */
function frame(atNs: bigint, textured: boolean, shift = 0): Image {
  const im = image(atNs, { width: S, height: S, step: S * 3, data: new Uint8Array(S * S * 3).fill(128) });
  if (textured) {
    for (let y = WIRE_ROW * 8 + 1; y < WIRE_ROW * 8 + 7; y += 2) {
      for (let x = 0; x < S; x++) {
        const v = 128 - Math.round(100 * (0.5 + 0.5 * Math.sin((x + shift) / 2)));
        const i = (y * S + x) * 3;
        im.data[i] = v;
        im.data[i + 1] = v;
        im.data[i + 2] = v;
      }
    }
  }
  return im;
}

/** Student outputs with wire probability 0.9 in the cells of row WIRE_ROW for columns in `wireCols`, background elsewhere. */
function student(wireCols: (c: number) => boolean): StudentOutputs {
  const cellProbs = new Float32Array(G * G * NUM_DETECTION_CLASSES);
  for (let r = 0; r < G; r++) {
    for (let c = 0; c < G; c++) {
      const base = (r * G + c) * NUM_DETECTION_CLASSES;
      const wire = r === WIRE_ROW && wireCols(c);
      cellProbs[base] = wire ? 0.1 : 0.97;
      cellProbs[base + 1] = wire ? 0.9 : 0.01;
      cellProbs[base + 2] = wire ? 0 : 0.01;
      cellProbs[base + 3] = wire ? 0 : 0.01;
    }
  }
  return {
    actionLogits: new Float32Array(ACTIONS.length),
    gridRows: G,
    gridCols: G,
    numClasses: NUM_DETECTION_CLASSES,
    cellProbs,
    state: new Float32Array(STATE_DIM),
    pooledSize: 0,
    pooledInput: new Float32Array(0),
  };
}

function state(altitude_m: number, frameDt_s = 0, speed = 0): FrameState {
  return { altitude_m, velocityEnu_m_s: [0, speed, 0], imu: [], latestGyro_rad_s: [0, 0, 0], frameDt_s, statePeriod_s: 0.25, newStatePeriod: true, yaw_rad: 0, pitch_rad: 0 };
}

describe("HarnessCorrector texture gain (seed 4.2)", () => {
  let harness: HarnessNet;
  beforeAll(async () => {
    await tf.setBackend("cpu");
    harness = new HarnessNet({ seed: 7 });
  });
  afterAll(() => harness.dispose());

  it("rises to 1 + 0.5 r f when wire cells are textured below 15 m, and stays 1 otherwise", () => {
    const corrector = new HarnessCorrector(harness, { ownsModel: false });
    const allWire = student(() => true);
    const fired = corrector.correct(frame(0n, true), allWire, state(10));
    // Every wire cell is textured: f = 1, gain = 1 + 0.5 r (r from this frame's harness output).
    expect(fired.risk).toBeGreaterThan(0);
    expect(fired.textureGain).toBeCloseTo(1 + 0.5 * fired.risk, 6);
    expect(fired.textureGain).toBeGreaterThan(1);
    expect(corrector.lastTextureSource).toBe("current");

    // All 8 cells of row WIRE_ROW are wire cells, but the texture is only in columns 0..3 (the
    // rest of the row flat, from x = 30 so that the central differences of column 4's first pixels
    // see no texture): f = 4/8.
    const half = frame(0n, true);
    for (let y = WIRE_ROW * 8; y < WIRE_ROW * 8 + 8; y++) half.data.fill(128, (y * S + 30) * 3, (y * S + S) * 3);
    const halfGain = corrector.correct(half, allWire, state(10));
    expect(halfGain.textureGain).toBeCloseTo(1 + 0.5 * halfGain.risk * (4 / 8), 6);

    const cases: Array<[string, Correction]> = [
      ["at 15 m and above", corrector.correct(frame(0n, true), allWire, state(15))],
      ["altitude unknown (no fix yet)", corrector.correct(frame(0n, true), allWire, state(Number.NaN))],
      ["flat frame (variance 0)", corrector.correct(frame(0n, false), allWire, state(10))],
      ["no wire cells", corrector.correct(frame(0n, true), student(() => false), state(10))],
    ];
    for (const [, c] of cases) expect(c.textureGain).toBe(1);
    corrector.dispose();
  });

  it("reads the first warped frame of the imagined rollout when there is one", async () => {
    const cv = await loadOpenCv();
    const corrector = new HarnessCorrector(harness, { ownsModel: false, createVision: () => new VisionPipeline(cv, { width: S, height: S }) });
    const wire = student(() => true);
    const first = corrector.correct(frame(0n, true, 0), wire, state(10, 0, 4));
    expect(corrector.lastTextureSource).toBe("current"); // no previous frame: no rollout yet
    expect(first.textureGain).toBeGreaterThan(1);
    const second = corrector.correct(frame(33n * MS, true, 1), wire, state(10, 0.033, 4));
    expect(second.rollout?.status).toBe("scaled");
    expect(corrector.lastTextureSource).toBe("warped");
    // The warped band is still textured (bilinear keeps the wires; TextureAnalyzer tests): the rule fires.
    expect(second.textureGain).toBeGreaterThan(1);
    expect(second.textureGain).toBeLessThanOrEqual(1.5);
    const flat = corrector.correct(frame(66n * MS, false), wire, state(10, 0.033, 4));
    expect(flat.textureGain).toBe(1);
    corrector.dispose();
  });

  it("StudentDetector feeds the gain to the student's Sobel channel (gain 1 = the trained path) and rejects gains outside [1, 1.5]", () => {
    const det = new StudentDetector(new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 5 }), S, S);
    const im = frame(0n, true);
    const base = Array.from(det.infer(im, state(10)).cellProbs);
    const same = Array.from(det.infer(im, state(10), 1).cellProbs);
    const gained = Array.from(det.infer(im, state(10), 1.5).cellProbs);
    expect(same).toEqual(base);
    expect(Math.max(...gained.map((v, i) => Math.abs(v - (base[i] ?? 0))))).toBeGreaterThan(1e-6);
    expect(() => det.infer(im, state(10), 1.6)).toThrow("textureGain=1.6, expected [1, 1.5]");
    expect(() => det.infer(im, state(10), Number.NaN)).toThrow("textureGain=NaN");
    det.dispose();
  });
});

class GainCorrector extends FakeCorrector {
  gain = 1.3;
  override correct(...args: Parameters<FakeCorrector["correct"]>): Correction {
    return { ...super.correct(...args), textureGain: this.gain };
  }
}

class GainRecordingDetector extends FakeDetector {
  readonly gains: number[] = [];
  override infer(im: Image, st: FrameState, textureGain = 1): StudentOutputs {
    this.gains.push(textureGain);
    return super.infer(im, st);
  }
}

type DiagArray = { status: Array<{ name: string; values: Array<{ key: string; value: string }> }> };

describe("harness node -> perception: harness/texture_gain", () => {
  it("publishes the gain, perception applies it on the next frame; texture_rule_enabled=false or correction_enabled=false -> 1", async () => {
    const r = new SimRig();
    const detector = new GainRecordingDetector();
    await r.add(createPerceptionNode({ createDetector: () => detector }), "perception");
    const harness = await r.add(createHarnessNode({ createCorrector: () => new GainCorrector() }), "harness");
    const gains = r.record<{ data: number }>("/harness/texture_gain", "std_msgs/msg/Float32");
    const diag = r.record<DiagArray>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    const corrections = r.record<{ texture_gain: number }>("/harness/correction", "drone_harness_msgs/msg/HarnessCorrection");
    const value = (node: string, key: string) =>
      diag.map((d) => d.msg.status.find((s) => s.name === `${node}: ${node}`)).filter((s) => s !== undefined).at(-1)?.values.find((v) => v.key === key)?.value;

    r.runTo(1050n * MS);
    expect(gains.length).toBeGreaterThan(20);
    expect(gains.every((g) => Math.abs(g.msg.data - 1.3) < 1e-6)).toBe(true); // float32 of 1.3
    // The first frame ran with gain 1 (nothing received yet), every later one with the published gain.
    expect(detector.gains[0]).toBe(1);
    // /harness/correction carries the same gain as harness/texture_gain.
    expect(corrections.length).toBeGreaterThan(20);
    expect(corrections.every((c) => Math.abs(c.msg.texture_gain - 1.3) < 1e-6)).toBe(true);
    expect(detector.gains.slice(1).every((g) => Math.abs(g - 1.3) < 1e-6)).toBe(true);
    expect(value("harness", "texture_gain")).toBe("1.3000");
    expect(value("perception", "texture_gain")).toBe("1.3000");

    expect(harness.node.setParameters([{ name: "texture_rule_enabled", type: "bool", value: false }])[0]!.successful).toBe(true);
    const n1 = gains.length, d1 = detector.gains.length;
    r.runTo(2050n * MS);
    expect(gains.slice(n1).every((g) => g.msg.data === 1)).toBe(true);
    expect(detector.gains.slice(d1 + 1).every((g) => g === 1)).toBe(true);
    expect(value("harness", "texture_gain_computed")).toBe("1.3000");

    expect(harness.node.setParameters([{ name: "texture_rule_enabled", type: "bool", value: true }, { name: "correction_enabled", type: "bool", value: false }]).every((x) => x.successful)).toBe(true);
    const n2 = gains.length;
    r.runTo(3050n * MS);
    expect(gains.length).toBeGreaterThan(n2 + 20);
    expect(gains.slice(n2).every((g) => g.msg.data === 1)).toBe(true);

    // A gain outside [1, 1.5] from somewhere else is dropped and counted, the last good one kept.
    const rogue = r.graph.createNode("rogue").createPublisher<{ data: number }>("std_msgs/msg/Float32", "/harness/texture_gain");
    rogue.publish({ data: 7 });
    r.runTo(4050n * MS);
    expect(value("perception", "drops/harness/texture_gain:bad_content")).toBe("1");
    await r.shutdown();
  });

  it("texture_rule_enabled is a declared bool parameter, default true", async () => {
    const r = new SimRig();
    const h = await r.add(createHarnessNode({ createCorrector: () => new GainCorrector() }), "harness");
    expect(h.node.getParameter("texture_rule_enabled")).toEqual({ name: "texture_rule_enabled", type: "bool", value: true });
    expect(h.node.setParameters([{ name: "texture_rule_enabled", type: "integer", value: 1 }])[0]!.successful).toBe(false);
    await r.shutdown();
  });
});
