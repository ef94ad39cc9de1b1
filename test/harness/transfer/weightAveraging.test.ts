/**
 * Stochastic weight averaging in few-shot adaptation (`transfer --real --swa F`,
 * FineTuneOptions.averageFrom): the trained weights end as the mean of their values after every
 * step from ceil(F x steps) on; frozen weights stay untouched.
 */
import * as tf from "@tensorflow/tfjs";
import { initBackend } from "../../../src/harness/backend";
import { Teacher } from "../../../src/harness/models/Teacher";
import { fineTuneOnPhotos, WeightMean } from "../../../src/harness/transfer/fineTuneOnPhotos";
import { main } from "../../../src/cli/main";
import { capture } from "../../cli/realPhotoFixture";
import { wirePhoto } from "./syntheticWirePhoto";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

const tiny = (): Teacher => new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 7, threatLogit: true });
const photos = [1, 2, 3].map(wirePhoto);
const base = { steps: 8, batch: 2, crop: 16, learningRate: 0.05, seed: 3 };

describe("WeightMean", () => {
  it("assigns the mean of the values it was given, and nothing when it was given none", () => {
    const v = tf.variable(tf.tensor1d([1, 2]));
    const m = new WeightMean([v]);
    m.assignTo();
    expect(Array.from(v.dataSync())).toEqual([1, 2]);
    m.add();
    v.assign(tf.tensor1d([3, 6]));
    m.add();
    m.assignTo();
    expect(Array.from(v.dataSync())).toEqual([2, 4]);
    v.dispose();
  });
});

describe("fineTuneOnPhotos with averageFrom", () => {
  it("ends at the mean of the adapter's weights over the averaged steps, not at the last step's", () => {
    const plain = tiny();
    const lastStep: number[][] = [];
    fineTuneOnPhotos(plain, photos, { ...base, onStep: (step) => step === base.steps && lastStep.push(...["head/out/w"].map((n) => Array.from(plain.params.get(n).dataSync()))) });
    const averaged = tiny();
    const seen: Float32Array[] = [];
    const frozen = Array.from(averaged.params.get("backbone/conv0/w").dataSync());
    fineTuneOnPhotos(averaged, photos, { ...base, averageFrom: 0.5, onStep: (step) => step >= 4 && seen.push(Float32Array.from(averaged.params.get("head/out/w").dataSync())) });
    expect(seen).toHaveLength(5); // steps 4..8
    const got = averaged.params.get("head/out/w").dataSync();
    for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(seen.reduce((s, w) => s + w[i]!, 0) / seen.length, 6);
    expect(Array.from(seen[4]!)).toEqual(lastStep[0]); // the same run until the end
    expect(Array.from(got)).not.toEqual(lastStep[0]);
    expect(Array.from(averaged.params.get("backbone/conv0/w").dataSync())).toEqual(frozen);
    expect(() => fineTuneOnPhotos(tiny(), photos, { ...base, averageFrom: 1 })).toThrow("averageFrom=1");
    plain.dispose();
    averaged.dispose();
  });
});

describe("transfer --real --swa", () => {
  it("refuses a fraction outside [0, 1) and names the flag", async () => {
    for (const bad of ["1", "-0.1", "x"]) {
      const c = capture();
      expect(await main(["transfer", "--real", "/nonexistent", "--swa", bad], c.io)).toBe(2);
      expect(c.err.join("")).toContain(`--swa ${bad}`);
    }
  });
});
