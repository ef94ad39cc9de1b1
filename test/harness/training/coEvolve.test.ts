import * as tf from "@tensorflow/tfjs";
import { coEvolve, policyVariables } from "../../../src/harness/training/coEvolve";
import { LambdaSchedule } from "../../../src/harness/correction/LambdaSchedule";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { Student } from "../../../src/harness/models/Student";
import { SeedSource, type Split } from "../../../src/harness/data/SeedSplit";
import { FakeEnvironment } from "./fakeEnvironment";
import { initBackend } from "../../../src/harness/backend/initBackend";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
const snapshot = (vars: tf.Variable[]): Float32Array[] => vars.map((v) => v.dataSync<"float32">().slice());
const same = (a: Float32Array[], b: Float32Array[]): boolean => a.every((x, i) => x.every((v, j) => v === b[i]?.[j]));

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

function tiny() {
  const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 1 });
  const harness = new HarnessNet({ seed: 2 });
  return { student, harness };
}

const schedule = { studentEvery: 6, harnessEvery: 12, logEvery: 6, deltaAlarm: 0.6, sustainedLogs: 3, lambdaCut: 0.5 };

describe("coEvolve", () => {
  it("harness phase (student frozen) moves only harness weights; S_gt once per replay insert", () => {
    const { student, harness } = tiny();
    const before = snapshot(student.trainableVariables());
    const hBefore = snapshot(harness.trainableVariables());
    const source = new SeedSource("train", splitOf);
    const stats = coEvolve({
      student,
      harness,
      factory: (seed) => new FakeEnvironment(seed),
      source,
      seeds: [1, 2, 3],
      steps: 24,
      trainStudent: false,
      rngSeed: 1,
      lambda: new LambdaSchedule(),
      schedule,
      harnessTraining: { iterations: 2, minibatch: 4, learningRate: 1e-2, riskLoss: "hinge" },
    });
    expect(stats.harnessUpdates).toBeGreaterThanOrEqual(2);
    expect(stats.studentUpdates).toBe(0);
    expect(same(before, snapshot(student.trainableVariables()))).toBe(true);
    expect(same(hBefore, snapshot(harness.trainableVariables()))).toBe(false);
    // one replay insert per rollout, each computing S_gt exactly once
    expect(stats.sGtEvaluations).toBeGreaterThanOrEqual(Math.ceil(24 / 3));
    expect(stats.sGtEvaluations).toBeLessThanOrEqual(24);
    expect(source.issued.every((s) => splitOf(s) === "train")).toBe(true);
  });

  it("student phase (harness frozen) moves only the student's policy head", () => {
    const { student, harness } = tiny();
    const hBefore = snapshot(harness.trainableVariables());
    const policyNames = new Set(policyVariables(student).map((v) => v.name));
    const others = student.trainableVariables().filter((v) => !policyNames.has(v.name));
    const othersBefore = snapshot(others);
    const policyBefore = snapshot(policyVariables(student));
    const stats = coEvolve({
      student,
      harness,
      factory: (seed) => new FakeEnvironment(seed),
      source: new SeedSource("train", splitOf),
      seeds: [1, 2],
      steps: 18,
      trainStudent: true,
      rngSeed: 2,
      lambda: new LambdaSchedule(),
      schedule: { ...schedule, harnessEvery: 1e9 },
      ppo: { epochs: 2, minibatch: 4, learningRate: 1e-2 },
    });
    expect(stats.studentUpdates).toBeGreaterThanOrEqual(2);
    expect(stats.harnessUpdates).toBe(0);
    expect(same(hBefore, snapshot(harness.trainableVariables()))).toBe(true);
    expect(same(othersBefore, snapshot(others))).toBe(true);
    expect(same(policyBefore, snapshot(policyVariables(student)))).toBe(false);
    expect(stats.maxAbsDeltaLog.length).toBe(3);
  });

  it("refuses a seed from another split", () => {
    const { student, harness } = tiny();
    expect(() =>
      coEvolve({
        student,
        harness,
        factory: (seed) => new FakeEnvironment(seed),
        source: new SeedSource("train", splitOf),
        seeds: [8],
        steps: 3,
        trainStudent: false,
        rngSeed: 1,
        lambda: new LambdaSchedule(),
      }),
    ).toThrow(/seed 8 belongs to the test split/);
  });
});
