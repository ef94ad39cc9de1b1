/**
 * The spatial harness of issue 13: warps, the network's two forward passes, the region-clipped
 * delta on the free / near-threat logits, the per-frame runtime, rollouts with S_gt and risk
 * targets, harness training that leaves the student untouched, and the paired ON/OFF rows.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { alarmLevelOf } from "../../../src/harness/correction/constants";
import type { RenderTruth } from "../../../src/harness/data/DroneEnvironment";
import { CLASS_BRANCH, CLASS_POLE_TRUNK, CLASS_WIRE } from "../../../sim/World";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { comparePaired, correctionSummary, evaluateHarnessRows, formatHarnessReport, mcnemarExactP, type HarnessRow } from "../../../src/harness/eval/harnessRows";
import { Teacher } from "../../../src/harness/models/Teacher";
import { DETECTOR_SIZES } from "../../../src/harness/training/detectorStage";
import { probabilitiesFromLogits } from "../../../src/harness/runtime/DetectorRuntime";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { forwardCells, HARNESS_CELL_CHANNELS, NUM_SENSITIVITY_DIMS, REGION_CELLS, SpatialHarness, spatialWorkspace, type SpatialHarnessWeights } from "../../../src/harness/spatial/SpatialHarness";
import { applySpatialDelta, spatialDelta } from "../../../src/harness/spatial/spatialCorrection";
import { flySpatialRollout, wireOnly, type RiskTarget } from "../../../src/harness/spatial/spatialRollouts";
import { WIRE_GAP_FLAG, wireGapCells } from "../../../src/harness/eval/CellLabels";
import { trainSpatialHarness } from "../../../src/harness/spatial/trainSpatialHarness";
import { warpCamera, warpImage } from "../../../src/harness/spatial/warp";
import { makeNavigation } from "../../../src/control/navigation";
import { FakeEnvironment } from "../training/fakeEnvironment";
import { pinnedThreatDetector } from "./pinnedDetector";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
const tinyDetector = (seed = 1): Teacher => new Teacher({ channels: [4, 4, 4], headHidden: 4, seed, threatLogit: true });

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("warpImage", () => {
  const W = 64;
  const H = 32;
  const cam = warpCamera(W, H, Math.PI / 2, 0);
  const edge = new Float32Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) edge[y * W + x] = x < 30 ? 0 : 100;
  const still = { forward_m: 0, yaw_rad: 0, pitchDown_rad: 0, altitude_m: 10, bodyPitch_rad: 0 };

  it("is the identity without motion and shifts by f * angle for a yaw", () => {
    const out = new Float32Array(W * H);
    warpImage(edge, W, H, 1, cam, still, out);
    expect(Array.from(out)).toEqual(Array.from(edge));
    // f = 32 px; yaw 1/16 rad shifts the scene right by 2 px: the edge moves from x = 30 to 32.
    warpImage(edge, W, H, 1, cam, { ...still, yaw_rad: 1 / 16 }, out);
    expect(out[10 * W + 31]).toBe(0);
    expect(out[10 * W + 32]).toBe(100);
  });

  it("moves points away from the centre for a forward move (the ground comes closer)", () => {
    const out = new Float32Array(W * H);
    warpImage(edge, W, H, 1, cam, { ...still, forward_m: 1, altitude_m: 1 }, out);
    // Below the horizon the edge at x = 30 (left of the centre 32) moves further left.
    let first = -1;
    for (let x = 0; x < W; x++) if (out[28 * W + x]! > 50) { first = x; break; }
    expect(first).toBeLessThan(30);
    expect(() => warpImage(edge, W, H, 1, cam, { ...still, forward_m: -1 }, out)).toThrow("forward_m=-1");
    expect(() => warpImage(edge, W, H, 3, cam, still, out)).toThrow("expected 6144");
  });
});

describe("SpatialHarness", () => {
  it("has about 1 % of the pipeline student's parameters and both forward passes agree", () => {
    const h = new SpatialHarness({ seed: 3 });
    const student = new Teacher(DETECTOR_SIZES.student);
    const ratio = h.parameterCount() / student.parameterCount();
    expect(ratio).toBeGreaterThanOrEqual(0.008);
    expect(ratio).toBeLessThanOrEqual(0.015);
    student.dispose();
    const rows = 8;
    const cols = 12;
    const features = new Float32Array(rows * cols * HARNESS_CELL_CHANNELS);
    for (let i = 0; i < features.length; i++) features[i] = Math.sin(0.7 * i) * 1.5;
    const [riskT, sensT] = tf.tidy(() => {
      const o = h.forwardTensors(tf.tensor4d(features, [1, rows, cols, HARNESS_CELL_CHANNELS]));
      return [o.risk.dataSync() as Float32Array, o.sensitivity.dataSync() as Float32Array];
    });
    const w = h.snapshotWeights();
    const risk = new Float32Array(6);
    const sens = new Float32Array(rows * cols * NUM_SENSITIVITY_DIMS);
    forwardCells(w, features, rows, cols, spatialWorkspace(w, rows * cols), risk, sens);
    for (let i = 0; i < risk.length; i++) expect(risk[i]).toBeCloseTo(riskT[i]!, 4);
    for (let i = 0; i < sens.length; i++) expect(sens[i]).toBeCloseTo(sensT[i]!, 2);
    expect(sens.every((v) => v >= 0)).toBe(true);
    h.dispose();
  });
});

/** The plain loops forwardCells replaced (before the weights were re-laid and the inner cells unrolled). */
function referenceForwardCells(w: SpatialHarnessWeights, features: Float32Array, rows: number, cols: number, risk: Float32Array, sensitivity: Float32Array): void {
  const C = HARNESS_CELL_CHANNELS;
  const { hidden1: H1, hidden2: H2, l1w, l1b, l2w, l2b, sw, sb, rw, rb, sScale } = w;
  const J = NUM_SENSITIVITY_DIMS;
  const cells = rows * cols;
  const h1 = new Float32Array(cells * H1);
  const m1 = new Float32Array(cells * H1);
  const h2 = new Float32Array(cells * H2);
  for (let c = 0; c < cells; c++) {
    for (let k = 0; k < H1; k++) {
      let a = l1b[k]!;
      for (let i = 0; i < C; i++) a += features[c * C + i]! * l1w[i * H1 + k]!;
      h1[c * H1 + k] = a > 0 ? a : 0;
    }
  }
  for (let r = 0; r < rows; r++) {
    for (let q = 0; q < cols; q++) {
      const [r0, r1, q0, q1] = [Math.max(0, r - 1), Math.min(rows - 1, r + 1), Math.max(0, q - 1), Math.min(cols - 1, q + 1)];
      for (let k = 0; k < H1; k++) {
        let sum = 0;
        for (let rr = r0; rr <= r1; rr++) for (let qq = q0; qq <= q1; qq++) sum += h1[(rr * cols + qq) * H1 + k]!;
        m1[(r * cols + q) * H1 + k] = sum * (1 / ((r1 - r0 + 1) * (q1 - q0 + 1)));
      }
    }
  }
  for (let c = 0; c < cells; c++) {
    for (let k = 0; k < H2; k++) {
      let a = l2b[k]!;
      for (let i = 0; i < H1; i++) a += h1[c * H1 + i]! * l2w[i * H2 + k]! + m1[c * H1 + i]! * l2w[(H1 + i) * H2 + k]!;
      h2[c * H2 + k] = a > 0 ? a : 0;
    }
    for (let j = 0; j < J; j++) {
      let a = sb[j]!;
      for (let k = 0; k < H2; k++) a += h2[c * H2 + k]! * sw[k * J + j]!;
      sensitivity[c * J + j] = (a > 20 ? a : Math.log1p(Math.exp(a))) * sScale[j]!;
    }
  }
  for (let gr = 0; gr < rows / REGION_CELLS; gr++) {
    for (let gq = 0; gq < cols / REGION_CELLS; gq++) {
      let a = rb[0]!;
      for (let k = 0; k < H2; k++) {
        let m = -Infinity;
        for (let dr = 0; dr < REGION_CELLS; dr++) for (let dq = 0; dq < REGION_CELLS; dq++) m = Math.max(m, h2[((gr * REGION_CELLS + dr) * cols + gq * REGION_CELLS + dq) * H2 + k]!);
        a += m * rw[k]!;
      }
      risk[gr * (cols / REGION_CELLS) + gq] = 1 / (1 + Math.exp(-a));
    }
  }
}

describe("forwardCells", () => {
  it("gives the same bits as the plain loops, and re-lays the weights when given others", () => {
    const rows = 8;
    const cols = 12;
    const features = new Float32Array(rows * cols * HARNESS_CELL_CHANNELS);
    for (let i = 0; i < features.length; i++) features[i] = Math.sin(0.37 * i) * 1.7;
    // The default widths (the unrolled second layer) twice, then other widths (the general loop).
    const hs = [new SpatialHarness({ seed: 5 }), new SpatialHarness({ seed: 6 }), new SpatialHarness({ seed: 7, hidden1: 5, hidden2: 4 })];
    let ws = spatialWorkspace(hs[0]!.snapshotWeights(), rows * cols);
    for (const h of hs) {
      const w = h.snapshotWeights();
      if (w.hidden1 !== 8) ws = spatialWorkspace(w, rows * cols);
      const risk = new Float32Array(6);
      const sens = new Float32Array(rows * cols * NUM_SENSITIVITY_DIMS);
      const riskRef = new Float32Array(6);
      const sensRef = new Float32Array(rows * cols * NUM_SENSITIVITY_DIMS);
      forwardCells(w, features, rows, cols, ws, risk, sens);
      referenceForwardCells(w, features, rows, cols, riskRef, sensRef);
      expect(Array.from(sens)).toEqual(Array.from(sensRef));
      expect(Array.from(risk)).toEqual(Array.from(riskRef));
      h.dispose();
    }
  });
});

describe("spatialDelta", () => {
  const rows = 8;
  const cols = 8;
  const cells = rows * cols;
  const sens = new Float32Array(cells * 3).fill(1);
  const risk = Float32Array.from([0, 1, 0.5, 0]);

  it("is <= 0, zero where the risk or the rates are zero, and clipped per region", () => {
    const delta = new Float32Array(cells);
    const st = spatialDelta(risk, sens, [0, 0, 4], 0.3, rows, cols, 0.5, delta);
    expect(delta.every((d) => d <= 0)).toBe(true);
    expect(delta[0]).toBe(0); // region 0: r = 0
    expect(delta[4]).toBeLessThan(0); // region 1
    let ss = 0;
    for (let r = 0; r < 4; r++) for (let q = 4; q < 8; q++) ss += delta[r * cols + q]! ** 2;
    expect(Math.sqrt(ss)).toBeCloseTo(0.5, 5);
    expect(st.clippedRegions).toBe(2);
    expect(st.activeRegions).toBe(2);
    spatialDelta(risk, sens, [0, 0, 0], 0.3, rows, cols, 0.5, delta);
    expect(delta.every((d) => d === 0)).toBe(true);
    const bad = Float32Array.from(sens);
    bad[70] = NaN;
    expect(spatialDelta(risk, bad, [0, 0, 4], 0.3, rows, cols, 0.5, delta).rejected).toBe(true);
    expect(delta.every((d) => d === 0)).toBe(true);
  });

  it("lowers the free logit and raises the near-threat probability", () => {
    const logits = new Float32Array(2 * 5);
    logits.set([2, 0, 0, 0, -1, 2, 0, 0, 0, -1]);
    const corrected = applySpatialDelta(logits, Float32Array.from([0, -0.5]), new Float32Array(10));
    const probs = new Float32Array(8);
    const threat = new Float32Array(2);
    probabilitiesFromLogits(corrected, probs, threat);
    expect(threat[1]).toBeGreaterThan(threat[0]!);
    expect(probs[4]).toBeLessThan(probs[0]!);
  });
});

describe("SpatialHarnessRuntime", () => {
  it("corrects only while moving and never lowers a cell's near-threat probability", () => {
    const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), 64, 64);
    const logits = new Float32Array(64 * 5);
    for (let i = 0; i < logits.length; i++) logits[i] = Math.cos(i);
    const rgb = new Uint8Array(64 * 64 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37) % 251;
    const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 0 };
    rt.step(logits, rgb, nav, 0);
    expect(rt.delta.every((d) => d === 0)).toBe(true);
    const raw = new Float32Array(64);
    probabilitiesFromLogits(logits, new Float32Array(256), raw);
    const info = rt.step(logits, rgb, { ...nav, forwardSpeed_m_s: 4, yaw_rad: 0.1 }, 0.25);
    expect(rt.rates[0]).toBeCloseTo(0.4, 5);
    expect(rt.rates[2]).toBe(4);
    expect(info.maxAbs).toBeGreaterThan(0);
    expect(info.maxRegionNorm).toBeLessThanOrEqual(0.5 + 1e-6);
    for (let c = 0; c < 64; c++) expect(rt.threat[c]).toBeGreaterThanOrEqual(raw[c]! - 1e-6);
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 48, 64)).toThrow("multiples of 32");
  });
});

describe("SpatialHarnessRuntime runaway alarm", () => {
  const fly = (runawayDelta: number): { runaway: boolean; lambda: number }[] => {
    const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), 64, 64, { runawayDelta, regionClip: 8 });
    const logits = new Float32Array(64 * 5);
    for (let i = 0; i < logits.length; i++) logits[i] = Math.cos(i);
    const rgb = new Uint8Array(64 * 64 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37) % 251;
    const out: { runaway: boolean; lambda: number }[] = [];
    for (let k = 0; k < 7; k++) {
      const info = rt.step(logits, rgb, { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4, yaw_rad: 0.1 * (k % 2) }, 0.25 * k);
      expect(info.maxAbs).toBeGreaterThan(1e-4);
      out.push({ runaway: info.runaway, lambda: info.lambda });
    }
    return out;
  };

  it("halves lambda after three steps above the level it is given, and never without a level", () => {
    // The forward speed is a rate from the first step: steps 0-2 are above 1e-4, the alarm on step 2 (and 5),
    // and lambda is halved from step 3 on (the schedule's own change per step is 1 % at most).
    const low = fly(1e-4);
    expect(low.map((s) => s.runaway)).toEqual([false, false, true, false, false, true, false]);
    expect(low[3]!.lambda).toBeLessThan(0.6 * low[2]!.lambda);
    expect(low[6]!.lambda).toBeLessThan(0.6 * low[5]!.lambda);
    const none = fly(Infinity);
    expect(none.some((s) => s.runaway)).toBe(false);
    expect(none[6]!.lambda).toBeGreaterThan(0.6 * none[2]!.lambda);
    expect(() => new SpatialHarnessRuntime(new SpatialHarness(), 64, 64, { runawayDelta: Number.NaN })).toThrow("runawayDelta=NaN, expected > 0");
    // The node parameter's 0 means no alarm.
    expect(alarmLevelOf(0)).toBe(Infinity);
    expect(alarmLevelOf(0.6)).toBe(0.6);
  });
});

describe("SpatialHarnessRuntime.prepare (the image side ahead of the detector)", () => {
  const logits = new Float32Array(64 * 5).map((_, i) => Math.cos(0.3 * i) * 2);
  const rgb = new Uint8Array(64 * 64 * 3).map((_, i) => (i * 53) % 251);
  const other = new Uint8Array(64 * 64 * 3);
  const other0 = other;
  const nav = { ...makeNavigation(), altitude_m: 8, pitch_rad: 0.05, forwardSpeed_m_s: 3 };
  const run = (steps: (rt: SpatialHarnessRuntime) => void): SpatialHarnessRuntime => {
    const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), 64, 64);
    steps(rt);
    return rt;
  };
  const same = (a: SpatialHarnessRuntime, b: SpatialHarnessRuntime): void => {
    expect(Array.from(b.features)).toEqual(Array.from(a.features));
    expect(Array.from(b.delta)).toEqual(Array.from(a.delta));
    expect(Array.from(b.threat)).toEqual(Array.from(a.threat));
    expect(Array.from(b.imagined)).toEqual(Array.from(a.imagined));
  };

  it("gives the step the same bits without reading the frame again", () => {
    const plain = run((rt) => {
      rt.step(logits, rgb, nav, 0);
      rt.step(logits, rgb, { ...nav, yaw_rad: 0.1 }, 0.25);
    });
    const ahead = run((rt) => {
      rt.prepare(rgb, nav, 0);
      rt.step(logits, other, nav, 0); // not read: prepared
      rt.prepare(rgb, nav, 0.25);
      rt.step(logits, other, { ...nav, yaw_rad: 0.1 }, 0.25);
    });
    same(plain, ahead);
    expect(ahead.preparedSteps).toEqual({ reused: 2, steps: 2 });
  });

  it("recomputes for another frame time, and keeps the frame's own attitude for the same frame", () => {
    const moved = { ...nav, altitude_m: 9 };
    const plain = run((rt) => rt.step(logits, rgb, moved, 0));
    const other = run((rt) => {
      rt.prepare(other0, moved, 0.25);
      rt.step(logits, rgb, moved, 0);
    });
    same(plain, other);
    expect(other.preparedSteps).toEqual({ reused: 0, steps: 1 });
    // Prepared at altitude 8 (the frame's), stepped with the newer 9: the imagined view is the frame's.
    const framesOwn = run((rt) => rt.step(logits, rgb, { ...moved, altitude_m: 8 }, 0));
    const ahead = run((rt) => {
      rt.prepare(rgb, nav, 0);
      rt.step(logits, other0, moved, 0);
    });
    same(framesOwn, ahead);
    expect(ahead.preparedSteps).toEqual({ reused: 1, steps: 1 });
  });
});

describe("rollouts, harness training, paired rows (fake environment)", () => {
  it("records S_gt and risk targets, and training moves only the harness", () => {
    const detector = tinyDetector();
    const flight = flySpatialRollout(new FakeEnvironment(0), { detector, recordEvery: 1, horizonSteps: 10 });
    expect(flight.samples.length).toBeGreaterThan(3);
    const s0 = flight.samples[0]!;
    expect(s0.features.length).toBe(64 * HARNESS_CELL_CHANNELS);
    expect(s0.sgt.length).toBe(64 * NUM_SENSITIVITY_DIMS);
    expect(s0.sgt.some((v) => v > 0)).toBe(true);
    if (flight.outcome.type === "collision") expect(flight.samples.some((s) => s.riskTarget.some((v) => v === 1))).toBe(true);
    else expect(flight.samples.every((s) => s.riskTarget.every((v) => v === 0))).toBe(true);
    const before = detector.params.snapshot().map((w) => Float32Array.from(w.values));
    const harness = new SpatialHarness({ seed: 2 });
    const h0 = harness.params.snapshot().map((w) => Float32Array.from(w.values));
    const r = trainSpatialHarness(harness, flight.samples, flight.samples, { rows: 8, cols: 8, steps: 20, batch: 4, learningRate: 0.01, seed: 1, reportEvery: 10 });
    expect(r.curve.length).toBe(2);
    expect(Number.isFinite(r.finalLoss)).toBe(true);
    detector.params.snapshot().forEach((w, i) => expect(Array.from(w.values)).toEqual(Array.from(before[i]!)));
    expect(harness.params.snapshot().some((w, i) => w.values.some((v, k) => v !== h0[i]![k]))).toBe(true);
    detector.dispose();
    harness.dispose();
  });

  it("the contact risk target marks exactly the regions holding a near-threat cell, whatever the outcome", () => {
    const detector = tinyDetector();
    const flight = flySpatialRollout(new FakeEnvironment(0), { detector, recordEvery: 1, horizonSteps: 10, riskTarget: "contact" });
    let positives = 0;
    for (const s of flight.samples) {
      for (let region = 0; region < 4; region++) {
        // 8 x 8 cells, regions of 4 x 4 cells: region (R, C) holds rows 4R..4R+3 and columns 4C..4C+3.
        const R = Math.floor(region / 2), C = region % 2;
        let near = 0;
        for (let r = 4 * R; r < 4 * R + 4; r++) for (let c = 4 * C; c < 4 * C + 4; c++) near += s.near[r * 8 + c]!;
        expect(s.riskTarget[region]).toBe(near > 0 ? 1 : 0);
        positives += s.riskTarget[region]!;
      }
    }
    expect(positives).toBeGreaterThan(0);
    detector.dispose();
  });

  it("flies every row on the same test seeds and compares ON with OFF", () => {
    const detector = tinyDetector(4);
    const harness = new SpatialHarness({ seed: 6 });
    const report = evaluateHarnessRows(
      [
        { name: "off", detector },
        { name: "on", detector, harness: { model: harness, apply: true, options: { regionClip: 50 } } },
      ],
      { split: "test", splitOf, factory: (s) => new FakeEnvironment(s), flights: 3, conditions: ["nominal"], pairs: [["on", "off"]], apEvery: 1 },
    );
    const c = report.conditions[0]!;
    expect(c.seeds).toEqual([8, 9, 18]);
    expect(c.rows.map((r) => r.name)).toEqual(["off", "on"]);
    for (const r of c.rows) expect(r.flights.map((f) => f.outcome.seed)).toEqual(c.seeds);
    expect(c.rows[0]!.frames.all).toBeGreaterThan(0);
    expect(c.pairs.length).toBe(1);
    const text = formatHarnessReport(report);
    expect(text).toContain("| on |");
    expect(text).toContain("McNemar exact p");
    expect(() => evaluateHarnessRows([], { split: "train", splitOf, factory: (s) => new FakeEnvironment(s), flights: 1 })).toThrow('split="train"');
    detector.dispose();
    harness.dispose();
  });

  it("lists the flights whose outcome differs with the first different decision", () => {
    const trace = (actions: number[]) => actions.map((action, step) => ({ step, time_s: step / 4, action, maxThreat: 0, maxRisk: 0, maxDelta: 0, lambda: 0.3 }));
    const row = (name: string, outcomes: HarnessRow["flights"]): HarnessRow => ({ name, flights: outcomes } as unknown as HarnessRow);
    const on = row("on", [
      { outcome: { type: "goal", seed: 1, time_s: 9 }, trace: trace([0, 0, 3, 3]) },
      { outcome: { type: "goal", seed: 2, time_s: 9 }, trace: trace([0, 0]) },
    ]);
    const off = row("off", [
      { outcome: { type: "collision", seed: 1, time_s: 2, obstacle: "wire" }, trace: trace([0, 0, 0, 0]) },
      { outcome: { type: "goal", seed: 2, time_s: 9 }, trace: trace([0, 0]) },
    ]);
    const p = comparePaired(on, off);
    expect(p.offOnlyCollisions).toEqual([1]);
    expect(p.onOnlyCollisions).toEqual([]);
    expect(p.differing.map((d) => [d.seed, d.firstDifferentStep])).toEqual([[1, 2]]);
    expect(p.flightsWithDifferentDecisions).toBe(1);
  });
});

describe("correctionSummary", () => {
  it("summarises the applied correction: max|delta| percentiles, steps above the runaway level, lambda", () => {
    const flight = (deltas: number[], lambdas: number[]) => ({
      outcome: { type: "goal" as const, seed: 1, time_s: 1 },
      trace: deltas.map((maxDelta, step) => ({ step, time_s: step / 4, action: 0, maxThreat: 0, maxRisk: 0, maxDelta, lambda: lambdas[step]! })),
    });
    const k = correctionSummary([flight([0, 0.2, 0.8, 1.0], [0.3, 0.3, 0.15, 0.15]), flight([0.55], [0.3])]);
    expect(k).toEqual({
      decisions: 5, maxDeltaP50: 0.55, maxDeltaP90: expect.closeTo(0.92, 6), maxDeltaP99: expect.closeTo(0.992, 6), maxDeltaMax: 1,
      // No flight has 5 decisions: no window for the safety node's rule.
      sustainedMax: 0, clippedShare: 0, lambdaP50: 0.3, lambdaP10: 0.15, runawayLevel: 0.6, aboveRunaway: 0.4,
    });
    // The level is the row's: counted at 0.9, only the 1.0 is above.
    expect(correctionSummary([flight([0, 0.2, 0.8, 1.0], [0.3, 0.3, 0.15, 0.15])], 0.9)).toMatchObject({ runawayLevel: 0.9, aboveRunaway: 0.25 });
    // An OFF arm applies nothing: no summary.
    expect(correctionSummary([flight([0, 0], [0.3, 0.3])])).toBeUndefined();
  });

  it("finds the level a 5-in-a-row hover rule would trip at (a spike is not sustained) and the share of clipped decisions", () => {
    const deltas = [0.7, 0.9, 0.8, 0.75, 0.95, 0.2, 1.5, 1.6, 1.4, 1.3];
    const trace = deltas.map((maxDelta, step) => ({ step, time_s: step / 4, action: 0, maxThreat: 0, maxRisk: 0, maxDelta, lambda: 0.01, ...(step === 6 || step === 7 ? { clipped: 3 } : {}) }));
    // A flight's windows are its own: the second flight's four decisions at 1.2 are not joined to the first one's last.
    const other = [1.2, 1.2, 1.2, 1.2].map((maxDelta, step) => ({ step, time_s: step / 4, action: 0, maxThreat: 0, maxRisk: 0, maxDelta, lambda: 0.01 }));
    const k = correctionSummary([{ outcome: { type: "goal" as const, seed: 1, time_s: 2.5 }, trace }, { outcome: { type: "goal" as const, seed: 2, time_s: 1 }, trace: other }])!;
    expect(k.sustainedMax).toBeCloseTo(0.7, 6);
    expect(k.maxDeltaMax).toBe(1.6);
    expect(k.clippedShare).toBeCloseTo(2 / 14, 6);
  });
});

describe("risk targets (fake environment)", () => {
  it("the wire-contact target is the contact target for wires and ignores other structure", () => {
    expect(Array.from(wireOnly(Uint8Array.from([0, 1, 2, 3, 1])))).toEqual([0, 1, 0, 0, 1]);
    // The simulator's mask classes are the detection classes' ids.
    expect(Array.from(wireOnly(Uint8Array.from([CLASS_WIRE, CLASS_BRANCH, CLASS_POLE_TRUNK])))).toEqual([CLASS_WIRE, 0, 0]);
    // The same flight with its wire relabelled as a branch (class 2): contact sees it, wire-contact does not.
    class BranchEnvironment extends FakeEnvironment {
      override render(rgb: Uint8Array, mask?: Uint8Array, truth?: RenderTruth): void {
        super.render(rgb, mask, truth);
        truth?.visibleMask?.forEach((v, i, a) => (a[i] = v === 1 ? 2 : v));
      }
    }
    const detector = tinyDetector();
    const targets = (env: FakeEnvironment, riskTarget: RiskTarget): number[] =>
      flySpatialRollout(env, { detector, recordEvery: 1, horizonSteps: 10, riskTarget }).samples.flatMap((s) => Array.from(s.riskTarget));
    const wires = targets(new FakeEnvironment(0), "contact");
    expect(wires.some((v) => v === 1)).toBe(true);
    expect(targets(new FakeEnvironment(0), "wire-contact")).toEqual(wires);
    expect(targets(new BranchEnvironment(0), "contact")).toEqual(wires);
    expect(targets(new BranchEnvironment(0), "wire-contact").every((v) => v === 0)).toBe(true);
    detector.dispose();
  });

  it("the wire-gap target keeps the near wire cells the student leaves unflagged", () => {
    expect(Array.from(wireGapCells([1, 1, 1, 0, 0], [0.1, WIRE_GAP_FLAG, 0.49, 0.1, 0.9]))).toEqual([1, 0, 1, 0, 0]);
    expect(() => wireGapCells([1, 0], [0.1])).toThrow("wireGapCells: near 2, threat 1, out 2 cells");
    // A student whose near-threat output is pinned (bias +-20 on its threat channel): flagging
    // everything leaves no gap; flagging nothing leaves every near wire cell a gap.
    const fly = (detector: Teacher, riskTarget: RiskTarget) => flySpatialRollout(new FakeEnvironment(0), { detector, recordEvery: 1, horizonSteps: 10, riskTarget }).samples;
    const sure = pinnedThreatDetector(20);
    const blind = pinnedThreatDetector(-20);
    const contact = fly(blind, "wire-contact");
    expect(contact.some((s) => s.riskTarget.some((v) => v === 1))).toBe(true);
    expect(fly(blind, "wire-gap").map((s) => Array.from(s.targetCells ?? []))).toEqual(contact.map((s) => Array.from(s.targetCells ?? [])));
    expect(fly(sure, "wire-gap").every((s) => s.riskTarget.every((v) => v === 0) && s.targetCells?.every((v) => v === 0))).toBe(true);
    expect(fly(sure, "collision").every((s) => s.targetCells === undefined)).toBe(true);
    sure.dispose();
    blind.dispose();
  });
});

describe("mcnemarExactP", () => {
  it("is the two-sided binomial tail of the discordant pairs", () => {
    expect(mcnemarExactP(0, 0)).toBe(1);
    expect(mcnemarExactP(0, 5)).toBeCloseTo(2 / 32, 10);
    expect(mcnemarExactP(9, 1)).toBeCloseTo((2 * 11) / 1024, 10);
    expect(mcnemarExactP(3, 3)).toBe(1);
  });
});
