import * as tf from "@tensorflow/tfjs";
import { Teacher } from "../../../src/harness/models/Teacher";

/** A tiny detector whose near-threat output is pinned by a bias on its threat channel (+20: every cell flagged; -20: none). */
export function pinnedThreatDetector(bias: number, seed = 1): Teacher {
  const d = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed, threatLogit: true });
  const b = d.trainableVariables().find((v) => v.name.endsWith("head/out/b"));
  if (b === undefined) throw new Error("pinnedThreatDetector: no head/out/b variable");
  const values = Array.from(b.dataSync());
  values[4] = bias;
  b.assign(tf.tensor1d(values));
  return d;
}
