/**
 * A small synthetic labelled photo for the few-shot adaptation tests: dark noise with one bright
 * horizontal wire row (its pixels labelled), the row drawn from `seed`.
 */
import type { LabelledPhoto } from "../../../src/harness/transfer/fineTuneOnPhotos";
import { Rng } from "../../../src/util/Rng";

export function wirePhoto(seed: number): LabelledPhoto {
  const W = 48, H = 40;
  const rng = new Rng(seed);
  const rgb = new Uint8Array(W * H * 3).map(() => 40 + rng.int(50));
  const wire = new Uint8Array(W * H);
  const y = 8 + rng.int(H - 16);
  for (let x = 0; x < W; x++) {
    wire[y * W + x] = 1;
    rgb.fill(220, 3 * (y * W + x), 3 * (y * W + x) + 3);
  }
  return { image: { width: W, height: H, rgb }, wire };
}
