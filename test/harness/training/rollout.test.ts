import { collectRollout, createRollout, returnsToGo, stateChangeRates, type RolloutEnvironment } from "../../../src/harness/training/Rollout";
import { ReplayBuffer } from "../../../src/harness/training/ReplayBuffer";
import { Rng } from "../../../src/util/Rng";
import { sampleWithTemperature, softmaxWithTemperature } from "../../../src/harness/training/sampleAction";
import { environmentReward } from "../../../src/harness/training/EnvironmentReward";

/** A 1-D corridor: position x, collision (reward -1) at x >= wall; features [x, 2x]. */
class CorridorEnv implements RolloutEnvironment<{ x: number }> {
  x = 0;
  constructor(private readonly wall: number) {}
  observe(): { x: number } {
    return { x: this.x };
  }
  stateFeatures(obs: { x: number }, out: Float32Array): void {
    out[0] = obs.x;
    out[1] = 2 * obs.x;
  }
  step(action: number): { reward: number; done: boolean } {
    this.x += action; // action k moves k units
    return environmentReward(this.x >= this.wall ? { type: "collision" } : { type: "running" });
  }
}

const fixedPolicy = (logits: number[]) => ({
  logits: (_obs: unknown, out: Float32Array) => out.set(logits),
});

describe("collectRollout", () => {
  it("takes the argmax first, fills (s, a, r, s') and zero-pads after a collision", () => {
    const env = new CorridorEnv(2);
    const r = createRollout<{ x: number }>({ length: 3, actions: 3, features: 2 });
    // Action 2 dominates: argmax at step 0 moves x to 2 -> collision, episode over after 1 step.
    collectRollout(env, fixedPolicy([0, 0, 50]), r, { rng: new Rng(1) });
    expect(r.steps).toBe(1);
    expect(Array.from(r.actions)).toEqual([2, 0, 0]);
    expect(Array.from(r.rewards)).toEqual([-1, 0, 0]);
    expect(Array.from(r.valid)).toEqual([1, 0, 0]);
    expect(r.negativeWithinRollout).toBe(1);
    expect(r.terminated).toBe(1);
    // features s_0 = [0,0], s_1 = [2,4], then zero padding: shape (K+1) x D = 8.
    expect(Array.from(r.features)).toEqual([0, 0, 2, 4, 0, 0, 0, 0]);
    expect(r.observations).toEqual([{ x: 0 }, undefined, undefined]);
    expect(r.finalObservation).toEqual({ x: 2 });
    expect(Array.from(r.logits)).toEqual([0, 0, 50, 0, 0, 0, 0, 0, 0]);
    expect(r.logProbs[0]).toBeCloseTo(0, 6);
    // returns-to-go and |ds/dt| with dt = 0.5 s: |2-0|/0.5 = 4, |4-0|/0.5 = 8 over one valid step.
    expect(Array.from(returnsToGo(r, new Float32Array(3)))).toEqual([-1, 0, 0]);
    expect(Array.from(stateChangeRates(r, 0.5, new Float32Array(2)))).toEqual([4, 8]);
  });

  it("runs the full length when nothing ends the episode", () => {
    const env = new CorridorEnv(1000);
    const r = createRollout<{ x: number }>({ length: 3, actions: 2, features: 2 });
    collectRollout(env, fixedPolicy([0, 1]), r, { rng: new Rng(3) });
    expect(r.steps).toBe(3);
    expect(Array.from(r.valid)).toEqual([1, 1, 1]);
    expect(r.actions[0]).toBe(1); // argmax
    expect(r.terminated).toBe(0);
    expect(r.negativeWithinRollout).toBe(0);
  });

  it("samples later steps at temperature 1.2: frequencies match softmax(logits / 1.2)", () => {
    // logits [0, 1, 2]: softmax(l/1.2) = exp([0, .8333, 1.6667]) / sum = [.1163, .2677, .6160]
    // (python: math.exp). 20,000 draws: binomial sd <= sqrt(.25/20000) = .0035; tolerance 3 sd.
    const env = new CorridorEnv(1e12);
    const r = createRollout<{ x: number }>({ length: 3, actions: 3, features: 2 });
    const rng = new Rng(42);
    const counts = [0, 0, 0];
    for (let i = 0; i < 10000; i++) {
      collectRollout(env, fixedPolicy([0, 1, 2]), r, { rng });
      expect(r.actions[0]).toBe(2);
      counts[r.actions[1]!]! += 1;
      counts[r.actions[2]!]! += 1;
    }
    const expected = [0.1163, 0.2677, 0.616];
    counts.forEach((c, i) => expect(Math.abs(c / 20000 - expected[i]!)).toBeLessThan(0.0106));
    // at temperature 1 the top action would be taken 66.5 % of the time: 1.2 is measurably flatter.
    expect(counts[2]! / 20000).toBeLessThan(0.645);
  });

  it("softmax is stable for huge logits and rejects bad temperatures", () => {
    const p = softmaxWithTemperature([1000, 1000], 1.2, new Float64Array(2));
    expect(Array.from(p)).toEqual([0.5, 0.5]);
    expect(() => softmaxWithTemperature([1], 0, new Float64Array(1))).toThrow(/temperature=0, expected a finite number > 0/);
    expect(() => sampleWithTemperature([Number.NaN], 1, new Rng(1), new Float64Array(1))).toThrow(/logits\[0\]=NaN/);
  });
});

describe("ReplayBuffer", () => {
  it("computes S_gt exactly once per insert, however often samples are drawn", () => {
    const calls: number[] = [];
    const buf = new ReplayBuffer<number>(3, (s) => {
      calls.push(s);
      return Float32Array.of(s, 2 * s);
    });
    for (let i = 0; i < 5; i++) buf.insert(i);
    expect(calls).toEqual([0, 1, 2, 3, 4]);
    expect(buf.size).toBe(3); // bounded: the two oldest were overwritten
    expect(buf.all().map((e) => e.sample).sort()).toEqual([2, 3, 4]);
    const rng = new Rng(7);
    for (let i = 0; i < 100; i++) {
      for (const e of buf.sample(4, rng)) expect(Array.from(e.sGt)).toEqual([e.sample, 2 * e.sample]);
    }
    expect(calls.length).toBe(5);
    expect(buf.sGtEvaluations).toBe(5);
  });

  it("rejects non-finite S_gt, bad capacity and sampling when empty", () => {
    expect(() => new ReplayBuffer<number>(0, () => new Float32Array(1))).toThrow(/capacity=0/);
    const buf = new ReplayBuffer<number>(2, () => Float32Array.of(Number.NaN));
    expect(() => buf.sample(1, new Rng(1))).toThrow(/empty replay buffer/);
    expect(() => buf.insert(1)).toThrow(/S_gt\[0\]=NaN/);
  });
});
