import { checkImage, imageToGrey, type ImageLike } from "../../src/vision/imageToGrey";

/** Builds a padded image of one pixel colour per position from an (x, y) -> [r, g, b] function. */
function makeImage(encoding: string, width: number, height: number, pad: number, rgb: (x: number, y: number) => [number, number, number]): ImageLike {
  const ch = { mono8: 1, rgb8: 3, bgr8: 3, rgba8: 4, bgra8: 4 }[encoding] ?? 3;
  const step = width * ch + pad;
  const data = new Uint8Array(step * height).fill(77); // padding bytes must be ignored
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = rgb(x, y);
      const i = y * step + x * ch;
      if (encoding === "mono8") data[i] = r;
      else if (encoding.startsWith("rgb")) [data[i], data[i + 1], data[i + 2]] = [r, g, b];
      else [data[i], data[i + 1], data[i + 2]] = [b, g, r];
      if (ch === 4) data[i + 3] = 255;
    }
  }
  return { width, height, encoding, step, data };
}

const colour = (x: number, y: number): [number, number, number] => [(x * 37 + y * 11) % 256, (x * 5 + y * 91) % 256, (x * 73 + y * 29) % 256];
/** BT.601 luma in floating point, the reference the fixed-point code must match to +-1 grey level. */
const luma = ([r, g, b]: [number, number, number]): number => 0.299 * r + 0.587 * g + 0.114 * b;

describe("imageToGrey", () => {
  test.each(["rgb8", "bgr8", "rgba8", "bgra8"])("%s with row padding matches BT.601 within 0.5 grey level", (encoding) => {
    const img = makeImage(encoding, 13, 7, 5, colour);
    const out = new Uint8Array(13 * 7);
    imageToGrey(img, out);
    for (let y = 0; y < 7; y++) {
      for (let x = 0; x < 13; x++) expect(Math.abs(out[y * 13 + x]! - luma(colour(x, y)))).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  test("pure primaries give the BT.601 weights (255 * 0.299 = 76.2, * 0.587 = 149.7, * 0.114 = 29.1)", () => {
    const img = makeImage("rgb8", 3, 1, 0, (x) => (x === 0 ? [255, 0, 0] : x === 1 ? [0, 255, 0] : [0, 0, 255]));
    const out = new Uint8Array(3);
    imageToGrey(img, out);
    expect(Array.from(out)).toEqual([76, 150, 29]);
  });

  test("mono8 copies rows with and without padding", () => {
    for (const pad of [0, 3]) {
      const img = makeImage("mono8", 5, 4, pad, (x, y) => [x * 10 + y, 0, 0]);
      const out = new Uint8Array(20);
      imageToGrey(img, out);
      expect(Array.from(out)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 5) * 10 + Math.floor(i / 5)));
    }
  });

  test("rejects bad images with the field and value named", () => {
    const good = makeImage("rgb8", 4, 2, 0, colour);
    expect(checkImage(good)).toBeUndefined();
    expect(checkImage({ ...good, encoding: "16UC1" })).toEqual({ field: "encoding", message: expect.stringContaining('encoding="16UC1"') });
    expect(checkImage({ ...good, width: 0 })?.message).toContain("width=0");
    expect(checkImage({ ...good, height: 0, data: new Uint8Array(0) })?.field).toBe("height");
    expect(checkImage({ ...good, step: 11 })?.message).toBe("step=11, expected an integer >= width*channels=12 for rgb8");
    expect(checkImage({ ...good, data: good.data.subarray(1) })?.message).toBe("data.length=23, expected step*height=24");
    expect(checkImage(good, { width: 8, height: 2 })?.message).toContain("width=4, expected 8");
    expect(() => imageToGrey({ ...good, step: 11 }, new Uint8Array(8))).toThrow(RangeError);
    expect(() => imageToGrey(good, new Uint8Array(7))).toThrow("out.length=7, expected width*height=8");
  });
});
