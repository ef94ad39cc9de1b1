/**
 * Harness benchmarks (issue 5): inference ms per 256x256 frame for the student alone and for
 * student + harness (the ratio is the harness overhead), a training step (batch 16, on crops) for
 * the student and for the harness, and the int8 vs float32 delta computation (time and error).
 * Everything runs on the backend initBackend() picks (wasm here), single thread.
 */
import * as tf from "@tensorflow/tfjs";
import {
  HarnessNet,
  NUM_ACTIONS,
  NUM_DETECTION_CLASSES,
  ROLLOUT_STEPS,
  SENSITIVITY_ROWS,
  STATE_DIM,
  Rng,
  Student,
  Teacher,
  buildHarnessImage,
  buildImageInput,
  correctDetectionLogits,
  correctionDelta,
  correctionDeltaInt8,
  formatParameterReport,
  harnessLoss,
  harnessParameterReport,
  initBackend,
  newCorrectionDelta,
  newInt8DeltaWorkspace,
  softmaxCorrected,
} from "../src/harness";
import { concatChannels } from "../src/harness/layers/concatChannels";

function msPer(iterations: number, f: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) f();
  return Number(process.hrtime.bigint() - t0) / 1e6 / iterations;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

type Timing = { min: number; median: number };

/**
 * Times each function in `fns` over `rounds` interleaved rounds of `iterations` calls (after
 * `warmup` calls each), so that machine load affects all of them alike. min is the best estimate
 * of the unloaded cost, median the typical one.
 */
function timeInterleaved(fns: readonly (() => void)[], opts: { warmup: number; rounds: number; iterations: number }): Timing[] {
  for (const f of fns) for (let i = 0; i < opts.warmup; i++) f();
  const samples: number[][] = fns.map(() => []);
  for (let k = 0; k < opts.rounds; k++) {
    fns.forEach((f, i) => samples[i]?.push(msPer(opts.iterations, f)));
  }
  return samples.map((r) => ({ min: Math.min(...r), median: median(r) }));
}

function timeIt(f: () => void, opts: { warmup: number; rounds: number; iterations: number }): Timing {
  return timeInterleaved([f], opts)[0] ?? { min: NaN, median: NaN };
}

const fmt = (t: Timing, digits = 2): string => `${t.min.toFixed(digits)} ms min, ${t.median.toFixed(digits)} ms median`;

/** Tensors of one 256x256 frame shared by the inference benchmarks (the caller disposes them). */
type FrameInputs = { rgb: tf.Tensor4D; rollout: tf.Tensor4D[]; state: tf.Tensor2D; rewards: tf.Tensor2D; ratesT: tf.Tensor2D };

/**
 * Student alone vs student + harness per frame (input prep, forward, readback, delta and the
 * corrected softmax), with a reference 3-conv encoder in the same rounds. False when a timing is missing.
 */
function benchInference(print: (line: string) => void, student: Student, harness: HarnessNet, x: FrameInputs): boolean {
  const { rgb, rollout, state, rewards, ratesT } = x;
  const logitsBuf = new Float32Array(NUM_ACTIONS);
  const piBuf = new Float32Array(NUM_ACTIONS);
  const delta = newCorrectionDelta();
  const ratesArr = new Float32Array(STATE_DIM).fill(0.1);

  const studentOnly = (): void => {
    const [det, act] = tf.tidy(() => {
      const out = student.forward({ image: buildImageInput(rgb), state });
      return [tf.softmax(out.detLogits), out.actionLogits];
    });
    det.dataSync();
    act.dataSync();
    tf.dispose([det, act]);
  };
  const withHarness = (): void => {
    const [act, S, risk, detLogits] = tf.tidy(() => {
      const image = buildImageInput(rgb);
      const out = student.forward({ image, state });
      const h = harness.forward({ image: buildHarnessImage(image, rollout), state, rolloutRewards: rewards, stateRates: ratesT });
      return [out.actionLogits, h.sensitivity, h.risk, out.detLogits];
    });
    const r = risk.dataSync()[0]!;
    correctionDelta(S.dataSync<"float32">(), ratesArr, r, 0.3, delta);
    logitsBuf.set(act.dataSync());
    softmaxCorrected(logitsBuf, delta.action, piBuf);
    const det = tf.tidy(() => tf.softmax(correctDetectionLogits(detLogits, tf.tensor2d(delta.detection, [1, NUM_DETECTION_CLASSES]))));
    det.dataSync();
    tf.dispose([act, S, risk, detLogits, det]);
  };
  // Reference from SPEC "Known facts": a plain 3-conv [16, 32, 64] encoder on 256x256x4, here
  // with 2x2 pooling after the first two convs, timed in the same rounds.
  const refW = [tf.randomNormal<tf.Rank.R4>([3, 3, 4, 16]), tf.randomNormal<tf.Rank.R4>([3, 3, 16, 32]), tf.randomNormal<tf.Rank.R4>([3, 3, 32, 64])];
  const refX = tf.randomNormal<tf.Rank.R4>([1, 256, 256, 4]);
  const reference = (): void => {
    const y = tf.tidy(() => {
      let x = refX;
      refW.forEach((w, i) => {
        x = tf.relu(tf.conv2d(x, w, 1, "same"));
        if (i < 2) x = tf.maxPool(x, 2, 2, "valid");
      });
      return x;
    });
    y.dataSync();
    y.dispose();
  };
  const [tStudent, tBoth, tRef] = timeInterleaved([studentOnly, withHarness, reference], { warmup: 5, rounds: 10, iterations: 5 });
  tf.dispose([...refW, refX]);
  if (tStudent === undefined || tBoth === undefined || tRef === undefined) return false;
  print(`inference 256x256 per frame (input prep + forward + readback), 10 interleaved rounds of 5 frames:`);
  print(`  student alone:      ${fmt(tStudent)}`);
  print(`  student + harness:  ${fmt(tBoth)}`);
  print(`  harness overhead:   ratio ${(tBoth.min / tStudent.min).toFixed(2)}x of min (+${(tBoth.min - tStudent.min).toFixed(2)} ms), ${(tBoth.median / tStudent.median).toFixed(2)}x of median`);
  print(`  reference 3-conv [16,32,64] encoder (SPEC "Known facts"): ${fmt(tRef)}; student / reference ${(tStudent.min / tRef.min).toFixed(2)}x of min`);
  return true;
}

/** Parts of the inference: the student's heads from cached features, channel concatenation, the offline teacher. */
function benchInferenceParts(print: (line: string) => void, student: Student, x: FrameInputs): void {
  const { rgb, state } = x;
  const perception = tf.tidy(() => {
    const p = student.perceive(buildImageInput(rgb));
    return [p.detBase, p.pooled] as const;
  });
  const headsOnly = timeIt(() => {
    const y = tf.tidy(() => student.heads({ detBase: perception[0], pooled: perception[1] }, state).actionLogits);
    y.dataSync();
    y.dispose();
  }, { warmup: 5, rounds: 5, iterations: 20 });
  print(`  student heads only (policy MLP + detection bias, from cached features): ${fmt(headsOnly)}`);
  tf.dispose([...perception]);
  // Channel concatenation at 256x256 (RGB + texture): tf.concat on axis 3 vs concatChannels.
  const rgbA = tf.randomUniform<tf.Rank.R4>([1, 256, 256, 3], -1, 1, "float32", 30);
  const texA = tf.randomUniform<tf.Rank.R4>([1, 256, 256, 1], -1, 1, "float32", 31);
  const [tConcat, tSel] = timeInterleaved(
    [
      () => {
        const y = tf.concat([rgbA, texA], 3);
        y.dataSync();
        y.dispose();
      },
      () => {
        const y = tf.tidy(() => concatChannels([rgbA, texA]));
        y.dataSync();
        y.dispose();
      },
    ],
    { warmup: 3, rounds: 5, iterations: 5 },
  );
  if (tConcat !== undefined && tSel !== undefined) print(`  channel concat 256x256 (3+1): tf.concat ${fmt(tConcat)}; concatChannels ${fmt(tSel)}`);
  tf.dispose([rgbA, texA]);
  const teacher = new Teacher();
  const tTeacher = timeIt(() => {
    const y = tf.tidy(() => teacher.forward(buildImageInput(rgb)));
    y.dataSync();
    y.dispose();
  }, { warmup: 2, rounds: 3, iterations: 3 });
  print(`  teacher (offline):  ${fmt(tTeacher)}`);
  teacher.dispose();
}

/** One Adam step of the student and of the harness on a batch of 16, interleaved. */
function benchTrainingSteps(print: (line: string) => void, student: Student, harness: HarnessNet): void {
  const B = 16;
  const crop = 96;
  const img = tf.tidy(() => buildImageInput(tf.randomUniform<tf.Rank.R4>([B, crop, crop, 3], 0, 1, "float32", 2)));
  const st = tf.randomUniform<tf.Rank.R2>([B, STATE_DIM], -1, 1, "float32", 3);
  const detT = tf.oneHot(tf.randomUniform([B, crop / 8, crop / 8], 0, NUM_DETECTION_CLASSES, "int32", 4), NUM_DETECTION_CLASSES);
  const actT = tf.oneHot(tf.randomUniform([B], 0, NUM_ACTIONS, "int32", 5), NUM_ACTIONS);
  const optS = tf.train.adam(1e-3);
  const studentStep = (): void => {
    optS
      .minimize(() => {
        const out = student.forward({ image: img, state: st });
        return tf.add<tf.Scalar>(tf.losses.softmaxCrossEntropy(detT, out.detLogits), tf.losses.softmaxCrossEntropy(actT, out.actionLogits));
      }, true, student.trainableVariables())
      ?.dispose();
  };
  const himg = tf.randomUniform<tf.Rank.R4>([B, 64, 64, 7], -1, 1, "float32", 6);
  const rew = tf.randomUniform<tf.Rank.R2>([B, ROLLOUT_STEPS], -1, 1, "float32", 7);
  const rates = tf.randomUniform<tf.Rank.R2>([B, STATE_DIM], 0, 1, "float32", 8);
  const rTrue = tf.cast(tf.greater(tf.randomUniform([B], 0, 1, "float32", 9), 0.5), "float32") as tf.Tensor1D;
  const sgt = tf.randomUniform<tf.Rank.R3>([B, SENSITIVITY_ROWS, STATE_DIM], 0, 1, "float32", 10);
  const optH = tf.train.adam(1e-3);
  const harnessStep = (): void => {
    optH
      .minimize(() => {
        const h = harness.forward({ image: himg, state: st, rolloutRewards: rew, stateRates: rates });
        return harnessLoss(h.risk, rTrue, h.sensitivity, sgt).total;
      }, true, harness.trainableVariables())
      ?.dispose();
  };
  const stepOpts = { warmup: 2, rounds: 3, iterations: 3 };
  const [tsStep, thStep] = timeInterleaved([studentStep, harnessStep], stepOpts);
  print(`training step, batch ${B}, Adam, 3 interleaved rounds of 3 steps:`);
  if (tsStep !== undefined) print(`  student (${crop}x${crop} crops, detection + action cross-entropy): ${fmt(tsStep, 1)}`);
  if (thStep !== undefined) print(`  harness (64x64x7 inputs, hinge + alpha ||S - S_gt||^2):        ${fmt(thStep, 1)}`);
  tf.dispose([img, st, detT, actT, himg, rew, rates, rTrue, sgt]);
  optS.dispose();
  optH.dispose();
}

/** Random (S, rates, risk) samples for the delta benchmarks, from a seeded generator. */
type DeltaSamples = { Ss: Float32Array[]; Rs: Float32Array[]; risks: number[] };

/** Output buffers of the two delta computations. */
type DeltaBuffers = { f: ReturnType<typeof newCorrectionDelta>; q: ReturnType<typeof newCorrectionDelta>; ws: ReturnType<typeof newInt8DeltaWorkspace> };

/** The int8 delta against the float32 one on every sample: max and relative L2 error of the action delta, argmax flips of pi. */
function int8DeltaError(x: DeltaSamples, buffers: DeltaBuffers): { errMax: number; relL2: number; argmaxFlips: number } {
  const { f, q, ws } = buffers;
  let errMax = 0;
  let errSq = 0;
  let refSq = 0;
  let argmaxFlips = 0;
  const pf = new Float32Array(NUM_ACTIONS);
  const pq = new Float32Array(NUM_ACTIONS);
  const zeroLogits = new Float32Array(NUM_ACTIONS);
  for (let k = 0; k < x.Ss.length; k++) {
    const S = x.Ss[k] ?? new Float32Array(0);
    const R = x.Rs[k] ?? new Float32Array(0);
    correctionDelta(S, R, x.risks[k]!, 0.3, f);
    correctionDeltaInt8(S, R, x.risks[k]!, 0.3, q, ws);
    for (let i = 0; i < NUM_ACTIONS; i++) {
      const d = f.action[i]! - q.action[i]!;
      errMax = Math.max(errMax, Math.abs(d));
      errSq += d * d;
      refSq += f.action[i]! ** 2;
    }
    softmaxCorrected(zeroLogits, f.action, pf);
    softmaxCorrected(zeroLogits, q.action, pq);
    let af = 0;
    let aq = 0;
    for (let i = 1; i < NUM_ACTIONS; i++) {
      if (pf[i]! > pf[af]!) af = i;
      if (pq[i]! > pq[aq]!) aq = i;
    }
    if (af !== aq) argmaxFlips++;
  }
  return { errMax, relL2: Math.sqrt(errSq / refSq), argmaxFlips };
}

/** The int8 vs float32 delta: time per call and error. False when a timing is missing. */
function benchInt8Delta(print: (line: string) => void): boolean {
  const rng = new Rng(21);
  const samples = 256;
  const Ss = Array.from({ length: samples }, () => new Float32Array(SENSITIVITY_ROWS * STATE_DIM).map(() => rng.uniform() * 0.5));
  const Rs = Array.from({ length: samples }, () => new Float32Array(STATE_DIM).map(() => rng.normal() * 0.3));
  const risks = Array.from({ length: samples }, () => rng.uniform());
  const f = newCorrectionDelta();
  const q = newCorrectionDelta();
  const ws = newInt8DeltaWorkspace();
  const { errMax, relL2, argmaxFlips } = int8DeltaError({ Ss, Rs, risks }, { f, q, ws });
  let idx = 0;
  const iters = 20000;
  const [tF, tQ] = timeInterleaved([() => {
    idx = (idx + 1) % samples;
    correctionDelta(Ss[idx] ?? new Float32Array(0), Rs[idx] ?? new Float32Array(0), risks[idx]!, 0.3, f);
  }, () => {
    idx = (idx + 1) % samples;
    correctionDeltaInt8(Ss[idx] ?? new Float32Array(0), Rs[idx] ?? new Float32Array(0), risks[idx]!, 0.3, q, ws);
  }], { warmup: 2000, rounds: 5, iterations: iters });
  if (tF === undefined || tQ === undefined) return false;
  print(`delta computation (${SENSITIVITY_ROWS}x${STATE_DIM} S, per frame, JS typed arrays), ${samples} random samples:`);
  print(`  float32: ${(tF.min * 1000).toFixed(2)} us/call   int8 (incl. quantisation): ${(tQ.min * 1000).toFixed(2)} us/call (min of 5 rounds)   speed-up ${(tF.min / tQ.min).toFixed(2)}x`);
  print(`  int8 error vs float32: max |d delta| ${errMax.toExponential(2)}, relative L2 ${(relL2 * 100).toFixed(3)} %, argmax(pi_corrected) changed in ${argmaxFlips}/${samples}`);
  return true;
}

export async function run(print: (line: string) => void): Promise<void> {
  const backend = await initBackend();
  print(`backend: ${backend.name}${backend.simd ? " (SIMD)" : ""}, single thread`);
  const student = new Student();
  const harness = new HarnessNet();
  print(formatParameterReport(harnessParameterReport(student, harness)));

  // --- Inference, 256x256, batch 1 -----------------------------------------------------------
  const frame: FrameInputs = {
    rgb: tf.randomUniform<tf.Rank.R4>([1, 256, 256, 3], 0, 1, "float32", 1),
    rollout: [1, 2, 3].map((s) => tf.randomUniform<tf.Rank.R4>([1, 256, 256, 3], 0, 1, "float32", 10 + s)),
    state: tf.zeros<tf.Rank.R2>([1, STATE_DIM]),
    rewards: tf.zeros<tf.Rank.R2>([1, ROLLOUT_STEPS]),
    ratesT: tf.fill<tf.Rank.R2>([1, STATE_DIM], 0.1),
  };
  if (!benchInference(print, student, harness, frame)) return;
  benchInferenceParts(print, student, frame);
  tf.dispose([frame.rgb, ...frame.rollout, frame.state, frame.rewards, frame.ratesT]);

  // --- Training steps, batch 16 ----------------------------------------------------------------
  benchTrainingSteps(print, student, harness);

  // --- int8 vs float32 delta -------------------------------------------------------------------
  if (!benchInt8Delta(print)) return;
  student.dispose();
  harness.dispose();
}
