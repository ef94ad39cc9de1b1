/**
 * The PPO ablation of the harness phase (issue 13): the harness's region risk as a per-region
 * Bernoulli policy (riskSampling.ts), the discounted terminal-reward returns, and the clipped
 * PPO update (ppoSpatialHarness.ts) moving the risk toward the actions with a positive advantage.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { Teacher } from "../../../src/harness/models/Teacher";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { normalisedAdvantages, ppoHarnessUpdate } from "../../../src/harness/spatial/ppoSpatialHarness";
import { assignReturns, RiskSampler } from "../../../src/harness/spatial/riskSampling";
import { flySpatialRollout, type SpatialSample } from "../../../src/harness/spatial/spatialRollouts";
import { stackSamples } from "../../../src/harness/spatial/trainSpatialHarness";
import { makeNavigation } from "../../../src/control/navigation";
import { FakeEnvironment } from "../training/fakeEnvironment";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("RiskSampler (the harness as a per-region Bernoulli policy)", () => {
  it("draws a_k ~ Bernoulli(r_k), holds the draw until asked again, and repeats per seed", () => {
    const s = new RiskSampler({ seed: 3 }, 17);
    const counts = [0, 0, 0];
    const n = 4000;
    for (let i = 0; i < n; i++) {
      const risk = Float32Array.from([0, 0.25, 1]);
      s.drawNext = true;
      s.apply(risk);
      expect(Array.from(s.last!.risk)).toEqual([0, 0.25, 1]);
      for (let k = 0; k < 3; k++) {
        expect(risk[k]).toBe(s.last!.action[k]);
        counts[k]! += risk[k]!;
      }
    }
    expect(counts[0]).toBe(0);
    expect(counts[2]).toBe(n);
    expect(Math.abs(counts[1]! / n - 0.25)).toBeLessThan(0.03);
    // Held: without drawNext the last actions are written whatever the new risk.
    const held = Array.from(s.last!.action);
    const risk = Float32Array.from([0.9, 0.9, 0.1]);
    s.apply(risk);
    expect(Array.from(risk)).toEqual(held);
    const draws = (flightSeed: number): number[] => {
      const x = new RiskSampler({ seed: 3 }, flightSeed);
      const out: number[] = [];
      for (let i = 0; i < 50; i++) {
        const r = new Float32Array(4).fill(0.5);
        x.drawNext = true;
        x.apply(r);
        out.push(...r);
      }
      return out;
    };
    expect(draws(17)).toEqual(draws(17));
    expect(draws(18)).not.toEqual(draws(17));
    expect(() => new RiskSampler({ seed: 1 }, 0).apply(Float32Array.from([NaN]))).toThrow("expected a probability");
  });

  it("returns are gamma^(T - t) times the terminal reward", () => {
    const recs = [0, 4, 10].map((step) => ({ step, policy: { risk: new Float32Array(1), action: new Uint8Array(1), ret: 0 } }));
    assignReturns(recs, 10, -1, 0.9);
    expect(recs.map((r) => r.policy.ret)).toEqual([-Math.pow(0.9, 10), -Math.pow(0.9, 6), -1]);
    expect(() => assignReturns(recs, 10, 1, 1.5)).toThrow("gamma");
    expect(() => assignReturns(recs, 5, 1)).toThrow("after the flight's end");
  });

  it("the runtime forms its delta from the policy's overwrite, after the lambda schedule read the risk", () => {
    const logits = new Float32Array(64 * 5).map((_, i) => Math.cos(i));
    const rgb = new Uint8Array(64 * 64 * 3).map((_, i) => (i * 37) % 251);
    const nav = { ...makeNavigation(), altitude_m: 8, forwardSpeed_m_s: 4 };
    const run = (riskPolicy?: (r: Float32Array) => void): { rt: SpatialHarnessRuntime; maxRisk: number } => {
      const rt = new SpatialHarnessRuntime(new SpatialHarness({ seed: 5 }), 64, 64, { regionClip: 50, ...(riskPolicy === undefined ? {} : { riskPolicy }) });
      rt.step(logits, rgb, nav, 0);
      const info = rt.step(logits, rgb, { ...nav, yaw_rad: 0.1 }, 0.25);
      return { rt, maxRisk: info.maxRisk };
    };
    const plain = run();
    const off = run((r) => r.fill(0));
    const on = run((r) => r.fill(1));
    expect(plain.rt.delta.some((d) => d < 0)).toBe(true);
    expect(off.rt.delta.every((d) => d === 0)).toBe(true);
    expect(off.maxRisk).toBe(plain.maxRisk);
    // r_k = 1 everywhere corrects every cell at least as much as the network's r_k < 1.
    on.rt.delta.forEach((d, c) => expect(d).toBeLessThanOrEqual(plain.rt.delta[c]!));
  });
});

describe("PPO update of the harness", () => {
  const tinyDetector = (): Teacher => new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 1, threatLogit: true });

  it("a sampled rollout records its draws and the discounted terminal reward", () => {
    const detector = tinyDetector();
    const harness = new SpatialHarness({ seed: 2 });
    const flight = flySpatialRollout(new FakeEnvironment(0), { detector, harness, recordEvery: 1, policy: { seed: 1, gamma: 0.9 } });
    expect(flight.samples.length).toBeGreaterThan(3);
    const end = flight.steps - 1;
    const sign = flight.outcome.type === "collision" ? -1 : flight.outcome.type === "goal" ? 1 : 0;
    for (const s of flight.samples) {
      expect(s.policy!.action.length).toBe(4);
      expect(s.policy!.ret).toBeCloseTo(sign * Math.pow(0.9, end - s.step), 10);
    }
    expect(() => flySpatialRollout(new FakeEnvironment(0), { detector, policy: { seed: 1 } })).toThrow("needs the harness");
    detector.dispose();
    harness.dispose();
  });

  it("raises the risk of a region where drawing it on was followed by a better return", () => {
    const detector = tinyDetector();
    const harness = new SpatialHarness({ seed: 2 });
    const flight = flySpatialRollout(new FakeEnvironment(1), { detector, harness, recordEvery: 1, policy: { seed: 1 } });
    // Synthetic credit: region 0 drawn on -> return +1, drawn off -> -1; the other regions' draws are noise.
    const samples: SpatialSample[] = flight.samples.map((s, i) => {
      const action = Uint8Array.from(s.policy!.action);
      action[0] = i % 2;
      return { ...s, policy: { risk: s.policy!.risk, action, ret: i % 2 === 1 ? 1 : -1 } };
    });
    const rows = 8, cols = 8;
    const region0 = (): number =>
      tf.tidy(() => {
        const risk = harness.forwardTensors(stackSamples(samples, rows, cols).x).risk; // [N, 2, 2]
        return tf.mean(tf.slice(risk, [0, 0, 0], [-1, 1, 1])).dataSync()[0]!;
      });
    const before = region0();
    const stats = ppoHarnessUpdate(harness, samples, { rows, cols, epochs: 4, batch: 4, learningRate: 0.01, seed: 1 });
    expect(stats).toBeDefined();
    expect(stats!.surrogate).toBeGreaterThan(0);
    expect(region0()).toBeGreaterThan(before + 0.02);
    // Equal returns carry no advantage: no update.
    expect(ppoHarnessUpdate(harness, samples.map((s) => ({ ...s, policy: { ...s.policy!, ret: 0 } })), { rows, cols, learningRate: 0.01, seed: 1 })).toBeUndefined();
    expect(() => ppoHarnessUpdate(harness, [{ ...samples[0]!, policy: undefined }, samples[1]!], { rows, cols, learningRate: 0.01, seed: 1 })).toThrow("flown without a policy");
    detector.dispose();
    harness.dispose();
  });

  it("normalises the returns to mean 0 and standard deviation 1", () => {
    const a = normalisedAdvantages([1, -1, 0, 0])!;
    expect(a.mean).toBe(0);
    expect(Array.from(a.advantages).reduce((s, v) => s + v * v, 0) / 4).toBeCloseTo(1, 6);
    expect(normalisedAdvantages([0.5, 0.5])).toBeUndefined();
    expect(normalisedAdvantages([])).toBeUndefined();
  });
});
