import * as tf from "@tensorflow/tfjs";
import { correctedAdvantages } from "../../../src/harness/training/advantage";
import { ppoLoss } from "../../../src/harness/training/ppoLoss";
import { CoEvolutionSchedule } from "../../../src/harness/training/CoEvolutionSchedule";

beforeAll(async () => {
  await tf.setBackend("cpu");
});

describe("ppoLoss", () => {
  // Hand computation (natural logs):
  // step 0: logits [0, 0], a = 0, pi = .5, old log pi = ln .25 -> ratio 2, clipped 1.2; A = 1 -> 1.2
  // step 1: logits [ln 3, 0], pi = [.75, .25], a = 1, old = ln .25 -> ratio 1; A = -2 -> -2
  // surrogate = (1.2 - 2) / 2 = -.4. Entropy (delta = 0): ln 2 = .693147 and
  // -(.75 ln .75 + .25 ln .25) = .562335; mean .627741. loss = .4 - .01 * .627741 = .393723.
  const base = () => ({
    logits: tf.tensor2d([[0, 0], [Math.log(3), 0], [5, -5]]),
    actions: tf.tensor1d([0, 1, 1], "int32"),
    oldLogProbs: tf.tensor1d([Math.log(0.25), Math.log(0.25), 0]),
    advantages: tf.tensor1d([1, -2, 100]),
    valid: tf.tensor1d([1, 1, 0]), // the third step is padding and must not count
  });

  it("matches the hand-computed clipped surrogate and entropy, ignoring padded steps", () => {
    const b = base();
    const parts = ppoLoss({ ...b, delta: tf.zeros<tf.Rank.R2>([3, 2]) });
    expect(parts.surrogate.dataSync()[0]).toBeCloseTo(-0.4, 6);
    expect(parts.entropy.dataSync()[0]).toBeCloseTo(0.627741, 5);
    expect(parts.loss.dataSync()[0]).toBeCloseTo(0.393723, 5);
  });

  it("takes the entropy of pi_corrected = softmax(logits + delta)", () => {
    // step 0 corrected logits [0, ln 3] -> entropy .562335; step 1 delta 0 -> .562335.
    const b = base();
    const delta = tf.tensor2d([[0, Math.log(3)], [0, 0], [0, 0]]);
    const parts = ppoLoss({ ...b, delta });
    expect(parts.entropy.dataSync()[0]).toBeCloseTo(0.562335, 5);
    expect(parts.loss.dataSync()[0]).toBeCloseTo(0.4 - 0.00562335, 6);
  });
});

describe("correctedAdvantages", () => {
  it("weights (G - b) by the clipped ratio pi_corrected / pi_theta and zeroes padding", () => {
    // b = mean(-1, 0) = -.5; A0 = clip(.25/.5 = .5 -> .8) * (-1 + .5) = -.4; A1 = 1 * (0 + .5) = .5
    const a = correctedAdvantages(
      { returns: [-1, 0, 7], valid: [1, 1, 0], piTheta: [0.5, 0.5, 0.1], piCorrected: [0.25, 0.5, 0.1] },
      new Float32Array(3),
    );
    expect(Array.from(a).map((x) => Math.round(x * 1e6) / 1e6)).toEqual([-0.4, 0.5, 0]);
    expect(() => correctedAdvantages({ returns: [0], valid: [1, 1], piTheta: [1], piCorrected: [1] }, new Float32Array(1))).toThrow(
      /valid.length=2, expected returns.length=1/,
    );
  });
});

describe("CoEvolutionSchedule", () => {
  it("runs the student every 100 steps, the harness every 200, logs every 100", () => {
    const s = new CoEvolutionSchedule();
    expect(s.due(50)).toEqual({ student: false, harness: false, log: false });
    expect(s.due(100)).toEqual({ student: true, harness: false, log: true });
    expect(s.due(200)).toEqual({ student: true, harness: true, log: true });
  });

  it("warns and cuts lambda only when max|delta| stays above 0.6 for 3 logs", () => {
    const s = new CoEvolutionSchedule();
    expect(s.observeMaxDelta(0.7)).toEqual({ warn: false, lambdaFactor: 1 });
    expect(s.observeMaxDelta(0.3)).toEqual({ warn: false, lambdaFactor: 1 }); // streak broken
    expect(s.observeMaxDelta(0.7).warn).toBe(false);
    expect(s.observeMaxDelta(0.65).warn).toBe(false);
    expect(s.observeMaxDelta(0.61)).toEqual({ warn: true, lambdaFactor: 0.5 });
  });
});
