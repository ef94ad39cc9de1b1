/**
 * The real-photograph metrics of SPEC "Real photographs" (issue 14), pure functions on per-pixel
 * maps at the photo's size:
 *  - cell AP on a 32x32 grid laid over the photo at its own aspect (cell (i, j) covers columns
 *    floor(j W / 32) .. floor((j + 1) W / 32) - 1, likewise rows); a cell is positive where the
 *    mask has a wire pixel, its score is the map's maximum inside it; AP over all cells of a set
 *    (AveragePrecision.ts, VOC 2010+ all-points);
 *  - F1 at the best threshold over a set (ODS, as in the BSDS boundary benchmark the PLD-UAV
 *    ground truth comes from) with a 5 px tolerance: a predicted pixel (map >= t) is correct when
 *    a ground-truth pixel lies within 5 px (Euclidean), a ground-truth pixel is found when a
 *    predicted pixel lies within 5 px. Thresholds are the levels 1..255 of an 8-bit map.
 *  - the Sobel magnitude baseline map (3x3 OpenCV kernel on grey = channel mean, / 4 sqrt 2,
 *    OpenCV's default reflected border).
 */
import { averagePrecision } from "./AveragePrecision";

export const REAL_GRID = 32;
export const REAL_TOLERANCE_PX = 5;
const LEVELS = 256;

function checkSize(name: string, a: ArrayLike<number>, W: number, H: number): void {
  if (a.length !== W * H) throw new RangeError(`${name}.length=${a.length}, expected ${W}x${H}=${W * H}`);
}

/** Max of `map` and any-positive of `mask` per cell of a grid x grid layout over the photo; appended to scores/labels. */
export function gridCellSamples(map: ArrayLike<number>, mask: ArrayLike<number>, W: number, H: number, scores: number[], labels: number[], grid = REAL_GRID): void {
  checkSize("map", map, W, H);
  checkSize("mask", mask, W, H);
  if (W < grid || H < grid) throw new RangeError(`photo ${W}x${H}, expected at least ${grid}x${grid} for a ${grid}x${grid} grid`);
  for (let i = 0; i < grid; i++) {
    const y0 = Math.floor((i * H) / grid);
    const y1 = Math.floor(((i + 1) * H) / grid);
    for (let j = 0; j < grid; j++) {
      const x0 = Math.floor((j * W) / grid);
      const x1 = Math.floor(((j + 1) * W) / grid);
      let s = -Infinity;
      let l = 0;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const v = map[y * W + x]!;
          if (v > s) s = v;
          if (mask[y * W + x]! > 0) l = 1;
        }
      }
      scores.push(s);
      labels.push(l);
    }
  }
}

/**
 * Maximum of `src` over the disc of radius r around each pixel (out-of-image ignored): row maxima
 * over half-widths 0..r built incrementally, then, per row offset dy, the half-width
 * floor(sqrt(r^2 - dy^2)) of the disc at that offset (about 4r + 2 passes instead of pi r^2).
 */
export function discMax(src: ArrayLike<number>, W: number, H: number, r: number, out = new Float32Array(W * H)): Float32Array {
  checkSize("src", src, W, H);
  const rows: Float32Array[] = [Float32Array.from(src)];
  for (let w = 1; w <= r; w++) {
    const prev = rows[w - 1] as Float32Array;
    const cur = new Float32Array(W * H);
    for (let y = 0; y < H; y++) {
      const o = y * W;
      for (let x = 0; x < W; x++) {
        let m = prev[o + x]!;
        if (x - w >= 0 && src[o + x - w]! > m) m = src[o + x - w]!;
        if (x + w < W && src[o + x + w]! > m) m = src[o + x + w]!;
        cur[o + x] = m;
      }
    }
    rows.push(cur);
  }
  out.fill(-Infinity);
  for (let dy = -r; dy <= r; dy++) {
    const hw = rows[Math.floor(Math.sqrt(r * r - dy * dy))] as Float32Array;
    for (let y = Math.max(0, -dy); y < Math.min(H, H - dy); y++) {
      const o = y * W;
      const s = (y + dy) * W;
      for (let x = 0; x < W; x++) if (hw[s + x]! > out[o + x]!) out[o + x] = hw[s + x]!;
    }
  }
  return out;
}

function level(p: number): number {
  return Math.min(LEVELS - 1, Math.max(0, Math.round(p * (LEVELS - 1))));
}

/** One photo's contribution to a set's metrics: its grid cells and its tolerance-F1 histograms. */
export type PhotoSamples = {
  cellScores: number[];
  cellLabels: number[];
  /** Per 8-bit level: predicted pixels, predicted pixels near ground truth, ground-truth pixels whose disc max reaches it. */
  pred: Float64Array;
  predNear: Float64Array;
  gtFound: Float64Array;
  gtTotal: number;
};

/** Wire pixels of `mask` dilated by the tolerance disc (1 = within tolerancePx of a wire pixel); reusable across methods. */
export function nearWire(mask: ArrayLike<number>, W: number, H: number, tolerancePx = REAL_TOLERANCE_PX): Float32Array {
  return discMax(Float32Array.from(mask, (v) => (v > 0 ? 1 : 0)), W, H, tolerancePx);
}

/** `map` in [0, 1], `mask` > 0 at wire pixels; `near` from nearWire (computed when omitted). */
export function photoSamples(map: ArrayLike<number>, mask: ArrayLike<number>, W: number, H: number, options: { grid?: number; tolerancePx?: number; near?: Float32Array } = {}): PhotoSamples {
  checkSize("map", map, W, H);
  checkSize("mask", mask, W, H);
  const tol = options.tolerancePx ?? REAL_TOLERANCE_PX;
  const s: PhotoSamples = { cellScores: [], cellLabels: [], pred: new Float64Array(LEVELS), predNear: new Float64Array(LEVELS), gtFound: new Float64Array(LEVELS), gtTotal: 0 };
  gridCellSamples(map, mask, W, H, s.cellScores, s.cellLabels, options.grid ?? REAL_GRID);
  const near = options.near ?? nearWire(mask, W, H, tol);
  checkSize("near", near, W, H);
  const mapNear = discMax(map, W, H, tol);
  for (let i = 0; i < W * H; i++) {
    const l = level(map[i]!);
    s.pred[l] = s.pred[l]! + 1;
    if (near[i]! > 0) s.predNear[l] = s.predNear[l]! + 1;
    if (mask[i]! > 0) {
      s.gtTotal++;
      const f = level(mapNear[i]!);
      s.gtFound[f] = s.gtFound[f]! + 1;
    }
  }
  return s;
}

/** Cell AP + tolerance F1 of one method on one set of photos. */
export class RealSetScore {
  private readonly scores: number[] = [];
  private readonly labels: number[] = [];
  private readonly pred = new Float64Array(LEVELS);
  private readonly predNear = new Float64Array(LEVELS);
  private readonly gtFound = new Float64Array(LEVELS);
  private gtTotal = 0;
  photos = 0;

  add(map: ArrayLike<number>, mask: ArrayLike<number>, W: number, H: number): void {
    this.addSamples(photoSamples(map, mask, W, H));
  }

  addSamples(s: PhotoSamples): void {
    for (const v of s.cellScores) this.scores.push(v);
    for (const v of s.cellLabels) this.labels.push(v);
    for (let l = 0; l < LEVELS; l++) {
      this.pred[l] = this.pred[l]! + s.pred[l]!;
      this.predNear[l] = this.predNear[l]! + s.predNear[l]!;
      this.gtFound[l] = this.gtFound[l]! + s.gtFound[l]!;
    }
    this.gtTotal += s.gtTotal;
    this.photos++;
  }

  /** Best F1 over thresholds (a pixel is predicted when its level >= t), with its precision, recall and threshold. */
  bestF1(): { f1: number; precision: number; recall: number; threshold: number } {
    let pred = 0;
    let tp = 0;
    let found = 0;
    let best = { f1: 0, precision: 0, recall: 0, threshold: 1 };
    // t >= 1: level 0 would call every pixel a wire (a degenerate point, not a detector).
    for (let t = LEVELS - 1; t >= 1; t--) {
      pred += this.pred[t]!;
      tp += this.predNear[t]!;
      found += this.gtFound[t]!;
      if (pred === 0 || this.gtTotal === 0) continue;
      const precision = tp / pred;
      const recall = found / this.gtTotal;
      const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
      if (f1 > best.f1) best = { f1, precision, recall, threshold: t / (LEVELS - 1) };
    }
    return best;
  }

  /** Cell AP, best tolerance F1, and the positive-cell rate (the AP of a random ranking). */
  result(): { ap: number; f1: number; precision: number; recall: number; threshold: number; chance: number; photos: number } {
    const positives = this.labels.reduce((a, b) => a + b, 0);
    return { ap: averagePrecision({ scores: this.scores, labels: this.labels }), ...this.bestF1(), chance: positives / Math.max(1, this.labels.length), photos: this.photos };
  }
}

/**
 * Sobel gradient magnitude of grey = (R+G+B)/3 in [0, 1], divided by its maximum 4 sqrt 2, with
 * OpenCV's default border (cv::Sobel's BORDER_DEFAULT = BORDER_REFLECT_101: the pixel at -1 is the
 * pixel at 1; OpenCV docs, "Image Filtering", cv::BorderTypes), what a plain Sobel map means in
 * practice. Until the ninth session this map used zero padding: every photo then had an edge
 * along its whole frame, and the border cells' maxima ranked above most wires (pooled cell AP on
 * the dev photos 0.256 / 0.330 with it, 0.284 / 0.597 without; docs/real.md).
 */
export function sobelMagnitudeMap(rgb: Uint8Array, W: number, H: number): Float32Array {
  const out = new Float32Array(W * H);
  sobelPass(rgb, W, H, (i, gx, gy) => {
    out[i] = sobelMagnitude(gx, gy);
  });
  return out;
}

/** The Sobel map's value for the gradients (gx, gy) of sobelPass: their length over its maximum 4 sqrt 2. */
export function sobelMagnitude(gx: number, gy: number): number {
  return Math.sqrt(gx * gx + gy * gy) * SOBEL_NORM;
}

const SOBEL_NORM = 1 / (4 * Math.SQRT2);

/**
 * The Sobel gradients (gx, gy) of sobelMagnitudeMap's grey image at every pixel i = y W + x, in
 * row-major order, with its reflected border: the one pass that map and the structure tensor of
 * edgeGate.ts both use.
 */
export function sobelPass(rgb: Uint8Array, W: number, H: number, visit: (i: number, gx: number, gy: number) => void): void {
  if (rgb.length !== 3 * W * H) throw new RangeError(`rgb.length=${rgb.length}, expected ${3 * W * H}`);
  if (!(W >= 2 && H >= 2)) throw new RangeError(`sobelMagnitudeMap: image ${W}x${H}, expected at least 2x2 (a reflected border needs a neighbour)`);
  const g = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) g[i] = (rgb[3 * i]! + rgb[3 * i + 1]! + rgb[3 * i + 2]!) / 765;
  const reflect = (v: number, n: number): number => (v < 0 ? -v : v >= n ? 2 * n - 2 - v : v);
  for (let y = 0; y < H; y++) {
    // rows above and below (reflected at the border); columns reflected only at x = 0 and W - 1
    const up = reflect(y - 1, H) * W;
    const mid = y * W;
    const down = reflect(y + 1, H) * W;
    for (let x = 0; x < W; x++) {
      const l = x === 0 ? 1 : x - 1;
      const r = x === W - 1 ? W - 2 : x + 1;
      const gx = g[up + r]! + 2 * g[mid + r]! + g[down + r]! - g[up + l]! - 2 * g[mid + l]! - g[down + l]!;
      const gy = g[down + l]! + 2 * g[down + x]! + g[down + r]! - g[up + l]! - 2 * g[up + x]! - g[up + r]!;
      visit(mid + x, gx, gy);
    }
  }
}
