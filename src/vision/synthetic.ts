/**
 * Synthetic test images for the vision tests and bench, generated from continuous functions so
 * that sub-pixel shifts and warps have exact ground truth (no resampling of a raster).
 */
import { Rng } from "../util/Rng";

/** Seeded uniform [0, 1) from the project's one RNG (src/util/Rng.ts), so tests are reproducible. */
export function seededUniform(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** A smooth random texture T(x, y) in about [0, 255]: a sum of plane waves with wavelengths in [minWavelength, maxWavelength] px. */
export function smoothTexture(seed: number, waves = 24, minWavelength = 8, maxWavelength = 40): (x: number, y: number) => number {
  const rnd = seededUniform(seed);
  const kx: number[] = [];
  const ky: number[] = [];
  const ph: number[] = [];
  for (let i = 0; i < waves; i++) {
    const theta = rnd() * 2 * Math.PI;
    const lambda = minWavelength + rnd() * (maxWavelength - minWavelength);
    kx.push((2 * Math.PI * Math.cos(theta)) / lambda);
    ky.push((2 * Math.PI * Math.sin(theta)) / lambda);
    ph.push(rnd() * 2 * Math.PI);
  }
  // Standard deviation 45 grey levels around 128: clipping at 0 or 255 needs > 2.8 sigma.
  const amp = 45 / Math.sqrt(waves / 2);
  return (x, y) => {
    let s = 0;
    for (let i = 0; i < waves; i++) s += Math.sin(kx[i]! * x + ky[i]! * y + ph[i]!);
    return 128 + amp * s;
  };
}

/** Rasterises f at pixel centres (x, y integer) into a width*height grey image, clamped and rounded. */
export function render(width: number, height: number, f: (x: number, y: number) => number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = Math.max(0, Math.min(255, Math.round(f(x, y))));
  }
  return out;
}

/** Same as render, without rounding (Float32 grey levels). */
export function renderF32(width: number, height: number, f: (x: number, y: number) => number): Float32Array {
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = f(x, y);
  return out;
}

/**
 * An anti-aliased dark line of width `widthPx` through (x0, y0) with direction angle `angle`
 * (radians) over a background function: intensity = bg - contrast * coverage, where coverage is
 * the exact fraction of the pixel's footprint along the normal covered by the line's strip (the
 * box-filtered strip: a 1-px line gives a tent profile over distance).
 */
export function wire(
  bg: (x: number, y: number) => number,
  x0: number,
  y0: number,
  angle: number,
  contrast: number,
  widthPx = 1,
): (x: number, y: number) => number {
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  const half = widthPx / 2;
  return (x, y) => {
    const d = (x - x0) * nx + (y - y0) * ny;
    // Overlap of the unit interval [d - 0.5, d + 0.5] with the strip [-half, half].
    const cover = Math.max(0, Math.min(d + 0.5, half) - Math.max(d - 0.5, -half));
    return bg(x, y) - contrast * cover;
  };
}
