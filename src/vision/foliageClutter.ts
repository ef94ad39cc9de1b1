/**
 * Leaf-scale foliage painted into a simulated image behind its objects (issue 14 item 2:
 * "cluttered backgrounds: foliage"). In the urban dev photos most wires run over tree crowns seen
 * from a few metres: leaves 2-10 px across, dark gaps between them, lit and shaded sides, so the
 * background is full of short edges of every orientation. The simulator's foliage is a canopy
 * noise on a 0.35 m ground texel, smooth at that range, so a detector trained on it has never
 * had to tell a wire from leaf-scale texture. This draws the texture in image space, per training
 * crop: a dark base (the gaps), then elliptical leaves at random orientations, painted in turn,
 * with colours from a drawn hue family and lit or shaded brightness, over the whole crop or a
 * half-plane of it. Object pixels (class id > 0 in the frame's mask) are never changed. Images are
 * interleaved RGB floats in [0, 1], changed in place; pure arithmetic, no I/O.
 */
import type { Rng } from "../util/Rng";
import type { EffectRange } from "./cameraEffects";
import { checkClutterRanges, checkLayerInputs, drawHalfPlane, drawRange, halfPlaneAlpha, halfPlaneDistance } from "./clutterDraws";

export type FoliageClutterRanges = {
  /** Probability that a crop gets foliage at all. */
  chance: number;
  /** Leaf semi-major axis, px. */
  leafRadius_px: EffectRange;
  /** Leaf minor / major axis. */
  leafAspect: EffectRange;
  /** Leaf area painted / crop area (leaves overlap; 1.5 leaves few gaps). */
  coverage: EffectRange;
  /** Brightness of the gaps between leaves, 0..1. */
  gapBrightness: EffectRange;
  /** Leaf brightness, 0..1 (before the hue). */
  leafBrightness: EffectRange;
  /** Probability that the foliage covers the whole crop (else a half-plane). */
  fullChance: number;
};

export const DEFAULT_FOLIAGE_CLUTTER: FoliageClutterRanges = {
  chance: 0.5,
  leafRadius_px: [1.5, 6],
  leafAspect: [0.35, 0.9],
  coverage: [0.9, 1.8],
  gapBrightness: [0.03, 0.2],
  leafBrightness: [0.2, 0.75],
  fullChance: 0.5,
};

/** Hue families (r, g, b multipliers): summer green, olive, yellow-green, autumn brown, dark evergreen. */
const HUES: ReadonlyArray<readonly [number, number, number]> = [
  [0.55, 1.0, 0.35],
  [0.8, 0.9, 0.45],
  [0.85, 1.0, 0.3],
  [1.0, 0.75, 0.45],
  [0.45, 0.75, 0.45],
];

export type Leaf = { x: number; y: number; a: number; b: number; cos: number; sin: number; rgb: [number, number, number] };

/** One draw: the foliage of one crop. */
export type FoliageClutter = {
  gap: [number, number, number];
  leaves: Leaf[];
  /** Half-plane n . (x, y) >= d (unit n); absent: the whole crop. */
  half?: { nx: number; ny: number; d: number };
};

function checkRanges(r: FoliageClutterRanges): void {
  checkClutterRanges("foliage clutter", r);
  if (r.leafRadius_px[0] < 0.5) throw new RangeError(`foliage clutter leafRadius_px=[${r.leafRadius_px.join(", ")}], expected leaves of at least 0.5 px`);
}

/** The foliage of one crop of side `size`, or undefined (probability 1 - chance). */
export function drawFoliageClutter(rng: Rng, size: number, ranges: FoliageClutterRanges = DEFAULT_FOLIAGE_CLUTTER): FoliageClutter | undefined {
  checkRanges(ranges);
  if (!rng.chance(ranges.chance)) return undefined;
  const hue = HUES[rng.int(0, HUES.length - 1)] ?? HUES[0]!;
  const radius = drawRange(rng, ranges.leafRadius_px);
  const aspect = drawRange(rng, ranges.leafAspect);
  const meanArea = Math.PI * radius * radius * aspect;
  const count = Math.round((drawRange(rng, ranges.coverage) * size * size) / meanArea);
  const g = drawRange(rng, ranges.gapBrightness);
  const leaves: Leaf[] = [];
  for (let i = 0; i < count; i++) {
    const a = radius * rng.uniform(0.6, 1.4);
    const t = rng.uniform(0, Math.PI);
    const v = drawRange(rng, ranges.leafBrightness);
    const tint = rng.uniform(0.9, 1.1);
    leaves.push({ x: rng.uniform(-a, size + a), y: rng.uniform(-a, size + a), a, b: a * aspect * rng.uniform(0.8, 1.2), cos: Math.cos(t), sin: Math.sin(t), rgb: [v * hue[0] * tint, v * hue[1], v * hue[2] / tint] });
  }
  const c: FoliageClutter = { gap: [g * hue[0], g * hue[1], g * hue[2]], leaves };
  if (!rng.chance(ranges.fullChance)) {
    c.half = drawHalfPlane(rng, size);
  }
  return c;
}

/**
 * Paints `c` into `img` (width x height x 3, [0, 1]) where `keep` is 0 (the frame's class mask
 * under the crop; undefined: everywhere). Leaves are painted in order over the gap colour, each
 * with a 1 px anti-aliased rim; a half-plane's boundary is soft over 1 px.
 */
export function applyFoliageClutter(img: Float32Array, width: number, height: number, c: FoliageClutter, keep?: Uint8Array): void {
  checkLayerInputs(img, width, height, keep);
  const layer = new Float32Array(width * height * 3);
  for (let p = 0; p < width * height; p++) layer.set(c.gap, 3 * p);
  for (const leaf of c.leaves) paintLeaf(layer, width, height, leaf);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (keep !== undefined && keep[p] !== 0) continue;
      const alpha = c.half === undefined ? 1 : halfPlaneAlpha(halfPlaneDistance(c.half, x, y));
      if (alpha === 0) continue;
      for (let k = 0; k < 3; k++) {
        const o = 3 * p + k;
        const v = img[o]! + alpha * (layer[o]! - img[o]!);
        img[o] = v < 0 ? 0 : v > 1 ? 1 : v;
      }
    }
  }
}

function paintLeaf(layer: Float32Array, width: number, height: number, l: Leaf): void {
  const r = Math.ceil(l.a + 1);
  const x0 = Math.max(0, Math.floor(l.x - r));
  const x1 = Math.min(width - 1, Math.ceil(l.x + r));
  const y0 = Math.max(0, Math.floor(l.y - r));
  const y1 = Math.min(height - 1, Math.ceil(l.y + r));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x - l.x;
      const dy = y - l.y;
      const u = (dx * l.cos + dy * l.sin) / l.a;
      const v = (-dx * l.sin + dy * l.cos) / l.b;
      // Distance outside the ellipse in px, roughly: (sqrt(u^2 + v^2) - 1) x the minor semi-axis.
      const cover = Math.min(1, Math.max(0, 0.5 - (Math.sqrt(u * u + v * v) - 1) * l.b));
      if (cover === 0) continue;
      const o = 3 * (y * width + x);
      for (let k = 0; k < 3; k++) layer[o + k] = layer[o + k]! + cover * (l.rgb[k]! - layer[o + k]!);
    }
  }
}
