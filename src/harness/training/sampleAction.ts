/**
 * Action selection from logits: argmax, and sampling from softmax(logits / T) (SPEC "Rollouts":
 * the first rollout step takes the argmax action, later steps sample at temperature 1.2).
 * Computed stably (max subtracted before exp, as tfjs logSoftmax does).
 */
import type { Rng } from "../../util/Rng";

export const ROLLOUT_TEMPERATURE = 1.2;

export function argmax(logits: ArrayLike<number>): number {
  if (logits.length === 0) throw new RangeError("logits.length=0, expected at least one logit");
  let best = 0;
  for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
  return best;
}

/**
 * Writes softmax(logits / temperature) into `out` and returns it. Non-finite logits throw with
 * the index; temperature must be > 0.
 */
export function softmaxWithTemperature(logits: ArrayLike<number>, temperature: number, out: Float64Array): Float64Array {
  if (!(temperature > 0) || !Number.isFinite(temperature)) {
    throw new RangeError(`temperature=${temperature}, expected a finite number > 0`);
  }
  if (out.length !== logits.length) throw new RangeError(`out.length=${out.length}, expected ${logits.length}`);
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) {
    const l = logits[i]!;
    if (!Number.isFinite(l)) throw new RangeError(`logits[${i}]=${l}, expected a finite number`);
    if (l > max) max = l;
  }
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp((logits[i]! - max) / temperature);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < logits.length; i++) out[i] = out[i]! / sum;
  return out;
}

/** Samples an index from softmax(logits / temperature); `scratch` has the logits' length. */
export function sampleWithTemperature(logits: ArrayLike<number>, temperature: number, rng: Rng, scratch: Float64Array): number {
  const p = softmaxWithTemperature(logits, temperature, scratch);
  const u = rng.next();
  let acc = 0;
  for (let i = 0; i < p.length; i++) {
    acc += p[i]!;
    if (u < acc) return i;
  }
  return p.length - 1;
}
