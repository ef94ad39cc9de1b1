/**
 * Held-out quality of a harness's diagnostics on transfer samples (SPEC "How results are
 * measured"):
 *  - ROC AUC of r against r_true, by the rank-sum (Mann-Whitney U) statistic with ties counted
 *    as 1/2 (Hanley & McNeil 1982, "The meaning and use of the area under a ROC curve");
 *    NaN when one class is absent;
 *  - Brier score: mean (r - r_true)^2 (Brier 1950, "Verification of forecasts expressed in terms
 *    of probability");
 *  - mean Frobenius norm ||S - S_gt|| per sample.
 * Without a harness there is no r and no S: the "no harness" row scores the constant base rate of
 * r_true in the training samples and S = 0.
 */
import * as tf from "@tensorflow/tfjs";
import type { HarnessNet } from "../models/HarnessNet";
import { ROLLOUT_STEPS } from "../models/imageInput";
import { harnessBatch } from "./transferTraining";
import type { TransferSample } from "./transferSamples";

export type DiagnosticsQuality = { auc: number; brier: number; sError: number; meanRisk: number; positives: number; samples: number };

/** ROC AUC of `scores` for binary `labels` (1 positive, 0 negative); NaN without both classes. */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const n = scores.length;
  if (labels.length !== n) throw new RangeError(`scores.length=${n}, labels.length=${labels.length}; expected equal`);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let pos = 0;
  let rankSumPos = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]!] === scores[order[i]!]) j++;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      const label = labels[order[k]!];
      if (label !== 0 && label !== 1) throw new RangeError(`labels[${order[k]}]=${label}, expected 0 or 1`);
      if (label === 1) {
        pos++;
        rankSumPos += midRank;
      }
    }
    i = j + 1;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

function summarise(risk: Float32Array, sError: number, samples: readonly TransferSample[]): DiagnosticsQuality {
  const labels = samples.map((s) => s.rTrue);
  let brier = 0;
  let mean = 0;
  for (let i = 0; i < risk.length; i++) {
    brier += (risk[i]! - labels[i]!) ** 2;
    mean += risk[i]!;
  }
  return {
    auc: rocAuc(risk, labels),
    brier: brier / risk.length,
    sError,
    meanRisk: mean / risk.length,
    positives: labels.reduce((a, b) => a + b, 0),
    samples: samples.length,
  };
}

/** Quality of `harness` on `samples` (forward passes in batches of `batch`). */
export function diagnosticsQuality(harness: HarnessNet, samples: readonly TransferSample[], batch = 64): DiagnosticsQuality {
  const risk = new Float32Array(samples.length);
  let sErr = 0;
  for (let start = 0; start < samples.length; start += batch) {
    const part = samples.slice(start, start + batch);
    const data = harnessBatch(part);
    const [riskT, errT] = tf.tidy((): [tf.Tensor1D, tf.Tensor1D] => {
      const out = harness.forward({ image: data.images, state: data.state, rolloutRewards: tf.zeros([part.length, ROLLOUT_STEPS]), stateRates: data.rates });
      return [out.risk, tf.sqrt(tf.sum<tf.Tensor1D>(tf.square(tf.sub(out.sensitivity, data.sGt)), [1, 2]))];
    });
    risk.set(riskT.dataSync(), start);
    for (const v of errT.dataSync()) sErr += v;
    tf.dispose([riskT, errT]);
    tf.dispose([data.images, data.state, data.rates, data.rTrue, data.sGt]);
  }
  return summarise(risk, sErr / samples.length, samples);
}

/** The "no harness" row: constant risk `baseRate` (r_true's rate in the training samples), S = 0. */
export function noHarnessQuality(baseRate: number, samples: readonly TransferSample[]): DiagnosticsQuality {
  if (!(baseRate >= 0 && baseRate <= 1)) throw new RangeError(`baseRate=${baseRate}, expected in [0, 1]`);
  let sErr = 0;
  for (const s of samples) {
    let sq = 0;
    for (const v of s.sGt) sq += v * v;
    sErr += Math.sqrt(sq);
  }
  return summarise(new Float32Array(samples.length).fill(baseRate), sErr / samples.length, samples);
}
