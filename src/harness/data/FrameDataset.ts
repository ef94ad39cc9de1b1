/**
 * Recorded simulator frames for supervised training (teacher, BC student) and for the AP
 * evaluation: the camera image, the ground-truth class mask, the normalised sensor state and the
 * expert's action, plus the seed it came from (so the split of every frame can be audited).
 */
import { NUM_DETECTION_CLASSES } from "../actions";
import { cellLabelsFromMask, gridCells, type GridSpec } from "../eval/CellLabels";
import type { Rng } from "../../util/Rng";

export type FrameSample = {
  seed: number;
  /** rgb8, width*height*3. */
  rgb: Uint8Array;
  /** Class id per pixel (0 background, 1 wire, 2 branch, 3 pole/trunk). */
  mask: Uint8Array;
  /** Normalised sensor state (src/harness/models/stateVector.ts), STATE_DIM values in [-1, 1]. */
  state: Float32Array;
  /** Expert action index (src/harness/actions.ts). */
  expertAction: number;
  /** True when the expert reacted to an obstacle in its corridor (ExpertPilot.threatInCorridor) in this frame. */
  threat?: boolean;
  /** Backward |ds/dt| over the last control steps of the flight (StateHistory), STATE_DIM values; zeros when absent. */
  rates?: Float32Array;
  /**
   * Class id per pixel, visible pixels only (contrast above the sensor noise, sim/Renderer.ts
   * `visibleMask`); absent in datasets recorded before issue 12. Training targets use it when present.
   */
  visibleMask?: Uint8Array;
  /** Near-threat label per cell (rows*cols, CellLabels.nearThreatCells on the visible mask); absent before issue 12. */
  near?: Uint8Array;
};

export type FrameDataset = { grid: GridSpec; frames: FrameSample[] };

/** Training target per cell: one class, thin structures first (wire > branch > pole/trunk > background). */
export const TARGET_PRIORITY = [1, 2, 3] as const;

/**
 * Single-class per-cell targets for a softmax detector, cell-major [rows*cols], from the
 * multi-label "covers" labels: a cell with any wire pixel is a wire cell, else branch, else
 * pole/trunk, else background (thin obstacles are what the detector is for; SPEC
 * "How results are measured").
 */
export function cellTargets(mask: Uint8Array, grid: GridSpec, out?: Int32Array): Int32Array {
  const { rows, cols } = gridCells(grid);
  const labels = cellLabelsFromMask(mask, grid);
  const t = out ?? new Int32Array(rows * cols);
  if (t.length !== rows * cols) throw new RangeError(`out.length=${t.length}, expected ${rows * cols}`);
  const k = NUM_DETECTION_CLASSES;
  for (let cell = 0; cell < rows * cols; cell++) {
    let cls = 0;
    for (const c of TARGET_PRIORITY) {
      if (labels[cell * k + c] === 1) {
        cls = c;
        break;
      }
    }
    t[cell] = cls;
  }
  return t;
}

/**
 * Class weights for the cell cross-entropy: w_c = clamp(sqrt(n_total / (K n_c)), 1, maxWeight)
 * over the dataset's targets (square-root inverse frequency, a common compromise between no
 * weighting and full inverse frequency; rare wire cells would otherwise be ignored).
 */
export function classWeights(dataset: FrameDataset, maxWeight = 20): Float32Array {
  return classWeightsOfTargets(dataset.frames.map((f) => cellTargets(f.mask, dataset.grid)), maxWeight);
}

/** classWeights over precomputed per-frame cell targets (e.g. of the visible-only masks). */
export function classWeightsOfTargets(targets: readonly Int32Array[], maxWeight = 20): Float32Array {
  const k = NUM_DETECTION_CLASSES;
  const counts = new Float64Array(k);
  let total = 0;
  for (const t of targets) {
    for (const c of t) {
      counts[c] = counts[c]! + 1;
      total++;
    }
  }
  const w = new Float32Array(k);
  for (let c = 0; c < k; c++) {
    const n = counts[c]!;
    w[c] = n === 0 ? 1 : Math.min(maxWeight, Math.max(1, Math.sqrt(total / (k * n))));
  }
  return w;
}

export type Crop = { frame: number; x0: number; y0: number; size: number };

/**
 * A crop of `size` px (a multiple of 32 so every student pooling level divides it) at a
 * cell-aligned offset. With probability `thinBias` the crop is centred near a random wire or
 * branch pixel of the frame (when it has one), so rare classes appear in most batches.
 */
export function randomCrop(dataset: FrameDataset, frameIndex: number, size: number, rng: Rng, thinBias = 0.7): Crop {
  const { width, height, cell_px } = dataset.grid;
  if (size % 32 !== 0 || size > width || size > height) {
    throw new RangeError(`crop size=${size}, expected a multiple of 32 no larger than ${width}x${height}`);
  }
  const f = dataset.frames[frameIndex];
  if (f === undefined) throw new RangeError(`frameIndex=${frameIndex}, expected [0, ${dataset.frames.length - 1}]`);
  let cx = rng.next() * width;
  let cy = rng.next() * height;
  if (rng.next() < thinBias) {
    // Reservoir-free pick: try a few random pixels along random rows for a thin-structure pixel.
    for (let attempt = 0; attempt < 64; attempt++) {
      const y = rng.int(height);
      const row = f.mask.subarray(y * width, (y + 1) * width);
      const start = rng.int(width);
      let hit = -1;
      for (let i = 0; i < width; i++) {
        const x = (start + i) % width;
        const c = row[x]!;
        if (c === 1 || c === 2) {
          hit = x;
          break;
        }
      }
      if (hit >= 0) {
        cx = hit;
        cy = y;
        break;
      }
    }
  }
  const align = (v: number, max: number): number => Math.min(max, Math.max(0, Math.round((v - size / 2) / cell_px) * cell_px));
  return { frame: frameIndex, x0: align(cx, width - size), y0: align(cy, height - size), size };
}

/** Copies the crop's RGB as floats in [0, 1] into `out` at `offset` (size*size*3 values). */
export function cropRgb01(dataset: FrameDataset, crop: Crop, out: Float32Array, offset: number): void {
  const f = dataset.frames[crop.frame] as FrameSample;
  const W = dataset.grid.width;
  let o = offset;
  for (let y = crop.y0; y < crop.y0 + crop.size; y++) {
    const row = (y * W + crop.x0) * 3;
    for (let i = 0; i < crop.size * 3; i++) out[o++] = f.rgb[row + i]! / 255;
  }
}

/** The frame's all-pixel class mask under the crop into `out` (crop.size^2 values). */
export function cropMask(dataset: FrameDataset, crop: Crop, out: Uint8Array): void {
  const f = dataset.frames[crop.frame] as FrameSample;
  const W = dataset.grid.width;
  for (let y = 0; y < crop.size; y++) {
    const row = (crop.y0 + y) * W + crop.x0;
    out.set(f.mask.subarray(row, row + crop.size), y * crop.size);
  }
}

/** Cell targets of the crop (crop offsets are cell-aligned) into `out` at `offset`. */
export function cropTargets(dataset: FrameDataset, crop: Crop, fullTargets: Int32Array, out: Int32Array, offset: number): void {
  const { width, cell_px } = dataset.grid;
  const cols = width / cell_px;
  const n = crop.size / cell_px;
  const r0 = crop.y0 / cell_px;
  const c0 = crop.x0 / cell_px;
  let o = offset;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) out[o++] = fullTargets[(r0 + r) * cols + c0 + c]!;
}
