/**
 * Per-cell ground truth of the detection grid (SPEC "How results are measured": a cell is
 * positive where the simulator's ground-truth mask covers it). "Covers" is defined here as: at
 * least one pixel of that class lies inside the cell. Thin wires are often a single pixel wide
 * (the simulator labels the pixel the centre line crosses), so any stricter rule (e.g. half of
 * the cell) would make far wires unlabelled.
 *
 * The mask holds class ids per pixel: 0 background, 1 wire, 2 branch, 3 pole/trunk (the order of
 * DETECTION_CLASSES in src/harness/actions.ts). A cell can be positive for several classes.
 */
import { NUM_DETECTION_CLASSES } from "../actions";

export type GridSpec = {
  /** Image width and height in pixels; must be multiples of `cell_px`. */
  width: number;
  height: number;
  /** Cell edge length in pixels. Default grid: 256x256 image, 8 px cells -> 32x32 cells. */
  cell_px: number;
};

export const DEFAULT_GRID: GridSpec = { width: 256, height: 256, cell_px: 8 };

export function gridCells(grid: GridSpec): { cols: number; rows: number } {
  if (!Number.isInteger(grid.cell_px) || grid.cell_px < 1) {
    throw new RangeError(`cell_px=${grid.cell_px}, expected a positive integer`);
  }
  if (grid.width % grid.cell_px !== 0 || grid.height % grid.cell_px !== 0 || grid.width < 1 || grid.height < 1) {
    throw new RangeError(
      `image ${grid.width}x${grid.height} is not a positive multiple of cell_px=${grid.cell_px}`,
    );
  }
  return { cols: grid.width / grid.cell_px, rows: grid.height / grid.cell_px };
}

/**
 * Writes into `out` (length rows*cols*NUM_DETECTION_CLASSES, cell-major: out[cell*4 + c]) 1 where
 * class c covers the cell, else 0. Index 0 (background) is 1 where the cell has no foreground
 * pixel. Returns `out`.
 */
export function cellLabelsFromMask(mask: Uint8Array, grid: GridSpec, out?: Uint8Array): Uint8Array {
  const { cols, rows } = gridCells(grid);
  if (mask.length !== grid.width * grid.height) {
    throw new RangeError(`mask.length=${mask.length}, expected width*height=${grid.width * grid.height}`);
  }
  const k = NUM_DETECTION_CLASSES;
  const labels = out ?? new Uint8Array(rows * cols * k);
  if (labels.length !== rows * cols * k) {
    throw new RangeError(`out.length=${labels.length}, expected ${rows * cols * k}`);
  }
  labels.fill(0);
  for (let y = 0; y < grid.height; y++) {
    const cellRow = Math.floor(y / grid.cell_px) * cols;
    const rowOff = y * grid.width;
    for (let x = 0; x < grid.width; x++) {
      const c = mask[rowOff + x]!;
      if (c === 0) continue;
      if (c >= k) throw new RangeError(`mask[${rowOff + x}]=${c}, expected a class id in [0, ${k - 1}]`);
      labels[(cellRow + Math.floor(x / grid.cell_px)) * k + c] = 1;
    }
  }
  for (let cell = 0; cell < rows * cols; cell++) {
    let fg = 0;
    for (let c = 1; c < k; c++) fg |= labels[cell * k + c]!;
    labels[cell * k] = fg === 0 ? 1 : 0;
  }
  return labels;
}

/** The pixels of one class of a label mask kept (with their label), all others 0: `out`. */
export function classOnly(mask: Uint8Array, classId: number, out: Uint8Array = new Uint8Array(mask.length)): Uint8Array {
  if (out.length !== mask.length) throw new RangeError(`out.length=${out.length}, expected mask.length=${mask.length}`);
  for (let i = 0; i < mask.length; i++) out[i] = mask[i] === classId ? classId : 0;
  return out;
}

/** When a structure counts as a near threat (issue 12; SPEC "Pipeline": the planner's horizon). */
export type NearThreatOptions = {
  /** Depth below which a structure is near, m. Default 12. */
  range_m: number;
  /** Time to contact (depth / forward speed) below which a structure is near, s. Default 3. */
  timeToContact_s: number;
};

export const DEFAULT_NEAR_THREAT: NearThreatOptions = { range_m: 12, timeToContact_s: 3 };

/**
 * Per-cell near-threat labels (rows*cols, row-major): 1 where the cell holds a labelled obstacle
 * pixel of `labelMask` (use the visible mask: the detector cannot learn what it cannot see) whose
 * renderer depth is under `range_m` or whose time to contact at `forwardSpeed_m_s` is under
 * `timeToContact_s`. Depth is along the optical axis (sim/Renderer.ts `RenderTarget.depth`).
 */
export function nearThreatCells(
  labelMask: Uint8Array,
  depth: Float32Array,
  grid: GridSpec,
  forwardSpeed_m_s: number,
  options: NearThreatOptions = DEFAULT_NEAR_THREAT,
  out?: Uint8Array,
): Uint8Array {
  const { cols, rows } = gridCells(grid);
  const n = grid.width * grid.height;
  if (labelMask.length !== n || depth.length !== n) {
    throw new RangeError(`labelMask.length=${labelMask.length}, depth.length=${depth.length}, expected width*height=${n}`);
  }
  if (!Number.isFinite(forwardSpeed_m_s)) throw new RangeError(`forwardSpeed_m_s=${forwardSpeed_m_s}, expected a finite number`);
  if (!(options.range_m >= 0 && Number.isFinite(options.range_m))) throw new RangeError(`range_m=${options.range_m}, expected a finite number >= 0`);
  if (!(options.timeToContact_s >= 0 && Number.isFinite(options.timeToContact_s))) throw new RangeError(`timeToContact_s=${options.timeToContact_s}, expected a finite number >= 0`);
  const labels = out ?? new Uint8Array(rows * cols);
  if (labels.length !== rows * cols) throw new RangeError(`out.length=${labels.length}, expected ${rows * cols}`);
  labels.fill(0);
  // Near when depth < range or depth < speed * ttc: one threshold.
  const limit = Math.max(options.range_m, Math.max(0, forwardSpeed_m_s) * options.timeToContact_s);
  for (let y = 0; y < grid.height; y++) {
    const cellRow = Math.floor(y / grid.cell_px) * cols;
    const rowOff = y * grid.width;
    for (let x = 0; x < grid.width; x++) {
      if (labelMask[rowOff + x] === 0) continue;
      const d = depth[rowOff + x]!;
      if (d > 0 && d < limit) labels[cellRow + Math.floor(x / grid.cell_px)] = 1;
    }
  }
  return labels;
}

/** nearThreatCells of one class's visible pixels only (classOnly into `scratch`, a mask-sized buffer). */
export function nearClassCells(visibleMask: Uint8Array, classId: number, depth: Float32Array, grid: GridSpec, forwardSpeed_m_s: number, scratch: Uint8Array, out?: Uint8Array): Uint8Array {
  return nearThreatCells(classOnly(visibleMask, classId, scratch), depth, grid, forwardSpeed_m_s, undefined, out);
}

/** A cell the planner reads as flagged: near-threat probability at least this (the flag level of the thirteenth session's strike attribution). */
export const WIRE_GAP_FLAG = 0.5;

/** The "wire-gap" cells: near wire cells (0/1) whose near-threat probability is under WIRE_GAP_FLAG (the gaps the truth fill mended). */
export function wireGapCells(nearWire: ArrayLike<number>, threat: ArrayLike<number>, out: Uint8Array = new Uint8Array(nearWire.length)): Uint8Array {
  if (threat.length !== nearWire.length || out.length !== nearWire.length) throw new RangeError(`wireGapCells: near ${nearWire.length}, threat ${threat.length}, out ${out.length} cells`);
  for (let c = 0; c < nearWire.length; c++) out[c] = nearWire[c] === 1 && threat[c]! < WIRE_GAP_FLAG ? 1 : 0;
  return out;
}
