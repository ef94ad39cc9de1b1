/**
 * The detector stage on the fake environment's 64x64 frames (a dark wire line, visible, with its
 * depth): training on labels lowers both the class and the near-threat losses and the trained
 * detector ranks wire cells above background; behaviour cloning of a fixed teacher lowers the
 * distillation loss; the stage writes a validation curve, saves, and resumes from a checkpoint.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { generateFrames } from "../../../src/harness/data/generateFrames";
import { SeedSource, type Split } from "../../../src/harness/data/SeedSplit";
import { Teacher } from "../../../src/harness/models/Teacher";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { evaluateDetector, runDetectorStage } from "../../../src/harness/training/detectorStage";
import { trainDetector } from "../../../src/harness/training/trainDetector";
import { DEFAULT_CAMERA_EFFECTS } from "../../../src/vision/cameraEffects";
import { DEFAULT_GROUND_CLUTTER } from "../../../src/vision/groundClutter";
import { DEFAULT_FOLIAGE_CLUTTER } from "../../../src/vision/foliageClutter";
import { FakeEnvironment } from "./fakeEnvironment";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
const factory = (seed: number): FakeEnvironment => new FakeEnvironment(seed, 10, 5, 40);
const tiny = { channels: [6, 8, 8], headHidden: 8, seed: 3, context: [2], threatLogit: true } as const;

function dataset(split: Split, seeds: number[]): ReturnType<typeof generateFrames> {
  return generateFrames({ seeds, source: new SeedSource(split, splitOf), factory, stateDim: STATE_DIM, recordEvery: 2, maxFramesPerFlight: 8, explore: 0, rngSeed: 1 });
}

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("trainDetector with ground clutter (issue 14)", () => {
  const train = dataset("train", [0, 1, 2]);
  const run = (clutter?: typeof DEFAULT_GROUND_CLUTTER, foliage?: typeof DEFAULT_FOLIAGE_CLUTTER): number[] => {
    const model = new Teacher({ ...tiny });
    const losses: number[] = [];
    const layers = { ...(clutter === undefined ? {} : { clutter }), ...(foliage === undefined ? {} : { foliage }) };
    trainDetector(model, train, { steps: 4, batch: 4, crop: 32, learningRate: 5e-3, seed: 1, ...layers, onStep: (_s, l) => void losses.push(l.total) });
    model.dispose();
    return losses;
  };

  it("draws the clutter from its own stream: at chance 0 the run is the run without it, at chance 1 the pixels change", () => {
    const plain = run();
    expect(run({ ...DEFAULT_GROUND_CLUTTER, chance: 0 })).toEqual(plain);
    const cluttered = run({ ...DEFAULT_GROUND_CLUTTER, chance: 1 });
    expect(cluttered[0]).not.toBeCloseTo(plain[0]!, 6);
  });

  it("draws the foliage from a third stream: at chance 0 the run is the clutter run, at chance 1 the pixels change", () => {
    const cluttered = run({ ...DEFAULT_GROUND_CLUTTER, chance: 1 });
    expect(run({ ...DEFAULT_GROUND_CLUTTER, chance: 1 }, { ...DEFAULT_FOLIAGE_CLUTTER, chance: 0 })).toEqual(cluttered);
    expect(run(undefined, { ...DEFAULT_FOLIAGE_CLUTTER, chance: 1 })[0]).not.toBeCloseTo(run()[0]!, 6);
  });
});

describe("trainDetector", () => {
  const train = dataset("train", [0, 1, 2]);

  it("has visible masks and near cells in the recorded frames (the labels it trains on)", () => {
    expect(train.frames.length).toBeGreaterThan(10);
    expect(train.frames.every((f) => f.visibleMask !== undefined && f.near?.length === 64)).toBe(true);
    expect(train.frames.some((f) => (f.near ?? []).some((v) => v === 1))).toBe(true);
  });

  it("lowers the class and near-threat losses on labels and ranks wire cells first", () => {
    const model = new Teacher({ ...tiny });
    const losses: { cls: number; threat: number }[] = [];
    trainDetector(model, train, { steps: 60, batch: 4, crop: 32, learningRate: 5e-3, seed: 1, onStep: (_s, l) => void losses.push(l) });
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-10).map((l) => l.cls))).toBeLessThan(0.7 * mean(losses.slice(0, 10).map((l) => l.cls)));
    expect(mean(losses.slice(-10).map((l) => l.threat))).toBeLessThan(0.8 * mean(losses.slice(0, 10).map((l) => l.threat)));
    const report = evaluateDetector(model, dataset("val", [7, 17]));
    // Chance AP is the positive rate (one row of 8 is wire: ~0.125); a trained detector is far above.
    expect(report.visible.wire).toBeGreaterThan(0.5);
    expect(report.threat).toBeGreaterThan(0.3);
    model.dispose();
  });

  it("learns through camera-effect augmentation (issue 14), which changes what the detector sees", () => {
    const plain = new Teacher({ ...tiny });
    const augmented = new Teacher({ ...tiny });
    const first: number[] = [];
    trainDetector(plain, train, { steps: 1, batch: 4, crop: 32, learningRate: 5e-3, seed: 1, onStep: (_s, l) => void first.push(l.cls) });
    trainDetector(augmented, train, { steps: 60, batch: 4, crop: 32, learningRate: 5e-3, seed: 1, augment: { ...DEFAULT_CAMERA_EFFECTS, jpegChance: 0 }, onStep: (s, l) => void (s === 1 && first.push(l.cls)) });
    // Same weights, same crops (the effects draw from the same RNG after each crop): a different
    // first loss means the pixels changed. JPEG is left out here: jpeg-js under jest is slow, and
    // test/vision/cameraEffects.test.ts checks it.
    expect(first[1]).not.toBeCloseTo(first[0]!, 6);
    expect(evaluateDetector(augmented, dataset("val", [7, 17])).visible.wire).toBeGreaterThan(0.5);
    plain.dispose();
    augmented.dispose();
  });

  it("imitates a teacher's outputs (behaviour cloning lowers the distillation loss)", () => {
    const teacher = new Teacher({ ...tiny, seed: 9 });
    trainDetector(teacher, train, { steps: 20, batch: 4, crop: 32, learningRate: 5e-3, seed: 2 });
    const student = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const losses: number[] = [];
    trainDetector(student, train, { steps: 50, batch: 4, crop: 32, learningRate: 5e-3, seed: 3, teacher: { model: teacher, temperature: 2 }, onStep: (_s, l) => void losses.push(l.cls) });
    expect(losses.slice(-10).reduce((a, b) => a + b, 0)).toBeLessThan(0.8 * losses.slice(0, 10).reduce((a, b) => a + b, 0));
    teacher.dispose();
    student.dispose();
  });

  it("refuses a crop that does not fit and an empty dataset, naming the value", () => {
    const model = new Teacher({ ...tiny });
    expect(() => trainDetector(model, train, { steps: 1, batch: 1, crop: 48, learningRate: 1e-3, seed: 1 })).toThrow("crop=48, expected a multiple of 32 no larger than 64x64");
    expect(() => trainDetector(model, { grid: train.grid, frames: [] }, { steps: 1, batch: 1, crop: 32, learningRate: 1e-3, seed: 1 })).toThrow("0 frames");
    model.dispose();
  });
});

describe("runDetectorStage", () => {
  it("records a validation curve, saves the model and a checkpoint, and resumes from the checkpoint's step", () => {
    const train = dataset("train", [0, 1]);
    const val = dataset("val", [7]);
    const saved: { name: string; meta: Record<string, unknown> }[] = [];
    const options = { size: "student" as const, steps: 8, batch: 2, crop: 32, learningRate: 1e-3, budget_s: 600, evalEvery: 4, curveFrames: 4, checkpointEvery: 4, seed: 1 };
    const first = runDetectorStage(train, val, options, { progress: () => undefined, save: (name, _m, meta) => void saved.push({ name, meta }) });
    expect(first.curve.map((p) => p.step)).toEqual([4, 8]);
    expect(saved.map((s) => s.name)).toEqual(["checkpoint", "checkpoint", "student"]);
    const resumed = runDetectorStage(train, val, { ...options, steps: 12 }, { progress: () => undefined, save: () => undefined, resume: { model: first.model, step: 8, curve: first.curve } });
    expect(resumed.curve.map((p) => p.step)).toEqual([4, 8, 12]);
    expect(resumed.steps).toBe(12);
    tf.disposeVariables();
  });
});
