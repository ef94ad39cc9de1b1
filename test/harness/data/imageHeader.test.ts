/**
 * Issue 16 item 5: image dimensions are checked from the header before decoding. The hostile
 * inputs are built here: a real small PNG (pngjs) / JPEG (jpeg-js) whose IHDR / SOF0 dimensions
 * are patched to 20000x20000; decoding such a file used to take 40 s and 4 GB before failing.
 */
import { PNG } from "pngjs";
import * as jpeg from "jpeg-js";
import { ImageSizeError, decodeImage, encodeRgbPng } from "../../../src/harness/data/imageCodec";
import { readImageHeader } from "../../../src/harness/data/imageHeader";

function smallPng(): Uint8Array {
  return new Uint8Array(encodeRgbPng({ width: 3, height: 2, rgb: new Uint8Array(18).fill(90) }));
}

function smallJpeg(): Uint8Array {
  return new Uint8Array(jpeg.encode({ width: 16, height: 8, data: new Uint8Array(16 * 8 * 4).fill(128) }, 90).data);
}

/** Offset of the SOF0 marker's height field in a baseline JPEG. */
function sofHeightOffset(b: Uint8Array): number {
  for (let i = 2; i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xc0) return i + 5;
  throw new Error("no SOF0 in the test JPEG");
}

describe("readImageHeader", () => {
  it("reads PNG and JPEG dimensions without decoding", () => {
    expect(readImageHeader(smallPng())).toMatchObject({ type: "ok", format: "png", width: 3, height: 2 });
    expect(readImageHeader(smallJpeg())).toMatchObject({ type: "ok", format: "jpeg", width: 16, height: 8 });
  });

  it("names unknown and truncated inputs", () => {
    expect(readImageHeader(Uint8Array.of(1, 2, 3, 4))).toEqual({ type: "unknown", detail: "not a PNG or JPEG file (first bytes 01 02 03 04)" });
    expect(readImageHeader(smallPng().subarray(0, 20))).toMatchObject({ type: "malformed", format: "png" });
    expect(readImageHeader(Uint8Array.of(0xff, 0xd8, 0xff, 0xd9))).toMatchObject({ type: "malformed", format: "jpeg" });
  });
});

describe("decodeImage refuses oversized headers before decoding", () => {
  it("a 20000x20000 PNG header (68 bytes) is refused at once with the size in the message", () => {
    const png = new PNG({ width: 1, height: 1 });
    const bytes = new Uint8Array(PNG.sync.write(png));
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    dv.setUint32(16, 20000);
    dv.setUint32(20, 20000);
    const t0 = performance.now();
    expect(() => decodeImage(bytes, "huge.png")).toThrow(ImageSizeError);
    expect(() => decodeImage(bytes, "huge.png")).toThrow("huge.png: PNG header says 20000x20000 (400.0 megapixels), expected 1 to 100 megapixels; not decoded");
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it("a 20000x20000 JPEG header is refused the same way; zero-size headers too", () => {
    const bytes = smallJpeg();
    const at = sofHeightOffset(bytes);
    bytes.set([20000 >> 8, 20000 & 255, 20000 >> 8, 20000 & 255], at);
    expect(() => decodeImage(bytes, "huge.jpg")).toThrow("huge.jpg: JPEG header says 20000x20000 (400.0 megapixels), expected 1 to 100 megapixels; not decoded");
    const zero = smallJpeg();
    zero.set([0, 0], sofHeightOffset(zero));
    expect(() => decodeImage(zero, "zero.jpg")).toThrow(/zero.jpg: JPEG header says 16x0/);
  });

  it("a header under the cap but too large for the file's length is refused without decoding", () => {
    // 9000x9000 = 81 megapixels needs >= ceil(9000/8)^2 / 16 = 79,101 bytes of JPEG; the file has ~700.
    const bytes = smallJpeg();
    bytes.set([9000 >> 8, 9000 & 255, 9000 >> 8, 9000 & 255], sofHeightOffset(bytes));
    const t0 = performance.now();
    expect(() => decodeImage(bytes, "lie.jpg")).toThrow(/^lie.jpg: JPEG header says 9000x9000, which needs at least 79101 bytes; the file has \d+ \(truncated or a false header\); not decoded$/);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it("still decodes the unpatched images", () => {
    expect(decodeImage(smallPng(), "a.png").width).toBe(3);
    expect(decodeImage(smallJpeg(), "a.jpg").height).toBe(8);
  });
});
