/**
 * The optimised detectNative (issue 14: fused convs, per-shape weight snapshots, softmax in
 * JavaScript, row-copy padding, two-pass interpolation) against the plain path it replaced
 * (bench/detectNativeReference.ts on Teacher.forward), with the committed student on synthetic
 * photos of odd sizes: the probability maps agree within 1e-5 (the only differences are float32
 * rounding of the fused bias and of the softmax; bench `detect` prints the same bound on the dev
 * photos), and the padding and interpolation helpers give the same bytes and values.
 */
import * as path from "node:path";
import { cellsToPixelsReference, detectNativeReference, reflectPadReference } from "../../../bench/detectNativeReference";
import { initBackend } from "../../../src/harness/backend";
import { cellsToPixels, detectNative, reflectPad } from "../../../src/harness/eval/detectNative";
import { SHAPE_CACHE, teacherWireNet, type WireNet } from "../../../src/harness/eval/WireNet";
import { loadTeacher } from "../../../src/harness/modelfile";
import { Rng } from "../../../src/util/Rng";

const STUDENT = path.resolve(__dirname, "../../../models/pipeline/student");

/** A photo with smooth shading, noise and a few dark thin lines (wire-like), from a seeded RNG. */
function photo(W: number, H: number, seed: number): { width: number; height: number; rgb: Uint8Array } {
  const rng = new Rng(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const wire = Math.abs(y - 0.3 * x - H / 3) < 1 || Math.abs(x - 0.6 * W + 0.1 * y) < 1;
      for (let c = 0; c < 3; c++) rgb[3 * (y * W + x) + c] = wire ? 30 : Math.min(255, 120 + ((x + 2 * y + 40 * c) % 90) + rng.int(20));
    }
  }
  return { width: W, height: H, rgb };
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe("optimised detectNative vs the plain path, committed student", () => {
  let plain: WireNet;
  let fast: WireNet;
  beforeAll(async () => {
    await initBackend({ warn: () => undefined });
    const teacher = (await loadTeacher(STUDENT)).model;
    plain = teacherWireNet(teacher, "student plain", { fused: false });
    fast = teacherWireNet(teacher, "student", { frozen: true });
  });
  afterAll(() => fast.dispose());

  it.each([
    [100, 37],
    [540, 360],
    [360, 540],
    [540, 360],
  ])("%ix%i: maps, cells and class probabilities within 1e-5", (W, H) => {
    const p = photo(W, H, W * 1000 + H);
    const a = detectNativeReference(plain, p);
    const b = detectNative(fast, p);
    expect([b.width, b.height, b.rows, b.cols]).toEqual([a.width, a.height, a.rows, a.cols]);
    expect(maxAbsDiff(a.map, b.map)).toBeLessThanOrEqual(1e-5);
    expect(maxAbsDiff(a.cells, b.cells)).toBeLessThanOrEqual(1e-5);
    expect(maxAbsDiff(a.cellProbs, b.cellProbs)).toBeLessThanOrEqual(1e-5);
  });

  it(`stays equal when more than ${SHAPE_CACHE} photo shapes evict weight snapshots`, () => {
    const sizes = Array.from({ length: SHAPE_CACHE + 2 }, (_, i) => [41 + 8 * i, 23 + 5 * i] as const);
    for (const [W, H] of [...sizes, ...sizes]) {
      const p = photo(W, H, W + H);
      expect(maxAbsDiff(detectNativeReference(plain, p).map, detectNative(fast, p).map)).toBeLessThanOrEqual(1e-5);
    }
  });
});

describe("padding and interpolation: the same results as the plain path", () => {
  it.each([
    [5, 3, 16, 16],
    [1, 1, 8, 8],
    [36, 54, 40, 56],
    [3, 7, 24, 8],
  ])("reflectPad %ix%i to %ix%i gives the same bytes (folds wider than the photo included)", (W, H, PW, PH) => {
    const p = photo(W, H, 7);
    expect(Buffer.from(reflectPad(p.rgb, W, H, PW, PH)).equals(Buffer.from(reflectPadReference(p.rgb, W, H, PW, PH)))).toBe(true);
  });

  it("cellsToPixels gives the same values as per-pixel interpolation", () => {
    const rng = new Rng(11);
    for (const [W, H] of [[100, 37], [540, 360], [7, 3]] as const) {
      const rows = Math.ceil(H / 8);
      const cols = Math.ceil(W / 8);
      const cells = Float32Array.from({ length: rows * cols }, () => rng.uniform());
      expect(Array.from(cellsToPixels(cells, rows, cols, W, H))).toEqual(Array.from(cellsToPixelsReference(cells, rows, cols, W, H)));
    }
  });
});
