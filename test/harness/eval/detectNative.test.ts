/**
 * detectNative (issue 14 item 1): photos of any size run at their native resolution. A tiny
 * random Teacher stands in for the trained detectors; the expectations follow from the padding
 * and interpolation rules stated in src/harness/eval/detectNative.ts.
 */
import { Teacher } from "../../../src/harness/models/Teacher";
import { teacherWireNet, type WireNet } from "../../../src/harness/eval/WireNet";
import { averageWithMirrored, boxDownsample, cellsToPixels, detectAtScale, detectEnsemble, detectNative, detectNativeFlipAveraged, mirrorRgb, reflectPad } from "../../../src/harness/eval/detectNative";
import { initBackend } from "../../../src/harness/backend";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

describe("detectNative", () => {
  let net: WireNet;
  beforeAll(() => {
    net = teacherWireNet(new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 3, threatLogit: true }), "tiny");
  });
  afterAll(() => net.dispose());
  const photo = (W: number, H: number) => ({ width: W, height: H, rgb: new Uint8Array(W * H * 3).map((_, i) => (i * 29 + (i >> 7)) % 251) });

  it("a portrait 36x54 photo gives a 36x54 map and a 7x5 cell grid; no squashing", () => {
    const r = detectNative(net, photo(36, 54));
    expect([r.width, r.height, r.rows, r.cols, r.map.length, r.cells.length]).toEqual([36, 54, 7, 5, 36 * 54, 35]);
    expect(r.map.every((p) => p >= 0 && p <= 1)).toBe(true);
  });

  it("equals the detector on the reflection-padded photo, cropped to the photo's cells", () => {
    const p = photo(36, 54);
    const padded = { width: 40, height: 56, rgb: reflectPad(p.rgb, 36, 54, 40, 56) };
    const a = detectNative(net, p);
    const b = detectNative(net, padded);
    for (let r = 0; r < 7; r++) for (let c = 0; c < 5; c++) expect(a.cells[r * 5 + c]).toBeCloseTo(b.cells[r * 5 + c]!, 5);
  });

  it("reflectPad mirrors about the last column and row (numpy reflect)", () => {
    const rgb = Uint8Array.from([1, 1, 1, 2, 2, 2, 3, 3, 3]); // 3x1: values 1 2 3
    expect(Array.from(reflectPad(rgb, 3, 1, 5, 2)).filter((_, i) => i % 3 === 0)).toEqual([1, 2, 3, 2, 1, 1, 2, 3, 2, 1]);
  });

  it("cellsToPixels interpolates between cell centres 4 and 12 (8 px cells), clamped outside them", () => {
    const map = cellsToPixels(Float32Array.from([0, 1]), 1, 2, 16, 1);
    expect(map[3]).toBeCloseTo(0, 6); // pixel centre 3.5 is left of the first cell centre (4)
    expect(map[7]).toBeCloseTo(3.5 / 8, 6); // pixel centre 7.5 is 3.5 px past 4 of the 8 between centres
    expect(map[15]).toBeCloseTo(1, 6);
  });

  it("flip averaging (--tta flip) answers a mirrored photo with the mirrored map; one pass does not", () => {
    const p = photo(36, 54);
    const mirrorMap = (m: Float32Array): number[] => Array.from({ length: m.length }, (_, i) => m[Math.floor(i / 36) * 36 + 35 - (i % 36)]!);
    const plain = detectNative(net, p).map;
    const plainOfMirror = detectNative(net, mirrorRgb(p)).map;
    expect(Array.from(plainOfMirror)).not.toEqual(mirrorMap(plain));
    const averaged = detectNativeFlipAveraged(net, p).map;
    expect(Array.from(detectNativeFlipAveraged(net, mirrorRgb(p)).map)).toEqual(mirrorMap(averaged));
    expect(averaged[5]).toBeCloseTo(0.5 * (plain[5]! + plainOfMirror[30]!), 6);
    expect(Array.from(mirrorRgb(mirrorRgb(p)).rgb)).toEqual(Array.from(p.rgb));
    expect(() => averageWithMirrored(detectNative(net, p), detectNative(net, photo(54, 36)))).toThrow("mirrored detection 54x36, expected the photo's 36x54");
  });
});

describe("detectEnsemble (detect --partner; transfer --real --partner's \"ensemble\" row)", () => {
  let a: WireNet;
  let b: WireNet;
  beforeAll(() => {
    a = teacherWireNet(new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 3, threatLogit: true }), "a");
    b = teacherWireNet(new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 8, threatLogit: true }), "b");
  });
  afterAll(() => {
    a.dispose();
    b.dispose();
  });
  const p = { width: 36, height: 54, rgb: new Uint8Array(36 * 54 * 3).map((_, i) => (i * 31 + (i >> 6)) % 253) };

  it("is the k-fold's ensemble map exactly: 0.5 (v + w) per pixel of the two maps, plain and flip-averaged", () => {
    for (const [flip, one] of [[false, detectNative], [true, detectNativeFlipAveraged]] as const) {
      const va = one(a, p);
      const vb = one(b, p);
      const e = detectEnsemble([a, b], p, flip);
      // realKFold's "ensemble" row: m.map((v, j) => 0.5 * (v + mine[j])), the partner's map m, the model's mine.
      expect(Array.from(e.map)).toEqual(Array.from(vb.map.map((v, j) => 0.5 * (v + va.map[j]!))));
      expect(Array.from(e.map)).not.toEqual(Array.from(va.map));
      e.cells.forEach((c, i) => expect(c).toBeCloseTo(0.5 * (va.cells[i]! + vb.cells[i]!), 6));
      e.cellProbs.forEach((c, i) => expect(c).toBeCloseTo(0.5 * (va.cellProbs[i]! + vb.cellProbs[i]!), 6));
      expect([e.width, e.height, e.rows, e.cols]).toEqual([36, 54, 7, 5]);
    }
  });

  it("one network is that network's detection; none is refused", () => {
    expect(Array.from(detectEnsemble([a], p).map)).toEqual(Array.from(detectNative(a, p).map));
    expect(() => detectEnsemble([], p)).toThrow("nets.length=0");
  });
});

describe("half-scale detection (eval-real --half-scale)", () => {
  let net: WireNet;
  beforeAll(() => {
    net = teacherWireNet(new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 3, threatLogit: true }), "tiny");
  });
  afterAll(() => net.dispose());

  it("boxDownsample averages n x n blocks and leaves out the remainder", () => {
    // 5x2 image, channel values 0..9 row-major (the same in all three channels).
    const rgb = Uint8Array.from({ length: 30 }, (_, i) => Math.floor(i / 3) * 10);
    const half = boxDownsample({ width: 5, height: 2, rgb }, 2);
    expect([half.width, half.height]).toEqual([2, 1]);
    // Blocks {0, 10, 50, 60} and {20, 30, 70, 80}: means 30 and 50; column 4 is left out.
    expect(Array.from(half.rgb)).toEqual([30, 30, 30, 50, 50, 50]);
    expect(() => boxDownsample({ width: 5, height: 2, rgb }, 3)).toThrow("factor 3, expected an integer in [1, 2] for a 5x2 image");
  });

  it("maps the half-size photo's cells back to the photo's pixels at 16 px per cell", () => {
    const W = 64;
    const H = 48;
    const p = { width: W, height: H, rgb: new Uint8Array(W * H * 3).map((_, i) => (i * 37 + (i >> 5)) % 253) };
    const map = detectAtScale(net, p, 2);
    expect(map.length).toBe(W * H);
    const small = detectNative(net, boxDownsample(p, 2));
    expect([small.rows, small.cols]).toEqual([3, 4]);
    // Photo pixel (8, 8) -> centre 8.5 / 16 - 0.5 = 0.03 of the way from small cell (0, 0) to its neighbours.
    const f = 8.5 / 16 - 0.5;
    const c = small.cells;
    const expected = (1 - f) * ((1 - f) * c[0]! + f * c[1]!) + f * ((1 - f) * c[4]! + f * c[5]!);
    expect(map[8 * W + 8]).toBeCloseTo(expected, 5);
    // Pixel (56, 40) lies past the last small cell centres (40 along x, 40 along y): clamped to cell (2, 3).
    expect(map[40 * W + 56]).toBeCloseTo(c[2 * 4 + 3]!, 5);
    expect(Array.from(detectAtScale(net, p, 1))).toEqual(Array.from(detectNative(net, p).map));
  });
});
