/**
 * Applies the Harness correction to the student's outputs (SPEC "The Harness method":
 * pi_corrected = softmax(logits + delta)), into preallocated buffers.
 *
 * Action logits: corrected = logits + delta (the controller takes the argmax; softmax is monotone).
 * Cell probabilities: the detector publishes probabilities p, so per cell the logits are
 * log(p) up to a constant (softmax is shift-invariant), and corrected = softmax(log p + delta),
 * computed stably by subtracting the max (as tfjs logSoftmax does). Probabilities are floored at
 * 1e-12 before the log so a zero probability stays finite.
 */
export class CorrectionApplier {
  private actions = new Float32Array(0);
  private cells = new Float32Array(0);
  private readonly z: Float64Array;

  constructor(maxClasses = 64) {
    this.z = new Float64Array(maxClasses);
  }

  /** logits + delta (delta may be all-zero: the A/B "off" arm). Returns a reused buffer. */
  actionLogits(logits: ArrayLike<number>, delta: ArrayLike<number> | undefined): Float32Array {
    if (this.actions.length !== logits.length) this.actions = new Float32Array(logits.length);
    if (delta !== undefined && delta.length !== logits.length) {
      throw new RangeError(`actionDelta.length=${delta.length}, expected action count ${logits.length}`);
    }
    for (let i = 0; i < logits.length; i++) this.actions[i] = logits[i]! + (delta === undefined ? 0 : delta[i]!);
    return this.actions;
  }

  /** softmax(log p + delta) per cell over `numClasses`. Returns a reused buffer. */
  cellProbs(probs: ArrayLike<number>, delta: ArrayLike<number> | undefined, numClasses: number): Float32Array {
    if (numClasses < 1 || numClasses > this.z.length || probs.length % numClasses !== 0) {
      throw new RangeError(`numClasses=${numClasses} with probs.length=${probs.length}, expected 1..${this.z.length} dividing the length`);
    }
    if (delta !== undefined && delta.length !== probs.length) {
      throw new RangeError(`cellDelta.length=${delta.length}, expected probs.length=${probs.length}`);
    }
    if (this.cells.length !== probs.length) this.cells = new Float32Array(probs.length);
    const z = this.z;
    for (let base = 0; base < probs.length; base += numClasses) {
      let max = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < numClasses; k++) {
        const p = probs[base + k]!;
        const v = Math.log(p > 1e-12 ? p : 1e-12) + (delta === undefined ? 0 : delta[base + k]!);
        z[k] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let k = 0; k < numClasses; k++) {
        const e = Math.exp(z[k]! - max);
        z[k] = e;
        sum += e;
      }
      for (let k = 0; k < numClasses; k++) this.cells[base + k] = z[k]! / sum;
    }
    return this.cells;
  }
}
