/**
 * Tileable value noise (lattice values from an integer hash, smoothstep interpolation), used to
 * make the procedural ground and cloud textures. Deterministic for a seed.
 */
import { hash32 } from "../src/util/Rng";

function lattice(seed: number, ix: number, iy: number): number {
  return hash32(Math.imul(ix, 0x1f1f1f1f) ^ Math.imul(iy, 0x5bd1e995) ^ Math.imul(seed, 0x27d4eb2d)) / 4294967296;
}

/**
 * Value noise in [0, 1) at (x, y) (lattice units), tiled with period `period` lattice cells
 * (an integer), so a texture made from it wraps seamlessly.
 */
export function valueNoise2(seed: number, x: number, y: number, period: number): number {
  const p = Math.max(1, Math.round(period));
  const fx = Math.floor(x);
  const fy = Math.floor(y);
  const tx = x - fx;
  const ty = y - fy;
  const x0 = ((fx % p) + p) % p;
  const y0 = ((fy % p) + p) % p;
  const x1 = (x0 + 1) % p;
  const y1 = (y0 + 1) % p;
  const sx = tx * tx * (3 - 2 * tx);
  const sy = ty * ty * (3 - 2 * ty);
  const a = lattice(seed, x0, y0);
  const b = lattice(seed, x1, y0);
  const c = lattice(seed, x0, y1);
  const d = lattice(seed, x1, y1);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** Fractal sum of `octaves` value-noise layers, normalised to [0, 1). */
export function fbm2(seed: number, x: number, y: number, period: number, octaves: number): number {
  let sum = 0;
  let norm = 0;
  let amp = 1;
  let f = 1;
  for (let k = 0; k < octaves; k++) {
    sum += amp * valueNoise2(seed + k * 101, x * f, y * f, period * f);
    norm += amp;
    amp *= 0.5;
    f *= 2;
  }
  return sum / norm;
}

/**
 * A whole tileable value-noise layer of size x size samples with lattice cells of `cell` samples
 * (size must be a multiple of cell), computed from a lattice table instead of hashing per sample.
 * Every sample of `out` (a new array by default) is written.
 */
export function noiseLayer(seed: number, size: number, cell: number, out: Float32Array = new Float32Array(size * size)): Float32Array {
  if (out.length !== size * size) throw new RangeError(`noiseLayer out.length=${out.length}, expected ${size * size}`);
  const c = Math.max(1, Math.round(cell));
  const period = Math.max(1, Math.round(size / c));
  const lat = new Float32Array(period * period);
  for (let y = 0; y < period; y++) for (let x = 0; x < period; x++) lat[y * period + x] = hash32(Math.imul(x, 0x1f1f1f1f) ^ Math.imul(y, 0x5bd1e995) ^ Math.imul(seed, 0x27d4eb2d)) / 4294967296;
  const s = new Float32Array(c);
  for (let i = 0; i < c; i++) {
    const t = i / c;
    s[i] = t * t * (3 - 2 * t);
  }
  // Row by row, one lattice cell (c samples) at a time: the four corners and their differences are
  // read once per cell. The expression and its order are those of valueNoise2's interpolation.
  for (let y = 0; y < size; y++) {
    const cy = Math.floor(y / c) % period;
    const cy1 = (cy + 1) % period;
    const sy = s[y % c]!;
    const row = y * size;
    for (let x0 = 0, cx = 0; x0 < size; x0 += c, cx = (cx + 1) % period) {
      const cx1 = (cx + 1) % period;
      const a = lat[cy * period + cx]!;
      const b = lat[cy * period + cx1]!;
      const d = lat[cy1 * period + cx]!;
      const e = lat[cy1 * period + cx1]!;
      const ba = b - a;
      const day = (d - a) * sy;
      const k = a - b - d + e;
      const n = Math.min(c, size - x0);
      for (let i = 0; i < n; i++) {
        const sx = s[i]!;
        out[row + x0 + i] = a + ba * sx + day + k * sx * sy;
      }
    }
  }
  return out;
}
