/**
 * Mutated PNG and JPEG bytes into decodeImage (issue 16 item 5): every case ends in an image of
 * the size its header states or in an Error naming the file, and none decodes more than
 * MAX_IMAGE_MEGAPIXELS (the header is checked first). Seeds: a small PNG (pngjs) and a small
 * JPEG (jpeg-js), each also with its header's dimensions mutated.
 */
import fc from "fast-check";
import * as jpeg from "jpeg-js";
import { MAX_IMAGE_MEGAPIXELS, decodeImage, encodeRgbPng } from "../../src/harness/data/imageCodec";
import { readImageHeader } from "../../src/harness/data/imageHeader";
import { FuzzTally, expectedError, fcParams, fuzzRuns, mutate, mutationsArb } from "./fuzzSupport";

const RUNS = fuzzRuns(300);

const rgb = new Uint8Array(24 * 16 * 3).map((_, i) => (i * 37) % 256);
const seeds = {
  png: new Uint8Array(encodeRgbPng({ width: 24, height: 16, rgb })),
  jpeg: new Uint8Array(jpeg.encode({ width: 24, height: 16, data: new Uint8Array(24 * 16 * 4).map((_, i) => (i * 13) % 256) }, 85).data),
};

describe.each(Object.keys(seeds) as (keyof typeof seeds)[])("%s decoding fuzz", (format) => {
  const tally = new FuzzTally(`image decoding (${format})`);
  afterAll(() => tally.print());

  it("mutated bytes: an image within the size cap or an Error naming the file", () => {
    fc.assert(
      fc.property(mutationsArb, (ops) => {
        const bytes = mutate(seeds[format], ops);
        tally.run(() => {
          try {
            const img = decodeImage(bytes, `case.${format}`);
            expect(img.width * img.height).toBeLessThanOrEqual(MAX_IMAGE_MEGAPIXELS * 1e6);
            expect(img.rgb.length).toBe(img.width * img.height * 3);
            return "decoded";
          } catch (err) {
            return expectedError(err, [Error], new RegExp(`^case\\.${format}: `));
          }
        });
      }),
      fcParams(RUNS),
    );
  });

  it("header dimensions set to any 16-bit values: refused above the cap, never decoded larger", () => {
    const h = readImageHeader(seeds[format]);
    expect(h.type).toBe("ok");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 0, max: 65535 }), (w, hgt) => {
        const bytes = seeds[format].slice();
        if (format === "png") {
          const dv = new DataView(bytes.buffer);
          dv.setUint32(16, w);
          dv.setUint32(20, hgt);
        } else {
          let at = -1;
          for (let i = 2; i + 1 < bytes.length && at < 0; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xc0) at = i + 5;
          bytes.set([hgt >> 8, hgt & 255, w >> 8, w & 255], at);
        }
        tally.run(() => {
          try {
            const img = decodeImage(bytes, `case.${format}`);
            expect(img.width * img.height).toBeLessThanOrEqual(MAX_IMAGE_MEGAPIXELS * 1e6);
            return "decoded";
          } catch (err) {
            if (w * hgt > MAX_IMAGE_MEGAPIXELS * 1e6 || w * hgt === 0) expect((err as Error).message).toMatch(/not decoded$/);
            return expectedError(err, [Error], new RegExp(`^case\\.${format}: `));
          }
        });
      }),
      fcParams(Math.max(1, Math.floor(RUNS / 10))),
    );
  });
});
