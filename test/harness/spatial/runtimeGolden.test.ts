/**
 * The harness step decides what the planner sees (models, flights and committed results depend on
 * its exact numbers), so a speed change to it must leave its outputs alone. The digests below are
 * of SpatialHarnessRuntime as it flew every committed result up to 2026-12-02 (fifth session):
 * every output array and step statistic of six steps with the committed round-2 harness on
 * textured frames with a thin line, at clip 2 (regions get clipped) and 0.5.
 */
import { createHash } from "node:crypto";
import * as path from "node:path";
import { loadSpatialHarness } from "../../../src/harness/modelfile";
import { SpatialHarnessRuntime } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { Rng } from "../../../src/util/Rng";
import type { Navigation } from "../../../src/control/navigation";

const W = 256;
const H = 256;

/** A textured frame (smooth gradients, noise, a dark 1-px line whose height moves with `k`). */
function frame(rng: Rng, k: number): Uint8Array {
  const rgb = new Uint8Array(W * H * 3);
  const lineY = 60 + 17 * k;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const base = 90 + 60 * Math.sin(x / 23 + k) * Math.cos(y / 31) + (y > 140 ? 40 : 0);
      const onLine = Math.abs(y - (lineY + 0.2 * x)) < 0.6;
      for (let c = 0; c < 3; c++) rgb[(y * W + x) * 3 + c] = onLine ? 20 : Math.max(0, Math.min(255, Math.round(base + rng.uniform(-12, 12) + 9 * c)));
    }
  }
  return rgb;
}

function nav(k: number): Navigation {
  return { altitude_m: 6 + k, pitch_rad: 0.04 * k, yaw_rad: 0.3 * k * k, forwardSpeed_m_s: 3 + 0.5 * k } as Navigation;
}

/** The digest of every output of six steps, and the step statistics summed (the case must correct and clip). */
async function digest(regionClip: number, preparedAhead: boolean): Promise<{ hex: string; active: number; clipped: number }> {
  const { model } = await loadSpatialHarness(path.join(__dirname, "..", "..", "..", "models", "coevo", "harness-r2"));
  const rt = new SpatialHarnessRuntime(model, W, H, { regionClip });
  model.dispose();
  const rng = new Rng(5);
  const h = createHash("sha256");
  let active = 0;
  let clipped = 0;
  const add = (a: Float32Array): void => void h.update(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  for (let k = 0; k < 6; k++) {
    const rgb = frame(rng, k);
    const logits = new Float32Array(32 * 32 * 5);
    for (let i = 0; i < logits.length; i++) logits[i] = rng.uniform(-6, 4) + (i % 5 === 0 ? 3 : 0);
    const t = 0.25 * k;
    if (preparedAhead) rt.prepare(rgb, nav(k), t);
    const info = rt.step(logits, rgb, nav(k), t);
    for (const a of [rt.grey, rt.imagined, rt.features, rt.risk, rt.sensitivity, rt.delta, rt.corrected, rt.classProbs, rt.threat]) add(a);
    // The wire gate's two fields (twenty-eighth session) are outside the digest: without a gate they are constant.
    const { wireEvidence, gateOpen, ...stats } = info;
    expect(Number.isNaN(wireEvidence) && gateOpen).toBe(true);
    h.update(JSON.stringify(stats));
    active += info.activeRegions;
    clipped += info.clippedRegions;
  }
  return { hex: h.digest("hex"), active, clipped };
}

describe("spatial harness step outputs", () => {
  it("are those of the original step at clip 2 and 0.5, with and without the image side prepared ahead", async () => {
    const clip2 = await digest(2, false);
    const clipHalf = await digest(0.5, false);
    expect(clip2.active).toBeGreaterThan(0);
    expect(clipHalf.clipped).toBeGreaterThan(0);
    expect(clip2.hex).toBe("5ef2ebcbc78e12883c5a08bd333ce12929a6eacc314f693e83f8255871199aaf");
    expect(clipHalf.hex).toBe("f85076eafdb59a038c0c2f451e8b85465b25ea04ed5aaec86a114ac2b63dd5bf");
    expect((await digest(2, true)).hex).toBe(clip2.hex);
  });
});
