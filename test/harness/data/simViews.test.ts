/**
 * Overhead views (issue 14 item 2): camera poses above a wire looking down at it, rendered with the
 * simulator's labels. The geometry is checked where it could go wrong (a pitch of the wrong sign,
 * a camera below its target, a yaw off by pi): with no aim jitter the aimed-at wire projects to
 * the image centre, so the label mask has a wire pixel there in every view.
 */
import { DEFAULT_SCENARIO, seedsOfSplit, type Scenario } from "../../../sim";
import { DEFAULT_VIEWS, generateViews, type ViewRun } from "../../../src/harness/data/simViews";
import { STATE_DIM } from "../../../src/harness/models/stateVector";

const SIZE = 96;
const scenario: Scenario = {
  ...DEFAULT_SCENARIO,
  camera: { ...DEFAULT_SCENARIO.camera, width: SIZE, height: SIZE },
  ground: { ...DEFAULT_SCENARIO.ground, textureSize: 256 },
};
const [seed = 0, other = 1] = seedsOfSplit("train", 2);

function run(overrides: Partial<ViewRun["views"]> = {}): ViewRun {
  return { scenario, split: "train", stateDim: STATE_DIM, rngSeed: 3, views: { ...DEFAULT_VIEWS, perWorld: 6, ...overrides } };
}

/** True when the mask has class `cls` within `r` px of the image centre. */
function nearCentre(mask: Uint8Array, cls: number, r: number): boolean {
  const c = (SIZE - 1) / 2;
  for (let y = Math.floor(c - r); y <= Math.ceil(c + r); y++) {
    for (let x = Math.floor(c - r); x <= Math.ceil(c + r); x++) if (mask[y * SIZE + x] === cls) return true;
  }
  return false;
}

describe("generateViews (simViews.ts)", () => {
  it("aims every view at a wire: with no jitter the wire is at the image centre", () => {
    const frames = generateViews(run({ aim: { wire: 1, branch: 0, ground: 0 }, aimJitter_deg: 0, roll_deg: 0, wireRadiusScale: [3, 3] }), seed);
    expect(frames).toHaveLength(6);
    // A nearer branch or pole can hide the aimed-at wire; allow one of six.
    expect(frames.filter((f) => nearCentre(f.mask, 1, 3)).length).toBeGreaterThanOrEqual(5);
  });

  it("sees the ground behind the wires: most pixels are below the horizon", () => {
    const frames = generateViews(run({ elevation_deg: [60, 88] }), seed);
    for (const f of frames) {
      // The sky of our renderer is blue-dominant and bright; the ground textures are not. Count
      // pixels whose blue channel exceeds red by 30 (sky) in the view.
      let sky = 0;
      for (let i = 0; i < SIZE * SIZE; i++) if (f.rgb[3 * i + 2]! - f.rgb[3 * i]! > 30) sky++;
      expect(sky / (SIZE * SIZE)).toBeLessThan(0.2);
    }
  });

  it("labels only what is visible, gives frames zero state and no threat flag", () => {
    const frames = generateViews(run(), seed);
    for (const f of frames) {
      for (let i = 0; i < f.mask.length; i++) if (f.visibleMask![i] !== 0) expect(f.visibleMask![i]).toBe(f.mask[i]);
      expect(Array.from(f.state)).toEqual(new Array(STATE_DIM).fill(0));
      expect(f.threat).toBe(false);
      expect(f.near).toHaveLength((SIZE / 8) ** 2);
    }
  });

  it("is deterministic per seed and independent of what was rendered before", () => {
    const a = generateViews(run(), seed);
    generateViews(run(), other);
    const b = generateViews(run(), seed);
    expect(b.map((f) => Buffer.from(f.rgb).toString("base64"))).toEqual(a.map((f) => Buffer.from(f.rgb).toString("base64")));
    const c = generateViews(run(), other);
    expect(Buffer.from(c[0]!.rgb).equals(Buffer.from(a[0]!.rgb))).toBe(false);
  });

  it("refuses a seed of another split and a bad view count", () => {
    const [val = 0] = seedsOfSplit("val", 1);
    expect(() => generateViews(run(), val)).toThrow(/split|seed/i);
    expect(() => generateViews(run({ perWorld: 0 }), seed)).toThrow(/perWorld=0/);
  });
});
