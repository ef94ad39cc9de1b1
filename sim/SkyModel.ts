/**
 * Analytic sky: a vertical gradient from the horizon colour to the zenith colour, a sun glow
 * around the sun direction and clouds on a plane at `cloudHeight_m`, sampled from a small tiled
 * density texture through the same ray-plane intersection the ground uses.
 */
import type { Rng } from "../src/util/Rng";
import { noiseLayer } from "./noise";

export type SkyModel = {
  /** Unit vector towards the sun (ENU). */
  sunDir: [number, number, number];
  /** Linear RGB of the sunlight (scaled by elevation), the ambient sky light and the colours. */
  sunColor: [number, number, number];
  ambient: number;
  zenith: [number, number, number];
  horizon: [number, number, number];
  /** Haze colour that distant ground fades into, and the visibility distance, m. */
  haze: [number, number, number];
  visibility_m: number;
  cloudHeight_m: number;
  /** Metres per cloud texel; the texture is cloudSize x cloudSize, tiled. */
  cloudTexel_m: number;
  cloudSize: number;
  /** Cloud density 0..1 per texel. */
  clouds: Float32Array;
};

export type SkyOptions = {
  sunElevation_deg: number;
  sunAzimuth_deg: number;
  cloudCover: number;
  visibility_m: number;
  skyBrightness: number;
};

const CLOUD_SIZE = 256;

export function buildSky(rng: Rng, o: SkyOptions): SkyModel {
  const el = (o.sunElevation_deg * Math.PI) / 180;
  const az = (o.sunAzimuth_deg * Math.PI) / 180;
  const sunDir: [number, number, number] = [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
  // Low sun: warmer and weaker light (a crude stand-in for the longer air mass).
  const warm = 1 - Math.min(1, Math.sin(el) * 2.5);
  const sunStrength = 0.35 + 0.75 * Math.sin(el);
  const sunColor: [number, number, number] = [sunStrength * (1 + 0.15 * warm), sunStrength * (1 - 0.05 * warm), sunStrength * (1 - 0.35 * warm)];
  const b = o.skyBrightness;
  const hue = rng.uniform(-0.05, 0.05);
  const zenith: [number, number, number] = [b * (0.25 + hue), b * 0.45, b * (0.85 - hue)];
  const horizon: [number, number, number] = [b * (0.72 + 0.15 * warm), b * (0.8 + 0.05 * warm), b * 0.9];
  const haze: [number, number, number] = [horizon[0] * 0.9, horizon[1] * 0.9, horizon[2] * 0.92];
  const clouds = new Float32Array(CLOUD_SIZE * CLOUD_SIZE);
  const seed = rng.nextU32();
  const threshold = 1 - o.cloudCover;
  // Four octaves of tileable value noise (cells of 64, 32, 16, 8 texels), weights 1/2 .. 1/16.
  const octaves = [64, 32, 16, 8].map((cell, k) => noiseLayer(seed + k, CLOUD_SIZE, cell));
  for (let i = 0; i < CLOUD_SIZE * CLOUD_SIZE; i++) {
    let n = 0;
    let amp = 0.5;
    for (const layer of octaves) {
      n += amp * layer[i]!;
      amp *= 0.5;
    }
    const d = (n / 0.9375 - threshold) / 0.25;
    clouds[i] = d <= 0 ? 0 : d >= 1 ? 1 : d;
  }
  return {
    sunDir,
    sunColor,
    ambient: 0.35 + 0.25 * o.cloudCover,
    zenith,
    horizon,
    haze,
    visibility_m: o.visibility_m,
    cloudHeight_m: rng.uniform(600, 1500),
    cloudTexel_m: rng.uniform(6, 14),
    cloudSize: CLOUD_SIZE,
    clouds,
  };
}
