/**
 * The on-disk form of one spatial rollout flight (fit-harness --rollout-cache: the harness can be
 * trained again on the same on-policy flights without flying them again). Pure: bytes in and out;
 * the directory adapter is data/node/RolloutCacheDir.ts.
 *
 * Layout (little-endian):
 *   magic "DHSR" | u32 version (1) | u32 header length L | L bytes of JSON header
 *     {seed, outcome, steps, count, rows, cols, channels, sensitivityDims, hasTargetCells}
 *   then `count` fixed-size records (one per recorded sample, in flight order), each:
 *     i32 seed | i32 step | f32 features[cells * channels] | f32 sgt[cells * sensitivityDims]
 *     f32 rates[sensitivityDims] | u8 near[cells] | u8 riskTarget[regions] | u8 targetCells[cells] (when hasTargetCells)
 * Floats are the typed arrays' own bytes, so a decoded sample is bit for bit the one encoded.
 * Samples of the PPO ablation (with `policy`) are not stored: that path has its own command.
 */
import type { FlightOutcome } from "../eval/FlightMetrics";
import { readFrame, writeFrame } from "../../util/framedFile";
import { HARNESS_CELL_CHANNELS, NUM_SENSITIVITY_DIMS, REGION_CELLS } from "./SpatialHarness";
import type { SpatialFlight, SpatialSample } from "./spatialRollouts";

const MAGIC = 0x52534844; // "DHSR" little-endian
const VERSION = 1;

export type RolloutFlightHeader = {
  seed: number;
  outcome: FlightOutcome;
  steps: number;
  count: number;
  rows: number;
  cols: number;
  channels: number;
  sensitivityDims: number;
  hasTargetCells: boolean;
};

export class RolloutCacheError extends Error {
  override readonly name = "RolloutCacheError";
}

/** The typed arrays' bytes are written as they are: only on a little-endian machine are they the layout's. */
function requireLittleEndian(): void {
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) throw new RolloutCacheError("rollout files are little-endian and this machine is not");
}

function recordSize(h: Pick<RolloutFlightHeader, "rows" | "cols" | "channels" | "sensitivityDims" | "hasTargetCells">): number {
  const cells = h.rows * h.cols;
  return 8 + 4 * (cells * h.channels + cells * h.sensitivityDims + h.sensitivityDims) + cells + cells / (REGION_CELLS * REGION_CELLS) + (h.hasTargetCells ? cells : 0);
}

const bytesOf = (a: Float32Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Encodes one flight of a rows x cols cell grid. */
export function encodeSpatialFlight(flight: SpatialFlight, rows: number, cols: number): Uint8Array {
  requireLittleEndian();
  if (!(Number.isInteger(rows) && Number.isInteger(cols) && rows > 0 && cols > 0 && rows % REGION_CELLS === 0 && cols % REGION_CELLS === 0)) {
    throw new RolloutCacheError(`seed ${flight.seed}: grid ${rows}x${cols} cells, expected positive multiples of ${REGION_CELLS}`);
  }
  const cells = rows * cols;
  const regions = cells / (REGION_CELLS * REGION_CELLS);
  const withCells = flight.samples.filter((s) => s.targetCells !== undefined).length;
  if (withCells !== 0 && withCells !== flight.samples.length) throw new RolloutCacheError(`seed ${flight.seed}: ${withCells} of ${flight.samples.length} samples have targetCells; expected all or none`);
  const header: RolloutFlightHeader = {
    seed: flight.seed,
    outcome: flight.outcome,
    steps: flight.steps,
    count: flight.samples.length,
    rows,
    cols,
    channels: HARNESS_CELL_CHANNELS,
    sensitivityDims: NUM_SENSITIVITY_DIMS,
    hasTargetCells: withCells > 0,
  };
  const rec = recordSize(header);
  const { out, dv, offset } = writeFrame(MAGIC, VERSION, header, rec * flight.samples.length);
  let o = offset;
  for (const [i, s] of flight.samples.entries()) {
    if (s.policy !== undefined) throw new RolloutCacheError(`seed ${flight.seed}, sample ${i}: a PPO sample (with policy draws); those are not stored`);
    const sizes: [string, number, number][] = [
      ["features", s.features.length, cells * HARNESS_CELL_CHANNELS],
      ["sgt", s.sgt.length, cells * NUM_SENSITIVITY_DIMS],
      ["rates", s.rates.length, NUM_SENSITIVITY_DIMS],
      ["near", s.near.length, cells],
      ["riskTarget", s.riskTarget.length, regions],
      ["targetCells", s.targetCells?.length ?? (header.hasTargetCells ? -1 : 0), header.hasTargetCells ? cells : 0],
    ];
    const bad = sizes.filter(([, got, want]) => got !== want);
    if (bad.length > 0) throw new RolloutCacheError(`seed ${flight.seed}, sample ${i}: ${bad.map(([k, got, want]) => `${k} ${got} (expected ${want})`).join(", ")}`);
    dv.setInt32(o, s.seed, true);
    dv.setInt32(o + 4, s.step, true);
    let p = o + 8;
    for (const a of [s.features, s.sgt, s.rates, s.near, s.riskTarget, ...(s.targetCells === undefined ? [] : [s.targetCells])]) {
      out.set(bytesOf(a), p);
      p += a.byteLength;
    }
    o += rec;
  }
  return out;
}

/** A fresh Float32Array of n values from `bytes` at p (copied: the record offsets need not be 4-byte aligned). */
function floats(bytes: Uint8Array, p: number, n: number): Float32Array {
  const a = new Float32Array(n);
  new Uint8Array(a.buffer).set(bytes.subarray(p, p + 4 * n));
  return a;
}

/** Decodes one flight; every array of the samples is a copy (the file's bytes can be dropped). */
export function decodeSpatialFlight(bytes: Uint8Array, what = "rollout flight"): { header: RolloutFlightHeader; flight: SpatialFlight } {
  requireLittleEndian();
  const framed = readFrame(bytes, MAGIC, VERSION, what, "a rollout file", RolloutCacheError);
  const h = framed.header as RolloutFlightHeader;
  const dv = framed.dv;
  const ints = [h?.seed, h?.steps, h?.count, h?.rows, h?.cols];
  if (typeof h !== "object" || h === null || !ints.every((v) => Number.isInteger(v) && v >= 0) || typeof h.hasTargetCells !== "boolean" || typeof h.outcome?.type !== "string") {
    throw new RolloutCacheError(`${what}: header ${JSON.stringify(h).slice(0, 200)}, expected {seed, outcome, steps, count, rows, cols, channels, sensitivityDims, hasTargetCells}`);
  }
  if (h.channels !== HARNESS_CELL_CHANNELS || h.sensitivityDims !== NUM_SENSITIVITY_DIMS) {
    throw new RolloutCacheError(`${what}: ${h.channels} channels and ${h.sensitivityDims} sensitivity dimensions per cell; this harness has ${HARNESS_CELL_CHANNELS} and ${NUM_SENSITIVITY_DIMS}`);
  }
  if (h.rows === 0 || h.cols === 0 || h.rows % REGION_CELLS !== 0 || h.cols % REGION_CELLS !== 0) throw new RolloutCacheError(`${what}: grid ${h.rows}x${h.cols} cells, expected positive multiples of ${REGION_CELLS}`);
  const rec = recordSize(h);
  const expected = framed.offset + rec * h.count;
  if (bytes.length !== expected) throw new RolloutCacheError(`${what}: ${bytes.length} bytes, expected ${expected} for ${h.count} samples (truncated or corrupt)`);
  const cells = h.rows * h.cols;
  const regions = cells / (REGION_CELLS * REGION_CELLS);
  const samples: SpatialSample[] = [];
  let o = framed.offset;
  for (let i = 0; i < h.count; i++) {
    let p = o + 8;
    const features = floats(bytes, p, cells * h.channels);
    p += 4 * cells * h.channels;
    const sgt = floats(bytes, p, cells * h.sensitivityDims);
    p += 4 * cells * h.sensitivityDims;
    const rates = floats(bytes, p, h.sensitivityDims);
    p += 4 * h.sensitivityDims;
    const near = bytes.slice(p, p + cells);
    p += cells;
    const riskTarget = bytes.slice(p, p + regions);
    p += regions;
    const sample: SpatialSample = { seed: dv.getInt32(o, true), step: dv.getInt32(o + 4, true), features, sgt, rates, near, riskTarget };
    if (h.hasTargetCells) sample.targetCells = bytes.slice(p, p + cells);
    samples.push(sample);
    o += rec;
  }
  return { header: h, flight: { seed: h.seed, outcome: h.outcome, steps: h.steps, samples } };
}
