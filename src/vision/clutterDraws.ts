/**
 * What the image-space clutter layers (groundClutter.ts, foliageClutter.ts) share: a uniform
 * value from a [min, max] range, the check of a ranges object, a half-plane through the crop's
 * middle with its soft edge, and the check of a layer's image and keep mask.
 */
import type { Rng } from "../util/Rng";
import type { EffectRange } from "./cameraEffects";

export function drawRange(rng: Rng, r: EffectRange): number {
  return rng.uniform(r[0], r[1]);
}

/** Every value finite and >= 0, every range min <= max; the error names `what` and the field. */
export function checkClutterRanges(what: string, r: Readonly<Record<string, number | EffectRange>>): void {
  for (const [name, v] of Object.entries(r)) {
    const values = typeof v === "number" ? [v] : v;
    for (const x of values) if (!Number.isFinite(x) || x < 0) throw new RangeError(`${what} ${name}=${String(v)}, expected finite values >= 0`);
    if (typeof v !== "number" && values[0] > values[1]) throw new RangeError(`${what} ${name}=[${values.join(", ")}], expected min <= max`);
  }
}

/** The half-plane n . (x, y) >= d (unit n at a uniform angle) whose boundary passes through a random point of the crop's middle half. */
export function drawHalfPlane(rng: Rng, size: number): { nx: number; ny: number; d: number } {
  const t = rng.uniform(0, 2 * Math.PI);
  const nx = Math.cos(t);
  const ny = Math.sin(t);
  const px = size * rng.uniform(0.25, 0.75);
  const py = size * rng.uniform(0.25, 0.75);
  return { nx, ny, d: nx * px + ny * py };
}

/** Signed distance of pixel (x, y) into the half-plane, px (negative outside). */
export function halfPlaneDistance(h: { nx: number; ny: number; d: number }, x: number, y: number): number {
  return h.nx * x + h.ny * y - h.d;
}

/** Coverage in [0, 1] of a pixel at signed distance s: the boundary is soft over 1 px. */
export function halfPlaneAlpha(s: number): number {
  return Math.min(1, Math.max(0, s + 0.5));
}

/** `img` must be width x height x 3 and `keep` (when given) width x height; the error names the length. */
export function checkLayerInputs(img: Float32Array, width: number, height: number, keep: Uint8Array | undefined): void {
  if (img.length !== width * height * 3) throw new RangeError(`image length ${img.length}, expected ${width}x${height}x3 = ${width * height * 3}`);
  if (keep !== undefined && keep.length !== width * height) throw new RangeError(`keep length ${keep.length}, expected ${width * height}`);
}
