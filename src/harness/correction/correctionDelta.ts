/**
 * The Correction Generator (SPEC "The Harness method"; seed 3.1):
 *   delta_i = -lambda * r * sum_j S[i,j] * |ds_j/dt|,   then ||delta||_2 <= 0.5 by rescaling.
 * S has SENSITIVITY_ROWS rows: the 7 actions, then the 4 detection classes. The action part and
 * the detection part are two separate logit vectors, each clipped to norm 0.5 on its own (the
 * detection part is then applied per cell with a gate in [0,1], so no cell exceeds the bound).
 * Because S >= 0 and |ds/dt| >= 0, every delta_i <= 0: the correction lowers the logits of the
 * actions (classes) most sensitive to the features that change fastest in the rollout, in
 * proportion to the predicted risk.
 * Pure float32 code on typed arrays, no allocation (called per frame).
 */
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { SENSITIVITY_ROWS } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import { DELTA_NORM_MAX } from "./constants";

export type CorrectionDelta = {
  /** Length NUM_ACTIONS. */
  action: Float32Array;
  /** Length NUM_DETECTION_CLASSES. */
  detection: Float32Array;
};

export type DeltaStats = {
  /**
   * False when S, the rates or the risk held a non-finite value: delta is then all zeros (no correction)
   * and maxAbs is NaN, which the safety watchdog counts as a runaway harness.
   */
  finite: boolean;
  /** Norms before the clip. */
  actionNormRaw: number;
  detectionNormRaw: number;
  /** max |delta_i| after the clip, over both parts (the value logged every 100 steps). */
  maxAbs: number;
};

export function newCorrectionDelta(): CorrectionDelta {
  return { action: new Float32Array(NUM_ACTIONS), detection: new Float32Array(NUM_DETECTION_CLASSES) };
}

function checkInputs(sLen: number, ratesLen: number, risk: number, lambda: number): void {
  // NaN risk is a data failure handled like non-finite S (no correction, flagged), not a throw.
  if (sLen !== SENSITIVITY_ROWS * STATE_DIM) {
    throw new RangeError(`S length=${sLen}, expected ${SENSITIVITY_ROWS}x${STATE_DIM}=${SENSITIVITY_ROWS * STATE_DIM}`);
  }
  if (ratesLen !== STATE_DIM) {
    throw new RangeError(`rates length=${ratesLen}, expected ${STATE_DIM}`);
  }
  if (!Number.isNaN(risk) && !(risk >= 0 && risk <= 1)) {
    throw new RangeError(`risk=${risk}, expected a number in [0, 1]`);
  }
  if (!(lambda >= 0 && Number.isFinite(lambda))) {
    throw new RangeError(`lambda=${lambda}, expected a finite number >= 0`);
  }
}

/** Rescales v[from..to) to norm <= maxNorm; returns the norm before. */
export function clipNorm(v: Float32Array, maxNorm: number): number {
  let ss = 0;
  for (let i = 0; i < v.length; i++) ss += v[i]! * v[i]!;
  const norm = Math.sqrt(ss);
  if (norm > maxNorm) {
    const k = maxNorm / norm;
    for (let i = 0; i < v.length; i++) v[i] = v[i]! * k;
  }
  return norm;
}

/** True when every value is finite (no allocation). */
export function allFinite(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i] ?? NaN)) return false;
  return true;
}

/** Zeros `out` and returns the stats of a rejected (non-finite) input. */
export function rejectNonFinite(out: CorrectionDelta): DeltaStats {
  out.action.fill(0);
  out.detection.fill(0);
  return { finite: false, actionNormRaw: NaN, detectionNormRaw: NaN, maxAbs: NaN };
}

function maxAbsOf(v: Float32Array, start: number): number {
  let m = start;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]!);
    if (a > m) m = a;
  }
  return m;
}

/**
 * Computes delta from S (row-major [SENSITIVITY_ROWS, STATE_DIM]), the rates |ds/dt| (absolute
 * values are taken here), risk r in [0,1] and lambda, into `out`.
 */
export function correctionDelta(
  S: Float32Array,
  rates: Float32Array,
  risk: number,
  lambda: number,
  out: CorrectionDelta,
  maxNorm: number = DELTA_NORM_MAX,
): DeltaStats {
  checkInputs(S.length, rates.length, risk, lambda);
  if (Number.isNaN(risk) || !allFinite(S) || !allFinite(rates)) return rejectNonFinite(out);
  const k = -lambda * risk;
  for (let i = 0; i < SENSITIVITY_ROWS; i++) {
    let acc = 0;
    const row = i * STATE_DIM;
    for (let j = 0; j < STATE_DIM; j++) acc += S[row + j]! * Math.abs(rates[j]!);
    if (i < NUM_ACTIONS) out.action[i] = k * acc;
    else out.detection[i - NUM_ACTIONS] = k * acc;
  }
  const actionNormRaw = clipNorm(out.action, maxNorm);
  const detectionNormRaw = clipNorm(out.detection, maxNorm);
  return { finite: true, actionNormRaw, detectionNormRaw, maxAbs: maxAbsOf(out.detection, maxAbsOf(out.action, 0)) };
}

/**
 * pi_corrected = softmax(logits + delta), computed stably (subtract the max, as tfjs logSoftmax
 * does), into `out`. Returns `out`.
 */
export function softmaxCorrected(logits: Float32Array, delta: Float32Array, out: Float32Array): Float32Array {
  const n = logits.length;
  if (delta.length !== n || out.length !== n) {
    throw new RangeError(`softmaxCorrected lengths logits=${n}, delta=${delta.length}, out=${out.length}: expected equal`);
  }
  let m = -Infinity;
  for (let i = 0; i < n; i++) {
    const z = logits[i]! + delta[i]!;
    out[i] = z;
    if (z > m) m = z;
  }
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(out[i]! - m);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < n; i++) out[i] = out[i]! / sum;
  return out;
}
