/**
 * Shapes, parameter counts, tensor hygiene over 1,000 inference steps, and that a harness
 * training step leaves the student unchanged and vice versa (issue 5 tests).
 */
import * as tf from "@tensorflow/tfjs";
import {
  HarnessNet,
  NUM_ACTIONS,
  NUM_DETECTION_CLASSES,
  ROLLOUT_STEPS,
  SENSITIVITY_ROWS,
  STATE_DIM,
  Student,
  Teacher,
  buildHarnessImage,
  buildImageInput,
  correctDetectionLogits,
  correctionDeltaTensor,
  formatParameterReport,
  harnessLoss,
  harnessParameterReport,
  initBackend,
  transferHarness,
} from "../../src/harness";

function snapshotValues(vars: tf.Variable[]): Float32Array[] {
  return vars.map((v) => v.dataSync<"float32">().slice());
}

function unchanged(before: Float32Array[], vars: tf.Variable[]): boolean {
  return vars.every((v, i) => {
    const now = v.dataSync<"float32">();
    const b = before[i];
    return b !== undefined && now.length === b.length && now.every((x, k) => x === b[k]);
  });
}

// One student and one harness shared by every describe below (the last test trains the harness in place).
let student: Student;
let harness: HarnessNet;

beforeAll(async () => {
  const info = await initBackend({ prefer: "wasm" });
  expect(info.name).toBe("wasm");
  student = new Student();
  harness = new HarnessNet();
});

afterAll(() => {
  student.dispose();
  harness.dispose();
});

describe("harness models", () => {
  it("produces the per-cell grid, action logits, S and r with the documented shapes", () => {
    tf.tidy(() => {
      const rgb = tf.randomUniform<tf.Rank.R4>([2, 64, 96, 3], 0, 1, "float32", 1);
      const image = buildImageInput(rgb);
      expect(image.shape).toEqual([2, 64, 96, 4]);
      const img = image.dataSync();
      expect(Math.min(...img)).toBeGreaterThanOrEqual(-1);
      expect(Math.max(...img)).toBeLessThanOrEqual(1);
      const state = tf.zeros<tf.Rank.R2>([2, STATE_DIM]);
      const out = student.forward({ image, state, textureGain: tf.tensor1d([1, 1.5]) });
      expect(out.detLogits.shape).toEqual([2, 8, 12, NUM_DETECTION_CLASSES]);
      expect(out.actionLogits.shape).toEqual([2, NUM_ACTIONS]);

      const square = buildImageInput(tf.randomUniform<tf.Rank.R4>([2, 256, 256, 3], 0, 1, "float32", 2));
      const himg = buildHarnessImage(square, [tf.randomUniform<tf.Rank.R4>([2, 256, 256, 3], 0, 1, "float32", 3)]);
      expect(himg.shape).toEqual([2, 64, 64, 7]);
      // Missing rollout steps are zero-padded.
      expect(tf.max(tf.abs(tf.slice(himg, [0, 0, 0, 5], [2, 64, 64, 2]))).dataSync()[0]).toBe(0);
      const h = harness.forward({ image: himg, state, rolloutRewards: tf.zeros([2, ROLLOUT_STEPS]), stateRates: tf.zeros([2, STATE_DIM]) });
      expect(h.sensitivity.shape).toEqual([2, SENSITIVITY_ROWS, STATE_DIM]);
      expect(h.sensitivity.min().dataSync()[0]).toBeGreaterThanOrEqual(0);
      const r = h.risk.dataSync();
      expect(r.length).toBe(2);
      for (const v of r) expect(v > 0 && v < 1).toBe(true);

      const teacher = new Teacher({ channels: [8, 8, 8], headHidden: 8 });
      expect(teacher.forward(image).shape).toEqual([2, 8, 12, NUM_DETECTION_CLASSES]);
      teacher.dispose();
    });
  });

  it("prints both parameter counts and the ratio", () => {
    const c = harnessParameterReport(student, harness);
    // Hand count of HarnessNet (see docs/harness.md): encoder convs 1,024 + 4,640 + 18,496,
    // sensor MLP 16*64+64, fuse 128*16+16, adapter 2*(16*16+16), S head 16*176+176,
    // risk head 35*16+16 + 16+1.
    expect(c.harness).toBe(1024 + 4640 + 18496 + 1088 + 2064 + 544 + 2992 + 576 + 17);
    expect(c.ratio).toBeCloseTo(c.harness / c.student, 12);
    expect(c.studentDetector).toBeLessThan(c.student);
    const text = formatParameterReport(c);
    process.stdout.write(`${text}\n`);
    expect(text).toContain(`harness parameters:          ${c.harness}`);
    expect(c.withinSeedRange).toBe(true);
  });
});

describe("harness models: tensor hygiene", () => {
  it("frees every tensor when models are disposed", () => {
    const before = tf.memory().numTensors;
    const bytes = tf.memory().numBytes;
    new Student({ policyHidden: [16] }).dispose();
    new HarnessNet().dispose();
    new Teacher({ channels: [4, 4, 4], headHidden: 4 }).dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(tf.memory().numBytes).toBe(bytes);
  });

  it("leaks no tensors over repeated training steps through the custom-gradient convs", () => {
    const small = new Student({ policyHidden: [16], seed: 12 });
    const image = tf.tidy(() => buildImageInput(tf.randomUniform<tf.Rank.R4>([2, 64, 64, 3], 0, 1, "float32", 13)));
    const state = tf.zeros<tf.Rank.R2>([2, STATE_DIM]);
    const opt = tf.train.adam(1e-3);
    const step = (): void => {
      opt.minimize(() => tf.mean<tf.Scalar>(tf.square(small.forward({ image, state }).detLogits)), false, small.trainableVariables());
    };
    step(); // creates Adam's moment variables
    const before = tf.memory().numTensors;
    for (let i = 0; i < 10; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    opt.dispose();
    small.dispose();
    tf.dispose([image, state]);
  });

  it("leaks no tensors over 1,000 inference steps of student + harness", () => {
    const small = new Student({ policyHidden: [64] });
    const rgb = tf.randomUniform<tf.Rank.R4>([1, 64, 64, 3], 0, 1, "float32", 4);
    const state = tf.zeros<tf.Rank.R2>([1, STATE_DIM]);
    const zerosK = tf.zeros<tf.Rank.R2>([1, ROLLOUT_STEPS]);
    const zerosD = tf.zeros<tf.Rank.R2>([1, STATE_DIM]);
    const step = (): void => {
      const probs = tf.tidy(() => {
        const image = buildImageInput(rgb);
        const out = small.forward({ image, state });
        const h = harness.forward({ image: buildHarnessImage(image, []), state, rolloutRewards: zerosK, stateRates: zerosD });
        const delta = correctionDeltaTensor(h.sensitivity, zerosD, h.risk, 0.3);
        return tf.softmax(correctDetectionLogits(out.detLogits, delta.detection));
      });
      probs.dataSync();
      probs.dispose();
    };
    step();
    const before = tf.memory().numTensors;
    for (let i = 0; i < 1000; i++) step();
    expect(tf.memory().numTensors).toBe(before);
    tf.dispose([rgb, state, zerosK, zerosD]);
    small.dispose();
  });
});

describe("harness models: a training step of one network leaves the other unchanged", () => {
  it("a harness step leaves the student unchanged, and a student step leaves the harness unchanged", () => {
    const small = new Student({ policyHidden: [32], seed: 9 });
    const image = tf.tidy(() => buildImageInput(tf.randomUniform<tf.Rank.R4>([2, 64, 64, 3], 0, 1, "float32", 5)));
    const state = tf.randomUniform<tf.Rank.R2>([2, STATE_DIM], -1, 1, "float32", 6);
    const himg = tf.tidy(() => buildHarnessImage(image, []));
    const zerosK = tf.zeros<tf.Rank.R2>([2, ROLLOUT_STEPS]);
    const rates = tf.ones<tf.Rank.R2>([2, STATE_DIM]);
    // One optimizer per variable list: tfjs's Adam keeps its moments by position in the list.
    const optH = tf.train.adam(1e-2);
    const optS = tf.train.adam(1e-2);
    const optT = tf.train.adam(1e-2);

    // Harness phase: the loss depends on the student's outputs too (corrected logits), but only
    // harness variables are passed to minimize.
    const sBefore = snapshotValues(small.trainableVariables());
    const hBefore = snapshotValues(harness.trainableVariables());
    const lossH = (): tf.Scalar => {
      const out = small.forward({ image, state });
      const h = harness.forward({ image: himg, state, rolloutRewards: zerosK, stateRates: rates });
      const terms = harnessLoss(h.risk, tf.ones([2]), h.sensitivity, tf.zerosLike(h.sensitivity));
      const delta = correctionDeltaTensor(h.sensitivity, rates, h.risk, 0.3);
      return tf.add(terms.total, tf.mean(tf.add(out.actionLogits, delta.action)));
    };
    optH.minimize(lossH, true, harness.trainableVariables())?.dispose();
    expect(unchanged(sBefore, small.trainableVariables())).toBe(true);
    expect(unchanged(hBefore, harness.trainableVariables())).toBe(false);

    // Student phase with the harness frozen.
    const hBefore2 = snapshotValues(harness.trainableVariables());
    const lossS = (): tf.Scalar => {
      const out = small.forward({ image, state });
      const h = harness.forward({ image: himg, state, rolloutRewards: zerosK, stateRates: rates });
      const delta = correctionDeltaTensor(h.sensitivity, rates, h.risk, 0.3);
      return tf.mean(tf.square(tf.add(out.actionLogits, delta.action)));
    };
    const sBefore2 = snapshotValues(small.trainableVariables());
    optS.minimize(lossS, true, small.trainableVariables())?.dispose();
    expect(unchanged(hBefore2, harness.trainableVariables())).toBe(true);
    expect(unchanged(sBefore2, small.trainableVariables())).toBe(false);

    // Transfer: the encoder is copied, and a "transfer" step leaves it frozen.
    const next = transferHarness(harness, { seed: 55 });
    const encNames = harness.encoderWeightNames();
    for (const n of encNames) {
      expect(next.params.get(n).dataSync()).toEqual(harness.params.get(n).dataSync());
    }
    const encBefore = snapshotValues(next.trainableVariables("encoder"));
    const lossT = (): tf.Scalar => {
      const h = next.forward({ image: himg, state, rolloutRewards: zerosK, stateRates: rates });
      return harnessLoss(h.risk, tf.ones([2]), h.sensitivity, tf.zerosLike(h.sensitivity), { riskLoss: "bce" }).total;
    };
    const transferVars = next.trainableVariables("transfer");
    const tBefore = snapshotValues(transferVars);
    optT.minimize(lossT, true, transferVars)?.dispose();
    expect(unchanged(encBefore, next.trainableVariables("encoder"))).toBe(true);
    expect(unchanged(tBefore, transferVars)).toBe(false);

    const copied = transferHarness(harness, { adapter: "copy" });
    expect(copied.params.get("adapter/fc0/w").dataSync()).toEqual(harness.params.get("adapter/fc0/w").dataSync());
    expect(next.params.get("adapter/fc0/w").dataSync()).not.toEqual(harness.params.get("adapter/fc0/w").dataSync());
    copied.dispose();
    optH.dispose();
    optS.dispose();
    optT.dispose();
    next.dispose();
    small.dispose();
    tf.dispose([image, state, himg, zerosK, rates]);
  });
});
