/**
 * The on-disk form of one recorded flight's frames (issue 12 item 5: a frame cache, so training
 * stages read the frames a data stage wrote instead of regenerating them on every run). Pure: the
 * bytes in and out; the directory adapter is node/FrameCacheDir.ts.
 *
 * Layout (little-endian):
 *   magic "DHFC" | u32 version (1) | u32 header length L | L bytes of JSON header
 *   then `count` fixed-size records, each:
 *     i32 seed | i32 expertAction | u8 threat | 3 bytes padding
 *     f32 state[stateDim] | f32 rates[stateDim]
 *     u8 rgb[w*h*3] | u8 mask[w*h] | u8 visibleMask[w*h] | u8 near[cells]
 * Frames recorded without visibleMask/near (older datasets) store the mask / zeros there and
 * the header says so (`hasTruth: false`).
 */
import { gridCells, type GridSpec } from "../eval/CellLabels";
import type { FrameSample } from "./FrameDataset";
import { readFrame, writeFrame } from "../../util/framedFile";

const MAGIC = 0x43464844; // "DHFC" little-endian
const VERSION = 1;

export type FlightHeader = { grid: GridSpec; stateDim: number; count: number; seed: number; hasTruth: boolean };

export class FrameCacheError extends Error {
  override readonly name = "FrameCacheError";
}

function recordSize(grid: GridSpec, stateDim: number): number {
  const { rows, cols } = gridCells(grid);
  const n = grid.width * grid.height;
  return 12 + 8 * stateDim + 3 * n + n + n + rows * cols;
}

/** Encodes the frames of one flight (all of one seed and one grid). */
export function encodeFlight(seed: number, grid: GridSpec, stateDim: number, frames: readonly FrameSample[]): Uint8Array {
  const n = grid.width * grid.height;
  const { rows, cols } = gridCells(grid);
  const cells = rows * cols;
  const withTruth = frames.filter((f) => f.visibleMask !== undefined && f.near !== undefined).length;
  if (withTruth !== 0 && withTruth !== frames.length) {
    throw new FrameCacheError(`seed ${seed}: ${withTruth} of ${frames.length} frames have visibleMask/near; expected all or none`);
  }
  const hasTruth = withTruth > 0;
  const rec = recordSize(grid, stateDim);
  const { out, dv, offset } = writeFrame(MAGIC, VERSION, { grid, stateDim, count: frames.length, seed, hasTruth } satisfies FlightHeader, rec * frames.length);
  let o = offset;
  for (const [i, f] of frames.entries()) {
    if (f.rgb.length !== 3 * n || f.mask.length !== n || f.state.length !== stateDim || (f.rates !== undefined && f.rates.length !== stateDim)) {
      throw new FrameCacheError(`frame ${i} of seed ${seed}: rgb ${f.rgb.length}, mask ${f.mask.length}, state ${f.state.length}, rates ${f.rates?.length ?? "-"}; expected ${3 * n}, ${n}, ${stateDim}, ${stateDim}`);
    }
    if (f.seed !== seed) throw new FrameCacheError(`frame ${i}: seed ${f.seed}, expected the flight's seed ${seed}`);
    if (hasTruth && (f.visibleMask?.length !== n || f.near?.length !== cells)) {
      throw new FrameCacheError(`frame ${i} of seed ${seed}: visibleMask ${f.visibleMask?.length}, near ${f.near?.length}; expected ${n}, ${cells}`);
    }
    dv.setInt32(o, f.seed, true);
    dv.setInt32(o + 4, f.expertAction, true);
    out[o + 8] = f.threat === true ? 1 : 0;
    let p = o + 12;
    for (let k = 0; k < stateDim; k++, p += 4) dv.setFloat32(p, f.state[k]!, true);
    for (let k = 0; k < stateDim; k++, p += 4) dv.setFloat32(p, f.rates?.[k] ?? 0, true);
    out.set(f.rgb, p);
    p += 3 * n;
    out.set(f.mask, p);
    p += n;
    out.set(hasTruth && f.visibleMask !== undefined ? f.visibleMask : f.mask, p);
    p += n;
    if (hasTruth && f.near !== undefined) out.set(f.near, p);
    o += rec;
  }
  return out;
}

/** Decodes a flight; the frames' arrays are views into `bytes` (copy them to keep `bytes` collectable). */
export function decodeFlight(bytes: Uint8Array, what = "flight"): { header: FlightHeader; frames: FrameSample[] } {
  const framed = readFrame(bytes, MAGIC, VERSION, what, "a frame cache file", FrameCacheError);
  const header = framed.header as FlightHeader;
  const dv = framed.dv;
  if (typeof header !== "object" || header === null || typeof header.grid !== "object" || header.grid === null) {
    throw new FrameCacheError(`${what}: header has no grid (expected {grid, stateDim, count, seed, hasTruth})`);
  }
  const { grid, stateDim, count } = header;
  if (![grid.width, grid.height, grid.cell_px].every((v) => Number.isInteger(v) && v > 0) || grid.width % grid.cell_px !== 0 || grid.height % grid.cell_px !== 0) {
    throw new FrameCacheError(`${what}: header grid ${JSON.stringify(grid)}, expected positive integer width/height that are multiples of cell_px`);
  }
  if (!Number.isInteger(header.seed) || header.seed < 0 || typeof header.hasTruth !== "boolean") {
    throw new FrameCacheError(`${what}: header seed=${JSON.stringify(header.seed)}, hasTruth=${JSON.stringify(header.hasTruth)}, expected a non-negative integer and a boolean`);
  }
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(stateDim) || stateDim < 1) {
    throw new FrameCacheError(`${what}: header count=${count}, stateDim=${stateDim}, expected non-negative integers`);
  }
  const rec = recordSize(grid, stateDim);
  const expected = framed.offset + rec * count;
  if (bytes.length !== expected) throw new FrameCacheError(`${what}: ${bytes.length} bytes, expected ${expected} for ${count} frames (truncated or corrupt)`);
  const n = grid.width * grid.height;
  const { rows, cols } = gridCells(grid);
  const frames: FrameSample[] = [];
  let o = framed.offset;
  for (let i = 0; i < count; i++) {
    let p = o + 12;
    const state = new Float32Array(stateDim);
    const rates = new Float32Array(stateDim);
    for (let k = 0; k < stateDim; k++, p += 4) state[k] = dv.getFloat32(p, true);
    for (let k = 0; k < stateDim; k++, p += 4) rates[k] = dv.getFloat32(p, true);
    const rgb = bytes.subarray(p, p + 3 * n);
    p += 3 * n;
    const mask = bytes.subarray(p, p + n);
    p += n;
    const visibleMask = bytes.subarray(p, p + n);
    p += n;
    const near = bytes.subarray(p, p + rows * cols);
    const frame: FrameSample = { seed: dv.getInt32(o, true), expertAction: dv.getInt32(o + 4, true), threat: bytes[o + 8] === 1, state, rates, rgb, mask };
    if (header.hasTruth) {
      frame.visibleMask = visibleMask;
      frame.near = near;
    }
    frames.push(frame);
    o += rec;
  }
  return { header, frames };
}
