/**
 * The one-thread pipeline reads each camera frame once for the detector's input and the harness's
 * grey frame (DetectorRuntime.infer with `greyLevels`, SpatialHarnessRuntime.prepareFromGrey), and
 * computes the uncorrected probabilities only when something reads them. Neither may change a
 * bit of what the planner sees: checked here against the runtimes used the plain way.
 */
import { initBackend } from "../../../src/harness/backend/initBackend";
import { PlannerPilot } from "../../../src/harness/eval/PlannerPilot";
import { imageInputFromRgb8 } from "../../../src/harness/models/imageInput";
import { Teacher } from "../../../src/harness/models/Teacher";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { DetectorRuntime, probabilitiesFromLogits } from "../../../src/harness/runtime/DetectorRuntime";
import { SpatialHarnessRuntime, wireCandidates } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { greyFromRgb8 } from "../../../src/harness/spatial/warp";
import { makeNavigation } from "../../../src/control/navigation";
import { Rng } from "../../../src/util/Rng";
import { FakeEnvironment } from "../training/fakeEnvironment";

const W = 64;
const H = 64;

function randomFrame(seed: number): Uint8Array {
  const rng = new Rng(seed);
  return new Uint8Array(W * H * 3).map(() => Math.floor(rng.uniform() * 256));
}

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("the one-pass pipeline", () => {
  it("imageInputFromRgb8 writes greyFromRgb8's grey levels, 8-bit and float frames, and leaves its input alone", () => {
    const rgb = randomFrame(1);
    const levels = new Float32Array(W * H);
    const input = imageInputFromRgb8(rgb, W, H, new Float32Array(4 * W * H), undefined, 1, levels);
    expect(Array.from(levels)).toEqual(Array.from(greyFromRgb8(rgb, new Float32Array(W * H))));
    expect(Array.from(input)).toEqual(Array.from(imageInputFromRgb8(rgb, W, H, new Float32Array(4 * W * H))));
    const f = Float32Array.from(rgb, (v, i) => v + (i % 7) * 0.125);
    imageInputFromRgb8(f, W, H, new Float32Array(4 * W * H), undefined, 1, levels);
    expect(Array.from(levels)).toEqual(Array.from(greyFromRgb8(f, new Float32Array(W * H))));
    expect(() => imageInputFromRgb8(rgb, W, H, new Float32Array(4 * W * H), undefined, 1, new Float32Array(10))).toThrow(`greyLevels.length=10, expected ${W * H} (64x64)`);
  });

  it("DetectorRuntime fills the arrays it hands out on every frame, and deferred, computes them from the latest logits when read", () => {
    const rt = new DetectorRuntime(new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true }), W, H);
    const expected = (): { probs: number[]; threat: number[] } => {
      const probs = new Float32Array(rt.classProbs.length);
      const threat = new Float32Array(rt.threat.length);
      probabilitiesFromLogits(rt.logits, probs, threat);
      return { probs: Array.from(probs), threat: Array.from(threat) };
    };
    // Held arrays (as the perception node's ThreatDetector holds them) see each new frame.
    const heldProbs = rt.classProbs;
    const heldThreat = rt.threat;
    for (const seed of [2, 3]) {
      rt.infer(randomFrame(seed));
      expect(Array.from(heldProbs)).toEqual(expected().probs);
      expect(Array.from(heldThreat)).toEqual(expected().threat);
    }
    // Deferred: read after the second of two frames, the getters give the second frame's values.
    rt.deferProbabilities = true;
    rt.infer(randomFrame(4));
    const first = Array.from(rt.threat);
    rt.infer(randomFrame(5));
    expect(Array.from(rt.threat)).toEqual(expected().threat);
    expect(Array.from(rt.classProbs)).toEqual(expected().probs);
    expect(Array.from(rt.threat)).not.toEqual(first);
  });
});

describe("the one-pass pipeline's harness step", () => {
  it("PlannerPilot's harness step equals the harness run on its own, frame by frame", () => {
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 4, threatLogit: true });
    const harness = new SpatialHarness({ seed: 6 });
    const pilot = new PlannerPilot({ type: "detector", detector, harness: { model: harness, apply: true, options: { regionClip: 2 } } });
    const alone = new SpatialHarnessRuntime(harness, W, H, { regionClip: 2 });
    const env = new FakeEnvironment(8);
    const rgb = new Uint8Array(W * H * 3);
    const state = new Float32Array(STATE_DIM);
    const nav = makeNavigation();
    const held = alone.classProbs;
    let corrected = 0;
    for (let step = 0; step < 8; step++) {
      env.render(rgb);
      env.navigation(nav);
      const a = pilot.act(rgb, state, env);
      const info = alone.step(pilot.detectorRuntime!.logits, rgb, nav, env.time_s);
      // Not deferred (the default): the array handed out before the step holds this step's values.
      const probs = new Float32Array(held.length);
      probabilitiesFromLogits(alone.corrected, probs, new Float32Array(alone.threat.length));
      expect(Array.from(held)).toEqual(Array.from(probs));
      const h = pilot.harnessRuntime!;
      for (const k of ["grey", "imagined", "features", "risk", "sensitivity", "delta", "corrected", "threat", "classProbs"] as const) expect(Array.from(h[k])).toEqual(Array.from(alone[k]));
      expect(Array.from(pilot.lastThreat)).toEqual(Array.from(alone.threat));
      if (info.maxAbs > 0) corrected++;
      if (env.step(a).type !== "running") break;
    }
    expect(corrected).toBeGreaterThan(0);
    harness.dispose();
  });

  it("wireCandidates gives the exact wire probability wherever it can reach 0.5, and 0 only where it cannot", () => {
    // Wire logits at, just inside and just outside the margin of the largest other logit, ties,
    // wire the largest, a NaN, and random cells.
    const rng = new Rng(9);
    const cellsOf: number[][] = [];
    for (const gap of [0, 5e-4, 9.99e-4, 1.001e-3, 2e-3, 0.5, -0.5, -3]) for (const big of [0, 2, 3]) {
      const l = [rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-4, 4), 0];
      l[1] = Math.fround(l[big]! - gap);
      for (let j = 0; j < 4; j++) if (j !== 1 && j !== big) l[j] = Math.min(l[j]!, l[big]!);
      cellsOf.push(l);
    }
    cellsOf.push([0, Number.NaN, 1, 2, 0], [Number.NaN, 0, 1, 2, 0], [1, 1, 1, 1, 0]);
    for (let i = 0; i < 200; i++) cellsOf.push([rng.uniform(-6, 6), rng.uniform(-6, 6), rng.uniform(-6, 6), rng.uniform(-6, 6), rng.uniform(-6, 6)]);
    const logits = Float32Array.from(cellsOf.flat());
    const cells = cellsOf.length;
    const full = new Float32Array(cells * 4);
    probabilitiesFromLogits(logits, full, new Float32Array(cells));
    const wire = new Float32Array(cells).fill(-1);
    wireCandidates(logits, wire, new Float32Array(cells * 4));
    let exact = 0;
    let skipped = 0;
    for (let c = 0; c < cells; c++) {
      const p = full[4 * c + 1]!;
      if (Object.is(wire[c], p)) exact++;
      else {
        expect(wire[c]).toBe(0);
        expect(p).toBeLessThan(0.4999);
        skipped++;
      }
    }
    expect(exact).toBeGreaterThan(20);
    expect(skipped).toBeGreaterThan(100);
    // Some cells do reach 0.5: the exact path is exercised where the count depends on it.
    expect(full.some((p, i) => i % 4 === 1 && p >= 0.5)).toBe(true);
  });
});
