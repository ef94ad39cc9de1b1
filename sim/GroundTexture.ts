/**
 * Procedural aerial ground texture: a square tile of size^2 texels (RGB, 8 bit, values
 * in the renderer's linear 0..1 scale times 255) with a full mip chain, repeated over the plane
 * z = 0. Land is cut into rectangular parcels by a seeded k-d split; each parcel becomes a field
 * (crop rows), foliage (tree canopy blobs), water or buildings (roofs with cast shadows), and some
 * split lines become roads with dashed centre lines. Weights and brightness come from the scenario
 * (domain randomisation: different palettes, orientations and brightness per seed).
 */
import type { Rng } from "../src/util/Rng";
import { noiseLayer } from "./noise";

export type GroundTexture = {
  /** Metres per texel at level 0. */
  texel_m: number;
  /** Texels per side at level 0 (a power of two). */
  size: number;
  /** levels[k] is (size >> k)^2 texels, RGB interleaved. */
  levels: Uint8Array[];
  /** GRAIN_SIZE^2 brightness factors (about 0.82..1.18), tiled GRAIN_PER_TEXEL times per texel. */
  grain: Float32Array;
};

export const GRAIN_SIZE = 64;
/** Grain cells per ground texel. */
export const GRAIN_PER_TEXEL = 4;

export type GroundOptions = {
  texel_m: number;
  size: number;
  fields: number;
  roads: number;
  buildings: number;
  foliage: number;
  water: number;
  brightness: number;
};

type Rect = { x: number; y: number; w: number; h: number };
type Road = { horizontal: boolean; at: number; from: number; to: number; width: number };
type Use = "field" | "foliage" | "water" | "buildings";
/**
 * Shared noise layers (tileable), sampled with per-parcel offsets: coarse 128, medium 32, fine 8
 * and very fine 4 texels per lattice cell, and the canopy at about 3 m.
 */
type NoiseLayers = { coarse: Float32Array; medium: Float32Array; fine: Float32Array; vfine: Float32Array; canopy: Float32Array };
/** Where a parcel is painted: its rectangle, its offset into the noise layers and its brightness jitter. */
type ParcelPaint = { img: Float32Array; N: number; p: Rect; ox: number; oy: number; jitter: number; layers: NoiseLayers };

// Crop, meadow, stubble and bare-soil colours (muted: aerial photographs are hazy and
// low in saturation).
const PALETTE: Array<[number, number, number]> = [
  [0.24, 0.33, 0.15],
  [0.33, 0.4, 0.2],
  [0.5, 0.46, 0.3],
  [0.42, 0.35, 0.26],
  [0.3, 0.37, 0.22],
  [0.55, 0.52, 0.4],
  [0.36, 0.3, 0.24],
];
const ROOFS: Array<[number, number, number]> = [
  [0.5, 0.22, 0.16],
  [0.35, 0.35, 0.37],
  [0.7, 0.7, 0.68],
  [0.2, 0.2, 0.22],
];

/**
 * The builder's working arrays (the float image and the five noise layers: 32 MiB at 1024
 * texels), kept for the next tile of the same size in this thread instead of allocated per world.
 * Fresh multi-megabyte arrays cost page faults and, when freed, address-space unmapping that stalls
 * the other threads of the process (frame-generation workers build one tile per flight). Nothing
 * of them outlives a build: every element is written before it is read (the parcels tile the
 * image; noiseLayer writes every sample).
 */
let scratch: { N: number; img: Float32Array; layerBuffers: Float32Array[] } | undefined;

function scratchFor(N: number): { img: Float32Array; layerBuffers: Float32Array[] } {
  if (scratch?.N !== N) scratch = { N, img: new Float32Array(N * N * 3), layerBuffers: Array.from({ length: 5 }, () => new Float32Array(N * N)) };
  return scratch;
}

export function buildGround(rng: Rng, o: GroundOptions): GroundTexture {
  const N = o.size;
  if (!Number.isInteger(N) || N < 64 || (N & (N - 1)) !== 0) throw new RangeError(`size=${N}, expected a power of two >= 64`);
  const { img, layerBuffers } = scratchFor(N);
  const parcels: Rect[] = [];
  const roads: Road[] = [];
  splitLand(rng, o, { x: 0, y: 0, w: N, h: N }, 0, parcels, roads);
  const uses: Array<[Use, number]> = [
    ["field", o.fields],
    ["foliage", o.foliage],
    ["water", o.water],
    ["buildings", o.buildings],
  ];
  const detailSeed = rng.nextU32();
  const layers: NoiseLayers = {
    coarse: noiseLayer(detailSeed, N, Math.min(128, N / 2), layerBuffers[0]),
    medium: noiseLayer(detailSeed + 1, N, 32, layerBuffers[1]),
    fine: noiseLayer(detailSeed + 2, N, 8, layerBuffers[2]),
    vfine: noiseLayer(detailSeed + 3, N, 4, layerBuffers[3]),
    canopy: noiseLayer(detailSeed + 4, N, Math.max(2, Math.round(3 / o.texel_m)), layerBuffers[4]),
  };
  const M = N - 1;
  for (const p of parcels) {
    const use = pickUse(rng, uses);
    const pp: ParcelPaint = { img, N, p, ox: rng.int(0, M), oy: rng.int(0, M), jitter: rng.uniform(0.85, 1.15), layers };
    switch (use) {
      case "field":
        paintField(pp, rng, o.texel_m);
        break;
      case "foliage":
        paintFoliage(pp, rng);
        break;
      case "water":
        paintWater(pp, rng);
        break;
      case "buildings":
        paintBuildings(pp, rng, o.texel_m);
        break;
    }
  }
  for (const road of roads) paintRoad(img, N, road, layers.vfine, o.texel_m);
  const levels = mipChain(quantise(img, N, layers.coarse, o.brightness), N);
  // Sub-texel grain for close range (grass, gravel), applied where level 0 is magnified.
  const grain = noiseLayer(detailSeed + 5, GRAIN_SIZE, 2);
  for (let i = 0; i < grain.length; i++) grain[i] = 0.82 + 0.36 * grain[i]!;
  return { texel_m: o.texel_m, size: N, levels, grain };
}

/**
 * Seeded k-d split of `r` into parcels (until they are small, or at random once mid-sized); some
 * split lines become roads.
 */
function splitLand(rng: Rng, o: GroundOptions, r: Rect, depth: number, parcels: Rect[], roads: Road[]): void {
  const big = Math.max(r.w, r.h);
  if (big < 60 || (depth > 2 && big < 260 && rng.chance(0.35)) || depth > 8) {
    parcels.push(r);
    return;
  }
  const roadProb = Math.min(0.9, o.roads * 0.35);
  const horizontal = r.h > r.w;
  const f = rng.uniform(0.3, 0.7);
  if (horizontal) {
    const cut = Math.round(r.h * f);
    splitLand(rng, o, { x: r.x, y: r.y, w: r.w, h: cut }, depth + 1, parcels, roads);
    splitLand(rng, o, { x: r.x, y: r.y + cut, w: r.w, h: r.h - cut }, depth + 1, parcels, roads);
    if (rng.chance(roadProb)) roads.push({ horizontal: true, at: r.y + cut, from: r.x, to: r.x + r.w, width: rng.uniform(4, 9) / o.texel_m / 2.5 });
  } else {
    const cut = Math.round(r.w * f);
    splitLand(rng, o, { x: r.x, y: r.y, w: cut, h: r.h }, depth + 1, parcels, roads);
    splitLand(rng, o, { x: r.x + cut, y: r.y, w: r.w - cut, h: r.h }, depth + 1, parcels, roads);
    if (rng.chance(roadProb)) roads.push({ horizontal: false, at: r.x + cut, from: r.y, to: r.y + r.h, width: rng.uniform(4, 9) / o.texel_m / 2.5 });
  }
}

/** A land use drawn with probability proportional to its weight (fields when all are 0). */
function pickUse(rng: Rng, uses: Array<[Use, number]>): Use {
  const total = uses.reduce((s, u) => s + u[1], 0);
  if (total <= 0) return "field";
  let x = rng.uniform(0, total);
  for (const [u, w] of uses) {
    if (x < w) return u;
    x -= w;
  }
  return "field";
}

/** Crop rows: a palette colour striped at a random angle and period, modulated by noise. */
function paintField(pp: ParcelPaint, rng: Rng, texel_m: number): void {
  const { img, N, p, ox, oy, jitter } = pp;
  const { medium, fine } = pp.layers;
  const M = N - 1;
  const base = PALETTE[rng.int(0, PALETTE.length - 1)] ?? [0.3, 0.4, 0.2];
  const angle = rng.uniform(0, Math.PI);
  const ca = Math.cos(angle);
  const sa = Math.sin(angle);
  const period = rng.uniform(1.5, 4) / texel_m;
  const stripe = rng.uniform(0.03, 0.12);
  for (let y = p.y; y < p.y + p.h; y++) {
    for (let x = p.x; x < p.x + p.w; x++) {
      const q = (((y + oy) & M) * N + ((x + ox) & M));
      const n = 0.65 * medium[q]! + 0.35 * fine[q]!;
      const s = Math.sin(((x * ca + y * sa) / period) * 2 * Math.PI) * stripe;
      const k = jitter * (0.8 + 0.4 * n) + s;
      put(img, N, x, y, base[0] * k, base[1] * k, base[2] * k);
    }
  }
}

/** Tree canopy blobs: dark greens modulated by the canopy and very fine layers. */
function paintFoliage(pp: ParcelPaint, rng: Rng): void {
  const { img, N, p, ox, oy, jitter } = pp;
  const { canopy, vfine } = pp.layers;
  const M = N - 1;
  const base: [number, number, number] = [rng.uniform(0.06, 0.14), rng.uniform(0.16, 0.26), rng.uniform(0.05, 0.1)];
  for (let y = p.y; y < p.y + p.h; y++) {
    for (let x = p.x; x < p.x + p.w; x++) {
      const q = (((y + oy) & M) * N + ((x + ox) & M));
      const n = canopy[q]!;
      const n2 = vfine[q]!;
      const k = jitter * (0.45 + 1.1 * n * n + 0.25 * n2);
      put(img, N, x, y, base[0] * k, base[1] * k, base[2] * k);
    }
  }
}

/** Water: seen from low altitude it mostly reflects the sky: blue-grey, sometimes murky green. */
function paintWater(pp: ParcelPaint, rng: Rng): void {
  const { img, N, p, ox, oy, jitter } = pp;
  const { medium } = pp.layers;
  const M = N - 1;
  const murky = rng.uniform(0, 1);
  const base: [number, number, number] = [0.16 + 0.06 * murky, 0.24 + 0.04 * murky, 0.34 - 0.08 * murky];
  for (let y = p.y; y < p.y + p.h; y++) {
    for (let x = p.x; x < p.x + p.w; x++) {
      const k = jitter * (0.9 + 0.2 * medium[(((y + oy) & M) * N + ((x + ox) & M))]!);
      put(img, N, x, y, base[0] * k, base[1] * k, base[2] * k);
    }
  }
}

/** A yard with buildings: two-tone roofs (the ridge along the longer side) casting shadows. */
function paintBuildings(pp: ParcelPaint, rng: Rng, texel_m: number): void {
  const { img, N, p, ox, oy } = pp;
  const { fine } = pp.layers;
  const M = N - 1;
  const yard: [number, number, number] = rng.chance(0.5) ? [0.42, 0.42, 0.4] : [0.3, 0.4, 0.22];
  for (let y = p.y; y < p.y + p.h; y++) {
    for (let x = p.x; x < p.x + p.w; x++) {
      const k = 0.9 + 0.2 * fine[(((y + oy) & M) * N + ((x + ox) & M))]!;
      put(img, N, x, y, yard[0] * k, yard[1] * k, yard[2] * k);
    }
  }
  const count = Math.max(1, Math.round((p.w * p.h * texel_m * texel_m) / 600));
  for (let i = 0; i < count; i++) {
    const bw = Math.round(rng.uniform(8, 25) / texel_m);
    const bh = Math.round(rng.uniform(8, 20) / texel_m);
    const bx = p.x + rng.int(0, Math.max(0, p.w - bw - 1));
    const by = p.y + rng.int(0, Math.max(0, p.h - bh - 1));
    const roof = ROOFS[rng.int(0, ROOFS.length - 1)] ?? [0.4, 0.4, 0.4];
    const shadow = Math.round(rng.uniform(2, 6) / texel_m);
    fillRect(img, N, bx + shadow, by + shadow, bw, bh, (r, g, b) => [r * 0.45, g * 0.45, b * 0.5]);
    const ridgeAlongX = bw > bh;
    fillRect(img, N, bx, by, bw, bh, (_r, _g, _b, x, y) => {
      const half = ridgeAlongX ? (y - by < bh / 2 ? 1.08 : 0.88) : x - bx < bw / 2 ? 1.08 : 0.88;
      return [roof[0] * half, roof[1] * half, roof[2] * half];
    });
  }
}

/** A grey road with a dashed centre line. */
function paintRoad(img: Float32Array, N: number, road: Road, vfine: Float32Array, texel_m: number): void {
  const M = N - 1;
  const half = Math.max(1, road.width);
  const dash = 3 / texel_m;
  for (let s = Math.floor(road.from); s < road.to; s++) {
    for (let d = -Math.ceil(half); d <= Math.ceil(half); d++) {
      const x = road.horizontal ? s : Math.floor(road.at + d);
      const y = road.horizontal ? Math.floor(road.at + d) : s;
      const centre = Math.abs(d) < 0.5 && Math.floor(s / dash) % 2 === 0;
      const v = centre ? 0.75 : 0.3 + 0.04 * vfine[((y & M) * N + (x & M))]!;
      put(img, N, x, y, v, v, v * 1.02);
    }
  }
}

/** Level 0: low-frequency brightness variation over the whole tile, then 8-bit quantisation. */
function quantise(img: Float32Array, N: number, coarse: Float32Array, brightness: number): Uint8Array {
  // A Uint8ClampedArray store rounds half to even, Math.round half up: round here, then clamp by the store.
  const level0 = new Uint8Array(N * N * 3);
  const clamped = new Uint8ClampedArray(level0.buffer);
  for (let j = 0, i = 0; j < N * N; j++, i += 3) {
    const k = brightness * (0.85 + 0.3 * coarse[j]!);
    clamped[i] = Math.round(img[i]! * k * 255);
    clamped[i + 1] = Math.round(img[i + 1]! * k * 255);
    clamped[i + 2] = Math.round(img[i + 2]! * k * 255);
  }
  return level0;
}

/** The mip chain down to 1 x 1 from level 0 (N x N): each level the rounded 2 x 2 box mean of the one above. */
function mipChain(level0: Uint8Array, N: number): Uint8Array[] {
  const levels = [level0];
  for (let size = N >> 1; size >= 1; size >>= 1) {
    const prev = levels[levels.length - 1]!;
    const ps = size * 2;
    const cur = new Uint8Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        for (let c = 0; c < 3; c++) {
          const a = prev[((2 * y) * ps + 2 * x) * 3 + c]!;
          const b = prev[((2 * y) * ps + 2 * x + 1) * 3 + c]!;
          const d = prev[((2 * y + 1) * ps + 2 * x) * 3 + c]!;
          const e = prev[((2 * y + 1) * ps + 2 * x + 1) * 3 + c]!;
          cur[(y * size + x) * 3 + c] = (a + b + d + e + 2) >> 2;
        }
      }
    }
    levels.push(cur);
  }
  return levels;
}

function put(img: Float32Array, N: number, x: number, y: number, r: number, g: number, b: number): void {
  const i = ((((y % N) + N) % N) * N + (((x % N) + N) % N)) * 3;
  img[i] = r;
  img[i + 1] = g;
  img[i + 2] = b;
}

function fillRect(
  img: Float32Array,
  N: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
  f: (r: number, g: number, b: number, x: number, y: number) => [number, number, number],
): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const i = ((((y % N) + N) % N) * N + (((x % N) + N) % N)) * 3;
      const [r, g, b] = f(img[i]!, img[i + 1]!, img[i + 2]!, x, y);
      img[i] = r;
      img[i + 1] = g;
      img[i + 2] = b;
    }
  }
}
