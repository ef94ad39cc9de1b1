/**
 * Man-made ground clutter painted into a simulated image behind its objects (issue 14 item 2:
 * "cluttered backgrounds ... buildings, roads"). Measured on the urban dev photos
 * (docs/real.md): the photo model fires on paving and facade tile joints, kerbs and the edges of
 * paved areas, none of which the simulator's ground shows. Its ground texture is 0.35 m per
 * texel, far coarser than a 1-2 cm joint seen from 2-20 m, so the pattern is drawn in image
 * space, per training crop, as a randomisation of the simulator's background:
 *  - a tiled area (grid or running bond, any orientation, tile side `spacing_px`, joints
 *    `jointWidth_px` wide and `jointContrast` times the tile's brightness, every tile's brightness
 *    jittered), over the whole crop or a half-plane of it;
 *  - the tiles either modulate the rendered ground or replace it with a flat paving colour that
 *    keeps part of the ground's shading;
 *  - on a half-plane, a kerb band (3-6 px, lighter or darker) along the boundary with probability
 *    `kerbChance`.
 * Object pixels (every class id > 0 of the frame's all-pixel mask) are never changed, so a wire's
 * pixels and its labels stay as rendered. Images are interleaved RGB floats
 * in [0, 1], changed in place; pure arithmetic, no I/O.
 */
import type { Rng } from "../util/Rng";
import type { EffectRange } from "./cameraEffects";
import { checkClutterRanges, checkLayerInputs, drawHalfPlane, drawRange, halfPlaneAlpha, halfPlaneDistance } from "./clutterDraws";

export type GroundClutterRanges = {
  /** Probability that a crop gets a tiled area at all. */
  chance: number;
  /** Tile side along the joint rows, px. */
  spacing_px: EffectRange;
  /** Tile length / side. */
  aspect: EffectRange;
  /** Joint width, px (anti-aliased). */
  jointWidth_px: EffectRange;
  /** Joint brightness / tile brightness; drawn from `jointContrast` (darker joints) or its reciprocal range (lighter). */
  jointContrast: EffectRange;
  /** Probability of lighter joints (grout paler than the tiles). */
  lightJointChance: number;
  /** Per-tile brightness jitter amplitude: tile x (1 + a u), u uniform in [-1, 1]. */
  tileJitter: EffectRange;
  /** Probability that the tiles replace the ground with a flat paving colour (else they modulate it). */
  replaceChance: number;
  /** Probability that the area covers the whole crop (else a half-plane). */
  fullChance: number;
  /** Probability of a running bond (every other row shifted by half a tile). */
  staggerChance: number;
  /** Probability of a kerb band along a half-plane's boundary. */
  kerbChance: number;
};

/** Defaults: paving slabs, pavers and facade tiles as the urban dev photos show them at 540 px. */
export const DEFAULT_GROUND_CLUTTER: GroundClutterRanges = {
  chance: 0.5,
  spacing_px: [6, 40],
  aspect: [1, 2.5],
  jointWidth_px: [0.6, 1.8],
  jointContrast: [0.55, 0.9],
  lightJointChance: 0.3,
  tileJitter: [0, 0.12],
  replaceChance: 0.6,
  fullChance: 0.4,
  staggerChance: 0.5,
  kerbChance: 0.5,
};

/** One draw: the pattern of one crop. */
export type GroundClutter = {
  /** Joint-row direction, radians. */
  angle: number;
  /** Pattern origin offset, px. */
  u0: number;
  v0: number;
  /** Tile side across rows (a) and along them (b), px. */
  a: number;
  b: number;
  jointWidth: number;
  jointFactor: number;
  tileJitter: number;
  stagger: boolean;
  /** Flat paving colour (0..1) when the tiles replace the ground. */
  paving?: [number, number, number];
  /** Half-plane n . (x, y) >= d (unit n); absent: the whole crop. */
  half?: { nx: number; ny: number; d: number; kerbWidth: number; kerbFactor: number };
  /** Seed of the per-tile brightness hash. */
  tileSeed: number;
};

function checkRanges(r: GroundClutterRanges): void {
  checkClutterRanges("ground clutter", r);
  if (r.spacing_px[0] < 2) throw new RangeError(`ground clutter spacing_px=[${r.spacing_px.join(", ")}], expected tiles of at least 2 px`);
}

/** The pattern of one crop of side `size`, or undefined (probability 1 - chance). */
export function drawGroundClutter(rng: Rng, size: number, ranges: GroundClutterRanges = DEFAULT_GROUND_CLUTTER): GroundClutter | undefined {
  checkRanges(ranges);
  if (!rng.chance(ranges.chance)) return undefined;
  const a = drawRange(rng, ranges.spacing_px);
  const light = rng.chance(ranges.lightJointChance);
  const contrast = drawRange(rng, ranges.jointContrast);
  const c: GroundClutter = {
    angle: rng.uniform(0, Math.PI),
    u0: rng.uniform(0, 1000),
    v0: rng.uniform(0, 1000),
    a,
    b: a * drawRange(rng, ranges.aspect),
    jointWidth: drawRange(rng, ranges.jointWidth_px),
    jointFactor: light && contrast > 0 ? 1 / contrast : contrast,
    tileJitter: drawRange(rng, ranges.tileJitter),
    stagger: rng.chance(ranges.staggerChance),
    tileSeed: rng.nextU32(),
  };
  if (rng.chance(ranges.replaceChance)) {
    const grey = rng.uniform(0.3, 0.8);
    c.paving = [grey * rng.uniform(0.9, 1.15), grey * rng.uniform(0.9, 1.05), grey * rng.uniform(0.85, 1.0)];
  }
  if (!rng.chance(ranges.fullChance)) {
    const plane = drawHalfPlane(rng, size);
    const kerb = rng.chance(ranges.kerbChance);
    c.half = { ...plane, kerbWidth: kerb ? rng.uniform(3, 6) : 0, kerbFactor: rng.chance(0.5) ? rng.uniform(1.2, 1.5) : rng.uniform(0.55, 0.8) };
  }
  return c;
}

/** Brightness jitter of tile (row, col) in [-1, 1]: an integer hash, the same tile the same value. */
function tileNoise(seed: number, row: number, col: number): number {
  let h = Math.imul(row ^ seed, 0x27d4eb2d) ^ Math.imul(col + 0x165667b1, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  return ((h >>> 0) / 4294967295) * 2 - 1;
}

/** Coverage in [0, 1] of a joint of width w centred at distance 0 for a pixel at distance d (box filter of 1 px). */
function jointCoverage(d: number, w: number): number {
  const v = w / 2 + 0.5 - d;
  return v <= 0 ? 0 : v >= Math.min(1, w) ? Math.min(1, w) : v;
}

/** Distance from t to the nearest multiple of p. */
function toGrid(t: number, p: number): number {
  const m = t - p * Math.floor(t / p);
  return Math.min(m, p - m);
}

/**
 * Paints `c` into `img` (width x height x 3, [0, 1]) where `keep` is 0: the frame's class mask
 * under the crop (undefined: everywhere). The pixels beside an object, which hold part of its
 * colour, are painted too: in a replacing pattern the paving keeps 60 % of their shading, so an
 * anti-aliased wire edge stays darker or lighter than its paving instead of keeping a rim of the
 * old ground around the wire.
 */
export function applyGroundClutter(img: Float32Array, width: number, height: number, c: GroundClutter, keep?: Uint8Array): void {
  checkLayerInputs(img, width, height, keep);
  const cos = Math.cos(c.angle);
  const sin = Math.sin(c.angle);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (keep !== undefined && keep[p] !== 0) continue;
      let alpha = 1;
      let kerb = 0;
      if (c.half !== undefined) {
        const s = halfPlaneDistance(c.half, x, y);
        alpha = halfPlaneAlpha(s);
        if (alpha === 0) continue;
        if (c.half.kerbWidth > 0) kerb = jointCoverage(Math.abs(s - c.half.kerbWidth / 2), c.half.kerbWidth);
      }
      const u = cos * x + sin * y + c.u0;
      const v = -sin * x + cos * y + c.v0;
      const row = Math.floor(v / c.a);
      const us = c.stagger && (row & 1) === 1 ? u + c.b / 2 : u;
      const col = Math.floor(us / c.b);
      const joint = Math.max(jointCoverage(toGrid(v, c.a), c.jointWidth), jointCoverage(toGrid(us, c.b), c.jointWidth));
      const tile = (1 + c.tileJitter * tileNoise(c.tileSeed, row, col)) * (1 + (c.jointFactor - 1) * joint) * (1 + ((c.half?.kerbFactor ?? 1) - 1) * kerb);
      const o = 3 * p;
      for (let k = 0; k < 3; k++) {
        const ground = img[o + k]!;
        const base = c.paving === undefined ? ground : c.paving[k]! * (0.7 + 0.6 * ground);
        const painted = base * tile;
        const v2 = ground + alpha * (painted - ground);
        img[o + k] = v2 < 0 ? 0 : v2 > 1 ? 1 : v2;
      }
    }
  }
}
