/**
 * Wires drawn over photographed ground textures (issue 14 item 2, nineteenth session): the
 * simulator's procedural ground has 0.35 m texels and no pavement, kerb or roof detail, while the
 * urban photos' false alarms are exactly such detail. Here the background of a detector-training
 * frame is a window of a ground texture image (for instance FlightGear's photo-derived terrain
 * textures, Debian package flightgear-data-base), at a random scale, angle and gain, and
 * thin structures are drawn over it with their labels:
 *  - a group of 0 to `wires.maxCount` parallel, slightly sagging conductors 0.7-4 px wide, dark on
 *    light or pale on dark, at partial opacity (low-contrast wires), anti-aliased (class wire);
 *    a share `wires.thick.share` of them (0 by default) drawn from a thicker range instead, the
 *    4-10 px of a conductor a few metres under the camera in the urban photos;
 *  - negatives that look like wires to an edge filter: long straight brightness steps and strips
 *    at least `edges.minStripWidth_px` wide (kerbs, road edges, markings; background), and thick
 *    bars (poles, class pole/trunk); with `paving.probability` > 0, paving-stone lattices (joints
 *    a little darker or paler than the stones, running bond, each stone its own gain) over the
 *    whole frame or one side of a line (background: short joints, none of them a wire).
 * A wire pixel is labelled visible when its drawn contrast against the background is at least
 * `wires.visibleContrast` (of full scale), as the renderer's `visibleMask` keeps only pixels above
 * the sensor noise. Frames carry no sensor state and no expert action: detector training only.
 *
 * Pure: the textures come in decoded (imageCodec.ts) and every draw comes from the given Rng.
 */
import { nearThreatCells } from "../eval/CellLabels";
import { halfPlaneAlpha } from "../../vision/clutterDraws";
import type { RgbImage } from "./imageCodec";
import type { FrameSample } from "./FrameDataset";
import { hash32, type Rng } from "../../util/Rng";

/** Wire pixel class and pole/trunk class of sim/World.ts (kept numeric so this module imports no sim). */
const CLASS_WIRE = 1;
const CLASS_POLE_TRUNK = 3;
/** Depth given to every labelled pixel for the near-threat cells: hover in front of it (under the 12 m range). */
const COMPOSITE_DEPTH_M = 5;

export type CompositeOptions = {
  /** Output frame side, px (square frames, as the simulator camera's). */
  size: number;
  /** Output pixels per texture pixel, drawn log-uniformly in [min, max]. */
  scale: readonly [number, number];
  /** Brightness gain of the texture window, uniform. */
  gain: readonly [number, number];
  wires: {
    /** Share of frames with no wire at all. */
    none: number;
    /** Conductors per group, 1..maxCount. */
    maxCount: number;
    width_px: readonly [number, number];
    spacing_px: readonly [number, number];
    /** Share of dark-on-light conductors (the rest are pale). */
    darkShare: number;
    opacity: readonly [number, number];
    /** Largest sag across the frame, px (quadratic curve). */
    maxSag_px: number;
    /** Least |wire - background| x coverage x opacity (0-1 scale) for a pixel to be labelled visible. */
    visibleContrast: number;
    /** Share of conductors whose width is drawn from `thick.width_px` instead (0 = never, and no draw is made). */
    thick: { share: number; width_px: readonly [number, number] };
  };
  edges: {
    /** Steps or strips per frame, 0..maxCount. */
    maxCount: number;
    /** Brightness factor of the stepped side or strip, uniform. */
    factor: readonly [number, number];
    minStripWidth_px: number;
    maxStripWidth_px: number;
  };
  /** Probability of a thick bar (pole) per frame, its width px. */
  bar: { probability: number; width_px: readonly [number, number] };
  /** Paving lattice per frame (0 = never, and no draw is made): stone side px (log-uniform), length / side, joint width px, joint brightness factor (dark joints; pale ones mirror it above 1), per-stone gain spread. */
  paving: { probability: number; stone_px: readonly [number, number]; aspect: readonly [number, number]; joint_px: readonly [number, number]; jointFactor: readonly [number, number]; stoneGain: number };
};

export const DEFAULT_COMPOSITE: CompositeOptions = {
  size: 256,
  scale: [0.5, 2],
  gain: [0.6, 1.3],
  wires: { none: 0.15, maxCount: 4, width_px: [0.7, 4], spacing_px: [6, 60], darkShare: 0.6, opacity: [0.35, 1], maxSag_px: 6, visibleContrast: 0.03, thick: { share: 0, width_px: [4, 10] } },
  edges: { maxCount: 3, factor: [0.6, 1.5], minStripWidth_px: 6, maxStripWidth_px: 40 },
  bar: { probability: 0.25, width_px: [8, 24] },
  paving: { probability: 0, stone_px: [12, 60], aspect: [1, 2.5], joint_px: [1, 3], jointFactor: [0.55, 0.85], stoneGain: 0.08 },
};

/** Checks ranges and counts; the error names the field. */
export function checkCompositeOptions(o: CompositeOptions): void {
  const range = (name: string, r: readonly [number, number], lo: number): void => {
    if (!(Number.isFinite(r[0]) && Number.isFinite(r[1]) && r[0] >= lo && r[0] <= r[1])) throw new RangeError(`composite ${name}=[${r.join(", ")}], expected finite ${lo} <= min <= max`);
  };
  if (!(Number.isInteger(o.size) && o.size >= 16)) throw new RangeError(`composite size=${o.size}, expected an integer >= 16`);
  range("scale", o.scale, 1e-3);
  range("gain", o.gain, 0);
  range("wires.width_px", o.wires.width_px, 0.1);
  range("wires.spacing_px", o.wires.spacing_px, 0);
  range("wires.opacity", o.wires.opacity, 0);
  range("edges.factor", o.edges.factor, 0);
  range("bar.width_px", o.bar.width_px, 1);
  range("wires.thick.width_px", o.wires.thick.width_px, 0.1);
  range("paving.stone_px", o.paving.stone_px, 4);
  range("paving.aspect", o.paving.aspect, 1);
  range("paving.joint_px", o.paving.joint_px, 0.1);
  range("paving.jointFactor", o.paving.jointFactor, 0);
  if (o.paving.jointFactor[1] > 1) throw new RangeError(`composite paving.jointFactor max=${o.paving.jointFactor[1]}, expected <= 1 (pale joints mirror it)`);
  const probabilities = [
    ["wires.none", o.wires.none],
    ["wires.darkShare", o.wires.darkShare],
    ["wires.thick.share", o.wires.thick.share],
    ["bar.probability", o.bar.probability],
    ["paving.probability", o.paving.probability],
    ["paving.stoneGain", o.paving.stoneGain],
    ["wires.visibleContrast", o.wires.visibleContrast],
  ] as const;
  for (const [name, p] of probabilities) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`composite ${name}=${p}, expected a value in [0, 1]`);
  }
  if (o.wires.opacity[1] > 1) throw new RangeError(`composite wires.opacity max=${o.wires.opacity[1]}, expected <= 1`);
  if (!(Number.isInteger(o.wires.maxCount) && o.wires.maxCount >= 1)) throw new RangeError(`composite wires.maxCount=${o.wires.maxCount}, expected an integer >= 1`);
  if (!(Number.isInteger(o.edges.maxCount) && o.edges.maxCount >= 0)) throw new RangeError(`composite edges.maxCount=${o.edges.maxCount}, expected an integer >= 0`);
  if (!(o.edges.minStripWidth_px >= 1 && o.edges.minStripWidth_px <= o.edges.maxStripWidth_px)) {
    throw new RangeError(`composite edges strip width ${o.edges.minStripWidth_px}-${o.edges.maxStripWidth_px} px, expected 1 <= min <= max`);
  }
}

/**
 * One composite frame (see the file comment) from `textures[rng]`, `seed` recorded in the sample
 * (a train-split seed, so the split audit of `fit` holds).
 */
export function compositeFrame(textures: readonly RgbImage[], rng: Rng, seed: number, stateDim: number, o: CompositeOptions = DEFAULT_COMPOSITE): FrameSample {
  if (textures.length === 0) throw new RangeError("compositeFrame: no texture images");
  checkCompositeOptions(o);
  const n = o.size;
  const img = new Float32Array(n * n * 3);
  sampleTexture(textures[rng.int(textures.length)]!, rng, o, img);
  const mask = new Uint8Array(n * n);
  const visibleMask = new Uint8Array(n * n);
  if (o.paving.probability > 0 && rng.chance(o.paving.probability)) drawPaving(img, n, rng, o);
  const edgeCount = rng.int(o.edges.maxCount + 1);
  for (let i = 0; i < edgeCount; i++) drawEdge(img, n, rng, o);
  if (rng.chance(o.bar.probability)) drawBar(img, mask, visibleMask, n, rng, o);
  if (!rng.chance(o.wires.none)) drawWireGroup(img, mask, visibleMask, n, rng, o);
  const rgb = new Uint8Array(n * n * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.round(255 * Math.min(1, Math.max(0, img[i]!)));
  const depth = new Float32Array(n * n).fill(COMPOSITE_DEPTH_M);
  const near = nearThreatCells(visibleMask, depth, { width: n, height: n, cell_px: 8 }, 0);
  return { seed, rgb, mask, visibleMask, near, state: new Float32Array(stateDim), expertAction: 0, rates: new Float32Array(stateDim), threat: false };
}

/** A rotated, scaled window of the texture (wrapping at its borders: terrain textures tile), bilinear, times a gain. */
function sampleTexture(tex: RgbImage, rng: Rng, o: CompositeOptions, out: Float32Array): void {
  const n = o.size;
  const s = Math.exp(rng.uniform(Math.log(o.scale[0]), Math.log(o.scale[1])));
  const a = rng.uniform(0, 2 * Math.PI);
  const gain = rng.uniform(o.gain[0], o.gain[1]) / 255;
  const cx = rng.uniform(0, tex.width);
  const cy = rng.uniform(0, tex.height);
  const c = Math.cos(a) / s;
  const si = Math.sin(a) / s;
  const { width: W, height: H, rgb } = tex;
  for (let y = 0; y < n; y++) {
    const dy = y - n / 2;
    for (let x = 0; x < n; x++) {
      const dx = x - n / 2;
      const u = cx + c * dx - si * dy;
      const v = cy + si * dx + c * dy;
      const u0 = Math.floor(u);
      const v0 = Math.floor(v);
      const fu = u - u0;
      const fv = v - v0;
      const x0 = ((u0 % W) + W) % W;
      const x1 = (x0 + 1) % W;
      const y0 = ((v0 % H) + H) % H;
      const y1 = (y0 + 1) % H;
      const o00 = (y0 * W + x0) * 3;
      const o01 = (y0 * W + x1) * 3;
      const o10 = (y1 * W + x0) * 3;
      const o11 = (y1 * W + x1) * 3;
      const p = (y * n + x) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const top = rgb[o00 + ch]! + fu * (rgb[o01 + ch]! - rgb[o00 + ch]!);
        const bottom = rgb[o10 + ch]! + fu * (rgb[o11 + ch]! - rgb[o10 + ch]!);
        out[p + ch] = gain * (top + fv * (bottom - top));
      }
    }
  }
}

/** A line through a random point of the frame's middle, at a uniform angle: point and unit direction. */
function randomLine(n: number, rng: Rng): { px: number; py: number; dx: number; dy: number } {
  const a = rng.uniform(0, Math.PI);
  return { px: n * rng.uniform(0.15, 0.85), py: n * rng.uniform(0.15, 0.85), dx: Math.cos(a), dy: Math.sin(a) };
}

/** A brightness step across a line (a road edge) or a strip between two parallel lines (a kerb, a marking): no label. */
function drawEdge(img: Float32Array, n: number, rng: Rng, o: CompositeOptions): void {
  const l = randomLine(n, rng);
  const f = rng.uniform(o.edges.factor[0], o.edges.factor[1]);
  const strip = rng.chance(0.5) ? rng.uniform(o.edges.minStripWidth_px, o.edges.maxStripWidth_px) : Infinity;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const s = -(x - l.px) * l.dy + (y - l.py) * l.dx; // signed distance from the line
      const inside = halfPlaneAlpha(s) * halfPlaneAlpha(strip - s);
      if (inside === 0) continue;
      const k = 1 + (f - 1) * inside;
      const p = (y * n + x) * 3;
      img[p] = img[p]! * k;
      img[p + 1] = img[p + 1]! * k;
      img[p + 2] = img[p + 2]! * k;
    }
  }
}

/**
 * A paving-stone lattice (see the file comment): rows of stones `side` x `side * aspect` at a
 * random angle, every other row shifted by half a stone or not at all, joints darker (or, for
 * 30 % of lattices, paler) than the stones, each stone's brightness times its own gain; over the
 * whole frame or, half of the time, one side of a line (a pavement beside a road). No label.
 */
function drawPaving(img: Float32Array, n: number, rng: Rng, o: CompositeOptions): void {
  const pv = o.paving;
  const side = Math.exp(rng.uniform(Math.log(pv.stone_px[0]), Math.log(pv.stone_px[1])));
  const length = side * rng.uniform(pv.aspect[0], pv.aspect[1]);
  const half = rng.uniform(pv.joint_px[0], pv.joint_px[1]) / 2;
  const dark = rng.uniform(pv.jointFactor[0], pv.jointFactor[1]);
  const factor = rng.chance(0.7) ? dark : 2 - dark;
  const bond = rng.chance(0.5) ? 0.5 : 0;
  const a = rng.uniform(0, Math.PI / 2);
  const c = Math.cos(a);
  const s = Math.sin(a);
  const ox = rng.uniform(0, length);
  const oy = rng.uniform(0, side);
  const salt = rng.int(1 << 30);
  const region = rng.chance(0.5) ? randomLine(n, rng) : undefined;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const inside = region === undefined ? 1 : halfPlaneAlpha(-(x - region.px) * region.dy + (y - region.py) * region.dx);
      if (inside === 0) continue;
      const v = -x * s + y * c + oy;
      const row = Math.floor(v / side);
      const u = x * c + y * s + ox + (row & 1 ? bond * length : 0);
      const col = Math.floor(u / length);
      const du = Math.min(u - col * length, (col + 1) * length - u);
      const dv = Math.min(v - row * side, (row + 1) * side - v);
      const joint = Math.max(halfPlaneAlpha(half - du), halfPlaneAlpha(half - dv));
      const stone = 1 + pv.stoneGain * (2 * (hash32(salt ^ (row * 73856093) ^ (col * 19349663)) / 4294967296) - 1);
      const k = 1 + (stone * (1 + (factor - 1) * joint) - 1) * inside;
      const p = (y * n + x) * 3;
      img[p] = img[p]! * k;
      img[p + 1] = img[p + 1]! * k;
      img[p + 2] = img[p + 2]! * k;
    }
  }
}

/** A thick uniform bar from a frame edge (a pole seen from above), labelled pole/trunk where it covers half a pixel. */
function drawBar(img: Float32Array, mask: Uint8Array, visible: Uint8Array, n: number, rng: Rng, o: CompositeOptions): void {
  const l = randomLine(n, rng);
  const half = rng.uniform(o.bar.width_px[0], o.bar.width_px[1]) / 2;
  const grey = rng.uniform(0.25, 0.9);
  const end = rng.uniform(-n, 0); // the bar starts at t = end and runs out of the frame along +direction
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const t = (x - l.px) * l.dx + (y - l.py) * l.dy;
      if (t < end) continue;
      const d = Math.abs(-(x - l.px) * l.dy + (y - l.py) * l.dx);
      const cov = Math.min(1, Math.max(0, half + 0.5 - d));
      if (cov === 0) continue;
      const shade = grey * (1 - 0.35 * (d / half) ** 2); // a cylinder's shading across its width
      const p = (y * n + x) * 3;
      for (let ch = 0; ch < 3; ch++) img[p + ch] = img[p + ch]! * (1 - cov) + shade * cov;
      if (cov >= 0.5) {
        mask[y * n + x] = CLASS_POLE_TRUNK;
        visible[y * n + x] = CLASS_POLE_TRUNK;
      }
    }
  }
}

/** A group of parallel sagging conductors (see the file comment), labelled wire. */
function drawWireGroup(img: Float32Array, mask: Uint8Array, visible: Uint8Array, n: number, rng: Rng, o: CompositeOptions): void {
  const w = o.wires;
  const l = randomLine(n, rng);
  const count = rng.int(1, w.maxCount);
  const spacing = rng.uniform(w.spacing_px[0], w.spacing_px[1]);
  const sag = rng.uniform(-w.maxSag_px, w.maxSag_px) / (n / 2) ** 2; // offset k t^2 across the frame
  for (let i = 0; i < count; i++) {
    const offset = (i - (count - 1) / 2) * spacing + rng.uniform(-0.15, 0.15) * spacing;
    const width = w.thick.share > 0 && rng.chance(w.thick.share) ? w.thick.width_px : w.width_px;
    const half = rng.uniform(width[0], width[1]) / 2;
    const dark = rng.chance(w.darkShare);
    const grey = dark ? rng.uniform(0.02, 0.3) : rng.uniform(0.65, 1);
    const tint = [1 + rng.uniform(-0.06, 0.06), 1, 1 + rng.uniform(-0.06, 0.06)];
    const opacity = rng.uniform(w.opacity[0], w.opacity[1]);
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const t = (x - l.px) * l.dx + (y - l.py) * l.dy;
        const s = -(x - l.px) * l.dy + (y - l.py) * l.dx;
        const d = Math.abs(s - offset - sag * t * t) / Math.sqrt(1 + (2 * sag * t) ** 2);
        const cov = Math.min(1, Math.max(0, half + 0.5 - d));
        if (cov === 0) continue;
        const a = cov * opacity;
        const p = (y * n + x) * 3;
        let contrast = 0;
        for (let ch = 0; ch < 3; ch++) {
          const c = grey * tint[ch]!;
          contrast += Math.abs(c - img[p + ch]!) / 3;
          img[p + ch] = img[p + ch]! * (1 - a) + c * a;
        }
        if (cov >= 0.25) {
          mask[y * n + x] = CLASS_WIRE;
          if (a * contrast >= w.visibleContrast) visible[y * n + x] = CLASS_WIRE;
        }
      }
    }
  }
}
