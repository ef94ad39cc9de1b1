import * as jpeg from "jpeg-js";
import { decodeImage, encodeGreyPng, encodeRgbPng } from "../../../src/harness/data/imageCodec";
import { resizeRgb } from "../../../src/harness/data/resizeImage";
import { probabilityMap } from "../../../src/harness/eval/probabilityMap";

describe("image codec", () => {
  it("round-trips RGB and grey PNGs and decodes JPEG", () => {
    const rgb = new Uint8Array(4 * 3 * 3).map((_, i) => (i * 7) % 256);
    const back = decodeImage(encodeRgbPng({ width: 4, height: 3, rgb }), "a.png");
    expect(back).toEqual({ width: 4, height: 3, rgb });
    const grey = Uint8Array.of(0, 64, 128, 255);
    const g = decodeImage(encodeGreyPng(2, 2, grey), "g.png");
    expect(Array.from(g.rgb)).toEqual([0, 0, 0, 64, 64, 64, 128, 128, 128, 255, 255, 255]);
    // A flat mid-grey JPEG decodes to (nearly) that grey: JPEG is lossy, tolerance 3 levels.
    const flat = new Uint8Array(16 * 16 * 4).fill(128);
    const j = decodeImage(jpeg.encode({ width: 16, height: 16, data: flat }, 90).data, "f.jpg");
    expect(j.width).toBe(16);
    expect(Math.max(...Array.from(j.rgb, (v) => Math.abs(v - 128)))).toBeLessThanOrEqual(3);
  });

  it("names the file when the bytes are not an image", () => {
    expect(() => decodeImage(Uint8Array.of(1, 2, 3, 4, 5), "notes.txt")).toThrow("notes.txt: not a PNG or JPEG file (first bytes 01 02 03 04)");
    expect(() => decodeImage(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1), "bad.png")).toThrow(/^bad.png: cannot decode image/);
  });
});

describe("resizeRgb", () => {
  it("keeps a 1-pixel wire when downscaling 4x (area averaging) at a quarter of its contrast", () => {
    // 64x64 black image with a white vertical line at x = 21; 4x down -> 16x16, output column 5
    // covers source columns 20..23, so it is 255/4 = 63.75 -> 64 everywhere.
    const w = 64;
    const rgb = new Uint8Array(w * w * 3);
    for (let y = 0; y < w; y++) rgb.fill(255, (y * w + 21) * 3, (y * w + 22) * 3);
    const small = resizeRgb({ width: w, height: w, rgb }, 16, 16);
    for (let y = 0; y < 16; y++) {
      expect(small.rgb[(y * 16 + 5) * 3]).toBe(64);
      expect(small.rgb[(y * 16 + 4) * 3]).toBe(0);
    }
  });

  it("upscales bilinearly with centre alignment", () => {
    // 2x1 [0, 200] -> 4x1: source x = (x + .5) / 2 - .5 = -.25, .25, .75, 1.25 -> clamped 0, .25,
    // .75, 1 -> 0, 50, 150, 200.
    const rgb = Uint8Array.of(0, 0, 0, 200, 200, 200);
    const big = resizeRgb({ width: 2, height: 1, rgb }, 4, 1);
    expect(Array.from(big.rgb.filter((_, i) => i % 3 === 0))).toEqual([0, 50, 150, 200]);
  });
});

describe("probabilityMap", () => {
  it("interpolates between cell centres and maps to the original size", () => {
    // 1 row x 2 cols, classes [bg, wire]; p_wire = [0, 1]; model 16x8 (8 px cells), output 4x1:
    // model u = (x + .5) * 4 = 2, 6, 10, 14 -> grid x = u / 8 - .5 = -.25, .25, .75, 1.25
    // -> clamped 0, .25, .75, 1 -> 0, 64 (63.75), 191 (191.25), 255.
    const m = probabilityMap({ probs: [1, 0, 0, 1], rows: 1, cols: 2, numClasses: 2, classIndex: 1, modelWidth: 16, modelHeight: 8, width: 4, height: 1 });
    expect(Array.from(m)).toEqual([0, 64, 191, 255]);
    expect(() => probabilityMap({ probs: [1], rows: 1, cols: 2, numClasses: 2, classIndex: 1, modelWidth: 16, modelHeight: 8, width: 4, height: 1 })).toThrow(
      /probs.length=1, expected rows\*cols\*numClasses=4/,
    );
  });
});
