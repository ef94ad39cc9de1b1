/**
 * Thin-structure rendering: a horizontal wire of radius r at distance d in front of a level
 * camera must deposit "ink" of w = 2 r f / d pixels per column (the projected diameter; for
 * w < 1 px the line is 1 px wide with intensity scaled by w), so its contrast falls as 1/d once
 * it is thinner than a pixel, and the ground-truth mask labels one pixel per column (the one the
 * centre line crosses) however thin the wire is.
 */
import { makeCamera, Renderer, CLASS_WIRE, type World } from "../../sim";
import { emptyWorld } from "./fixtures";

const base = emptyWorld();

/** The empty world plus one wire along x at (y = d, z = zc) of radius r and grey albedo. */
function withWire(r: number, d: number, zc: number, albedo = 0.05): World {
  return {
    ...base,
    segments: {
      count: 1,
      a: Float64Array.of(-500, d, zc),
      b: Float64Array.of(500, d, zc),
      radius: Float64Array.of(r),
      cls: Uint8Array.of(CLASS_WIRE),
      object: Int32Array.of(0),
    },
    objects: [{ id: 0, kind: "wire", cls: CLASS_WIRE, albedo: [albedo, albedo, albedo], specular: 0, firstSegment: 0, segmentCount: 1 }],
  };
}

const camera = makeCamera(256, 256, 90, 0);
const f = camera.fx; // 127.5 px... (W/2)/tan(45 deg) = 128
const pose = { x: 0, y: 0, z: 10, yaw: Math.PI / 2, pitch: 0, roll: 0 };

function renderGrey(world: World, mask?: Uint8Array): Float64Array {
  const rgb = new Uint8Array(256 * 256 * 3);
  new Renderer(world, camera, { noiseStd: 0 }).render(pose, { rgb, mask });
  const g = new Float64Array(256 * 256);
  for (let i = 0; i < g.length; i++) g[i] = (rgb[3 * i]! + rgb[3 * i + 1]! + rgb[3 * i + 2]!) / 3;
  return g;
}

/** Mean ink per column (in px of full coverage) over columns 100..155, and the peak contrast. */
function measure(r: number, d: number): { ink: number; peak: number; labelled: number[] } {
  // Above the horizon (sky background): elevation atan(0.25) puts the wire 32 px above centre.
  const zc = 10 + 0.25 * d;
  const bg = renderGrey(withWire(0, d, zc));
  const core = renderGrey(withWire(0.08 * d, d, zc)); // 20 px wide: its centre is pure wire colour
  const mask = new Uint8Array(256 * 256);
  const img = renderGrey(withWire(r, d, zc), mask);
  let ink = 0;
  let peak = 0;
  const labelled: number[] = [];
  for (let u = 100; u < 156; u++) {
    let col = 0;
    let lab = 0;
    for (let v = 60; v < 130; v++) {
      const i = v * 256 + u;
      const span = bg[i]! - core[96 * 256 + u]!;
      const c = (bg[i]! - img[i]!) / span;
      col += c;
      peak = Math.max(peak, c);
      if (mask[i] === CLASS_WIRE) lab++;
    }
    ink += col;
    labelled.push(lab);
  }
  return { ink: ink / 56, peak, labelled };
}

describe("thin wire rendering", () => {
  it.each([
    [0.03, 5],
    [0.02, 2],
    [0.01, 20],
    [0.01, 40],
  ])("a wire of radius %f m at %f m deposits 2 r f / d px of ink per column (within 10 %% + 8-bit rounding)", (r, d) => {
    const expected = (2 * r * f) / d;
    const { ink } = measure(r, d);
    // 8-bit quantisation of a faint line loses up to 0.5 grey level per pixel: allow 0.01 px.
    expect(Math.abs(ink - expected)).toBeLessThan(0.1 * expected + 0.01);
  });

  it("a sub-pixel wire's contrast halves when its distance doubles (10 mm wire at 20 m vs 40 m)", () => {
    const near = measure(0.01, 20).peak;
    const far = measure(0.01, 40).peak;
    expect(near).toBeLessThan(0.2); // 2 r f / d = 0.128: a faint line
    expect(near / far).toBeGreaterThan(1.7);
    expect(near / far).toBeLessThan(2.3);
  });

  it("shades by albedo: a dark wire is darker than the sky behind it, a bright one brighter than a dark one", () => {
    const zc = 10 + 0.25 * 5;
    const bg = renderGrey(withWire(0, 5, zc))[96 * 256 + 128]!;
    const dark = renderGrey(withWire(0.2, 5, zc, 0.05))[96 * 256 + 128]!;
    const bright = renderGrey(withWire(0.2, 5, zc, 0.9))[96 * 256 + 128]!;
    expect(dark).toBeLessThan(bg - 60);
    expect(bright).toBeGreaterThan(dark + 60);
  });

  it("labels exactly one pixel per column for a sub-pixel wire and ~w pixels for a thick one", () => {
    expect(measure(0.01, 40).labelled).toEqual(new Array(56).fill(1));
    const thick = measure(0.05, 2); // w = 6.4 px
    for (const n of thick.labelled) {
      expect(n).toBeGreaterThanOrEqual(6);
      expect(n).toBeLessThanOrEqual(7);
    }
  });
});

describe("motion blur", () => {
  it("blurs a turning view deterministically and keeps the labels of the final pose", () => {
    const world = withWire(0.02, 5, 10 + 0.25 * 5);
    const end = { ...pose, yaw: pose.yaw + 0.05 };
    const render = (blur: boolean): { rgb: Uint8Array; mask: Uint8Array } => {
      const rgb = new Uint8Array(256 * 256 * 3);
      const mask = new Uint8Array(256 * 256);
      new Renderer(world, camera, { noiseStd: 0 }).render(end, { rgb, mask }, blur ? pose : undefined, blur ? 4 : 0);
      return { rgb, mask };
    };
    const sharp = render(false);
    const blurred = render(true);
    expect(Buffer.from(blurred.rgb).equals(Buffer.from(render(true).rgb))).toBe(true);
    expect(Buffer.from(blurred.rgb).equals(Buffer.from(sharp.rgb))).toBe(false);
    expect(Buffer.from(blurred.mask).equals(Buffer.from(sharp.mask))).toBe(true);
    // A yaw of 0.05 rad (6.4 px at f = 128) smears the view horizontally: neighbouring columns
    // of the upper image differ less in the blurred image than in the sharp one.
    const roughness = (rgb: Uint8Array): number => {
      let sum = 0;
      for (let v = 0; v < 100; v++) for (let u = 1; u < 256; u++) sum += Math.abs(rgb[(v * 256 + u) * 3]! - rgb[(v * 256 + u - 1) * 3]!);
      return sum;
    };
    expect(roughness(blurred.rgb)).toBeLessThan(roughness(sharp.rgb));
  });
});
