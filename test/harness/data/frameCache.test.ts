/**
 * The frame cache (issue 12 item 5): frameCacheCodec encodes one flight's frames to bytes and
 * back (layout in src/harness/data/frameCacheCodec.ts: 12-byte preamble, JSON header, fixed-size
 * records), refusing damaged input with a FrameCacheError that says what is wrong; FrameCacheDir
 * keeps one file per flight plus a manifest, refuses other settings and reads only seeds its
 * guard accepts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { decodeFlight, encodeFlight, FrameCacheError } from "../../../src/harness/data/frameCacheCodec";
import { FrameCacheDir, type FrameCacheManifest } from "../../../src/harness/data/node/FrameCacheDir";
import type { FrameSample } from "../../../src/harness/data/FrameDataset";
import { SeedSource, SeedSplitError, type Split } from "../../../src/harness/data/SeedSplit";
import type { GridSpec } from "../../../src/harness/eval/CellLabels";

const grid: GridSpec = { width: 16, height: 16, cell_px: 8 };
const N = 16 * 16;
const CELLS = 4;
const STATE_DIM = 5;
/** Bytes per record from the layout comment: 12 + 8 stateDim + 3n (rgb) + n (mask) + n (visible) + cells. */
const RECORD = 12 + 8 * STATE_DIM + 3 * N + N + N + CELLS;

/** A frame whose every array differs from the other frames' (pattern from `k`). */
function frame(seed: number, k: number, options: { truth: boolean; threat?: boolean; rates?: boolean }): FrameSample {
  const rgb = Uint8Array.from({ length: 3 * N }, (_, i) => (i * 7 + k * 31) & 255);
  const mask = Uint8Array.from({ length: N }, (_, i) => (i + k) % 4);
  // Values that float32 cannot hold exactly (1/3, 0.1) and extremes.
  const state = Float32Array.from([1 / 3 + k, -0.1, 1e-30, -0, 3.4e38]);
  const f: FrameSample = { seed, rgb, mask, state, expertAction: k % 7 };
  if (options.threat !== undefined) f.threat = options.threat;
  if (options.rates ?? true) f.rates = Float32Array.from([0.5, k, -2.25, 1 / 7, 0]);
  if (options.truth) {
    f.visibleMask = Uint8Array.from(mask, (c, i) => (i % 3 === 0 ? 0 : c));
    f.near = Uint8Array.from([k & 1, 1, 0, (k >> 1) & 1]);
  }
  return f;
}

const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function expectSameFrame(got: FrameSample, want: FrameSample): void {
  expect(got.seed).toBe(want.seed);
  expect(got.expertAction).toBe(want.expertAction);
  // The threat flag is one byte: undefined is stored as false.
  expect(got.threat).toBe(want.threat === true);
  expect(bytesOf(got.rgb).equals(bytesOf(want.rgb))).toBe(true);
  expect(bytesOf(got.mask).equals(bytesOf(want.mask))).toBe(true);
  // state and rates are float32 on disk, bit for bit (including -0); absent rates read as zeros.
  expect(got.state).toBeInstanceOf(Float32Array);
  expect(bytesOf(got.state).equals(bytesOf(want.state))).toBe(true);
  expect(bytesOf(got.rates!).equals(bytesOf(want.rates ?? new Float32Array(STATE_DIM)))).toBe(true);
}

/** Rewrites the JSON header of an encoded flight (and its length field). */
function withHeader(bytes: Uint8Array, header: string): Uint8Array {
  const hl = new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true);
  const h = new TextEncoder().encode(header);
  const out = new Uint8Array(12 + h.length + bytes.length - 12 - hl);
  out.set(bytes.subarray(0, 12));
  new DataView(out.buffer).setUint32(8, h.length, true);
  out.set(h, 12);
  out.set(bytes.subarray(12 + hl), 12 + h.length);
  return out;
}

const withTruth = [frame(42, 0, { truth: true, threat: true }), frame(42, 1, { truth: true, threat: false }), frame(42, 2, { truth: true })];
const noTruth = [frame(7, 3, { truth: false, threat: true }), frame(7, 4, { truth: false, rates: false })];

describe("frameCacheCodec", () => {
  it("round-trips frames with visibleMask and near byte for byte", () => {
    const bytes = encodeFlight(42, grid, STATE_DIM, withTruth);
    const { header, frames } = decodeFlight(bytes);
    expect(header).toEqual({ grid, stateDim: STATE_DIM, count: 3, seed: 42, hasTruth: true });
    const hl = new DataView(bytes.buffer).getUint32(8, true);
    expect(bytes.length).toBe(12 + hl + 3 * RECORD);
    expect(frames).toHaveLength(3);
    frames.forEach((f, i) => {
      const want = withTruth[i]!;
      expectSameFrame(f, want);
      expect(bytesOf(f.visibleMask!).equals(bytesOf(want.visibleMask!))).toBe(true);
      expect(bytesOf(f.near!).equals(bytesOf(want.near!))).toBe(true);
    });
    // Spot checks of the bit-exact comparison above: a value float32 rounds, and the sign of zero.
    expect(frames[0]!.state[0]).toBe(Math.fround(1 / 3));
    expect(Object.is(frames[0]!.state[3], -0)).toBe(true);
  });

  it("round-trips frames without visibleMask and near (hasTruth false, the fields stay absent)", () => {
    const bytes = encodeFlight(7, grid, STATE_DIM, noTruth);
    const { header, frames } = decodeFlight(bytes);
    expect(header.hasTruth).toBe(false);
    expect(header.count).toBe(2);
    frames.forEach((f, i) => {
      expectSameFrame(f, noTruth[i]!);
      expect(f.visibleMask).toBeUndefined();
      expect(f.near).toBeUndefined();
    });
  });

  it("decodes a flight lying at an offset inside a larger buffer", () => {
    const bytes = encodeFlight(42, grid, STATE_DIM, withTruth);
    const big = new Uint8Array(bytes.length + 13);
    big.set(bytes, 5);
    const { frames } = decodeFlight(big.subarray(5, 5 + bytes.length));
    frames.forEach((f, i) => expectSameFrame(f, withTruth[i]!));
  });

  it("round-trips an empty flight", () => {
    const { header, frames } = decodeFlight(encodeFlight(9, grid, STATE_DIM, []));
    expect(header).toMatchObject({ count: 0, seed: 9 });
    expect(frames).toEqual([]);
  });
});

describe("frameCacheCodec: damaged input and wrong shapes", () => {
  it("refuses damaged bytes with a FrameCacheError naming the problem and the file", () => {
    const good = encodeFlight(42, grid, STATE_DIM, withTruth);
    const fail = (bytes: Uint8Array): FrameCacheError => {
      try {
        decodeFlight(bytes, "flights/42.frames");
      } catch (e) {
        expect(e).toBeInstanceOf(FrameCacheError);
        return e as FrameCacheError;
      }
      throw new Error("decodeFlight accepted damaged bytes");
    };
    // Truncated: one byte short of the last record, and shorter than the preamble.
    const truncated = fail(good.subarray(0, good.length - 1));
    expect(truncated.name).toBe("FrameCacheError");
    expect(truncated.message).toBe(`flights/42.frames: ${good.length - 1} bytes, expected ${good.length} for 3 frames (truncated or corrupt)`);
    expect(fail(good.subarray(0, 5)).message).toBe("flights/42.frames: 5 bytes, too short for a frame cache file");
    // One byte too many is as wrong as one too few.
    const longer = new Uint8Array(good.length + 1);
    longer.set(good);
    expect(fail(longer).message).toMatch(/truncated or corrupt/);
    // Bad magic.
    const magic = good.slice();
    magic[0] = "X".charCodeAt(0);
    expect(fail(magic).message).toBe("flights/42.frames: not a frame cache file (bad magic)");
    // Unknown version.
    const version = good.slice();
    new DataView(version.buffer).setUint32(4, 2, true);
    expect(fail(version).message).toBe("flights/42.frames: version 2, expected 1");
    // Header length past the end.
    const long = good.slice();
    new DataView(long.buffer).setUint32(8, good.length, true);
    expect(fail(long).message).toBe(`flights/42.frames: header length ${good.length} runs past the end (${good.length} bytes)`);
    // Header not JSON.
    expect(fail(withHeader(good, "{grid: 16")).message).toMatch(/^flights\/42\.frames: header is not JSON \(/);
    // JSON without count / stateDim.
    expect(fail(withHeader(good, JSON.stringify({ grid, seed: 42, hasTruth: true }))).message).toBe(
      "flights/42.frames: header count=undefined, stateDim=undefined, expected non-negative integers",
    );
    expect(fail(withHeader(good, JSON.stringify({ grid, stateDim: STATE_DIM, count: -1, seed: 42, hasTruth: true }))).message).toMatch(/count=-1/);
    // A header that claims fewer frames than the file holds.
    expect(fail(withHeader(good, JSON.stringify({ grid, stateDim: STATE_DIM, count: 2, seed: 42, hasTruth: true }))).message).toMatch(/expected \d+ for 2 frames/);
  });

  it("refuses frames of the wrong shape when encoding, naming the frame and the lengths", () => {
    const short = { ...withTruth[0]!, rgb: new Uint8Array(10) };
    expect(() => encodeFlight(42, grid, STATE_DIM, [withTruth[1]!, short])).toThrow(FrameCacheError);
    expect(() => encodeFlight(42, grid, STATE_DIM, [withTruth[1]!, short])).toThrow(`frame 1 of seed 42: rgb 10, mask ${N}, state ${STATE_DIM}, rates ${STATE_DIM}; expected ${3 * N}, ${N}, ${STATE_DIM}, ${STATE_DIM}`);
    expect(() => encodeFlight(42, grid, STATE_DIM + 1, withTruth)).toThrow(/frame 0 of seed 42: .*state 5, rates 5; expected .*, 6, 6$/);
    const badNear = { ...withTruth[0]!, near: new Uint8Array(3) };
    expect(() => encodeFlight(42, grid, STATE_DIM, [badNear])).toThrow("frame 0 of seed 42: visibleMask 256, near 3; expected 256, 4");
  });

  // Regressions of header and shape validation (each used to throw a TypeError or pass silently).
  it("refuses a header without a grid with a FrameCacheError ", () => {
    const good = encodeFlight(42, grid, STATE_DIM, withTruth);
    expect(() => decodeFlight(withHeader(good, JSON.stringify({ stateDim: STATE_DIM, count: 3, seed: 42, hasTruth: true })), "f")).toThrow(FrameCacheError);
  });

  it("refuses a header that is JSON null with a FrameCacheError ", () => {
    const good = encodeFlight(42, grid, STATE_DIM, withTruth);
    expect(() => decodeFlight(withHeader(good, "null"), "f")).toThrow(FrameCacheError);
  });

  it("refuses a visibleMask of the wrong length when encoding ", () => {
    const shortVisible = { ...withTruth[0]!, visibleMask: new Uint8Array(10).fill(1) };
    expect(() => encodeFlight(42, grid, STATE_DIM, [shortVisible])).toThrow(/visibleMask/);
  });
});

describe("FrameCacheDir", () => {
  let root: string;
  const manifest: FrameCacheManifest = { version: 1, scenario: "default", split: "train", recording: { recordEvery: 4, maxFramesPerFlight: 3 } };
  // The split of the test seeds, made up for this test: even seeds are train, odd ones val.
  const splitOf = (seed: number): Split => (seed % 2 === 0 ? "train" : "val");

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "frame-cache-test-"));
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  function freshDir(name: string): FrameCacheDir {
    const cache = new FrameCacheDir(path.join(root, name));
    cache.open(manifest);
    return cache;
  }

  it("writes, lists (numerically), and reads flights back in the asked order", () => {
    const cache = freshDir("basic");
    expect(cache.seeds()).toEqual([]);
    expect(cache.has(10)).toBe(false);
    const f10 = [frame(10, 0, { truth: true, threat: true }), frame(10, 1, { truth: true })];
    const f2 = [frame(2, 2, { truth: true })];
    cache.write(10, grid, STATE_DIM, f10);
    cache.write(2, grid, STATE_DIM, f2);
    // A leftover temporary file of a killed run is not a flight.
    fs.writeFileSync(path.join(cache.dir, "flights", "4.frames.123.tmp"), "partial");
    expect(cache.has(10)).toBe(true);
    expect(cache.has(4)).toBe(false);
    // Numeric order, not string order ("10" < "2").
    expect(cache.seeds()).toEqual([2, 10]);
    const all = cache.read((s) => s);
    expect(all.grid).toEqual(grid);
    expect(all.frames.map((f) => f.seed)).toEqual([2, 10, 10]);
    [...f2, ...f10].forEach((want, i) => {
      expectSameFrame(all.frames[i]!, want);
      expect(bytesOf(all.frames[i]!.near!).equals(bytesOf(want.near!))).toBe(true);
    });
    expect(cache.read((s) => s, [10]).frames).toHaveLength(2);
    expect(fs.readdirSync(cache.dir).sort()).toEqual(["flights", "manifest.json"]);
    expect(JSON.parse(fs.readFileSync(path.join(cache.dir, "manifest.json"), "utf8"))).toEqual(manifest);
  });

  it("accepts the same manifest again and refuses other settings with a message naming the manifest file", () => {
    const cache = freshDir("manifest");
    expect(() => cache.open({ ...manifest })).not.toThrow();
    const other = new FrameCacheDir(cache.dir);
    const file = path.join(cache.dir, "manifest.json");
    expect(() => other.open({ ...manifest, recording: { recordEvery: 3, maxFramesPerFlight: 3 } })).toThrow(FrameCacheError);
    expect(() => other.open({ ...manifest, recording: { recordEvery: 3, maxFramesPerFlight: 3 } })).toThrow(`${file} was written with other settings`);
    expect(() => other.open({ ...manifest, split: "val" })).toThrow(/"split":"train".*\n.*"split":"val"/s);
    // The manifest on disk is unchanged.
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(manifest);
  });

  it("reads only seeds its guard accepts: a guard that refuses a seed stops the read", () => {
    const cache = freshDir("guard");
    cache.write(4, grid, STATE_DIM, [frame(4, 0, { truth: true })]);
    cache.write(5, grid, STATE_DIM, [frame(5, 1, { truth: true })]);
    const train = new SeedSource("train", splitOf);
    expect(() => cache.read((s) => train.require(s))).toThrow(SeedSplitError);
    expect(() => cache.read((s) => train.require(s))).toThrow("seed 5 belongs to the val split; this train loader may only read train seeds");
    // The guard saw the seeds in order; only the train one passed.
    expect(cache.read((s) => train.require(s), [4]).frames.map((f) => f.seed)).toEqual([4]);
  });

  it("refuses a flight file that holds another seed or is truncated, naming the file", () => {
    const cache = freshDir("damaged");
    cache.write(6, grid, STATE_DIM, [frame(6, 0, { truth: true })]);
    const f6 = path.join(cache.dir, "flights", "6.frames");
    const f8 = path.join(cache.dir, "flights", "8.frames");
    fs.copyFileSync(f6, f8);
    expect(() => cache.read((s) => s, [8])).toThrow(`${f8}: holds seed 6, expected 8`);
    const bytes = fs.readFileSync(f6);
    fs.writeFileSync(f6, bytes.subarray(0, bytes.length - 100));
    expect(() => cache.read((s) => s, [6])).toThrow(FrameCacheError);
    expect(() => cache.read((s) => s, [6])).toThrow(`${f6}: ${bytes.length - 100} bytes, expected ${bytes.length} for 1 frames (truncated or corrupt)`);
  });

  it("refuses flights of different grids in one read", () => {
    const cache = freshDir("grids");
    cache.write(2, grid, STATE_DIM, [frame(2, 0, { truth: true })]);
    const big: GridSpec = { width: 16, height: 24, cell_px: 8 };
    const f = frame(4, 0, { truth: false });
    cache.write(4, big, STATE_DIM, [{ ...f, rgb: new Uint8Array(16 * 24 * 3), mask: new Uint8Array(16 * 24) }]);
    expect(() => cache.read((s) => s)).toThrow(/4\.frames: grid \{"width":16,"height":24,"cell_px":8\} differs from \{"width":16,"height":16,"cell_px":8\}/);
  });
});
