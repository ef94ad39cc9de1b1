/**
 * jpegArtefacts (issue 14 item 2): the lossy stages of baseline JPEG without the entropy coding.
 * Checked against a real encoder and decoder (jpeg-js, 4:4:4): on grey images the pixels agree
 * to a fraction of a grey level; on colour images the artefacts have the same size.
 */
import * as jpeg from "jpeg-js";
import { jpegArtefacts, quantTable } from "../../src/vision/jpegArtefacts";

const S = 64;

function testImage(grey: boolean): Float32Array {
  const img = new Float32Array(S * S * 3);
  for (let y = 0; y < S; y++) {
    for (let x = 0; x < S; x++) {
      const v = 0.5 + 0.3 * Math.sin(x / 5) * Math.cos(y / 7) + (x === 30 ? -0.4 : 0);
      const o = 3 * (y * S + x);
      img[o] = v;
      img[o + 1] = grey ? v : v * 0.9;
      img[o + 2] = grey ? v : v * 0.7 + 0.1 * (y / S);
    }
  }
  return img.map((v) => Math.round(v * 255) / 255);
}

function viaJpegJs(img: Float32Array, quality: number): Float32Array {
  const rgba = new Uint8Array(S * S * 4);
  for (let i = 0; i < S * S; i++) {
    for (let c = 0; c < 3; c++) rgba[4 * i + c] = Math.round(img[3 * i + c]! * 255);
    rgba[4 * i + 3] = 255;
  }
  const d = jpeg.decode(jpeg.encode({ data: rgba, width: S, height: S }, quality).data, { useTArray: true });
  const out = new Float32Array(S * S * 3);
  for (let i = 0; i < S * S; i++) for (let c = 0; c < 3; c++) out[3 * i + c] = d.data[4 * i + c]! / 255;
  return out;
}

/** Mean absolute difference in 8-bit grey levels. */
function mad(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return (s / a.length) * 255;
}

describe("jpegArtefacts", () => {
  it("scales the T.81 tables as libjpeg does (quality 50 = the tables, 100 = all ones)", () => {
    const base = [16, 11, 255, 1];
    expect(Array.from(quantTable(base, 50))).toEqual([16, 11, 255, 1]);
    expect(Array.from(quantTable(base, 100))).toEqual([1, 1, 1, 1]);
    expect(Array.from(quantTable(base, 25))).toEqual([32, 22, 255, 2]);
  });

  it.each([30, 60, 90])("matches a real JPEG encode + decode on a grey image at quality %i", (q) => {
    const img = testImage(true);
    const mine = img.slice();
    jpegArtefacts(mine, S, S, q, false);
    const ref = viaJpegJs(img, q);
    expect(mad(mine, ref)).toBeLessThan(0.25);
    expect(mad(img, ref)).toBeGreaterThan(0.5);
  });

  it("makes colour artefacts of a real JPEG's size", () => {
    const img = testImage(false);
    const mine = img.slice();
    jpegArtefacts(mine, S, S, 40, false);
    const ref = viaJpegJs(img, 40);
    expect(mad(img, mine)).toBeGreaterThan(0.75 * mad(img, ref));
    expect(mad(img, mine)).toBeLessThan(1.25 * mad(img, ref));
    expect(mad(mine, ref)).toBeLessThan(0.5 * mad(img, ref));
  });

  it("4:2:0 chroma smears colour across a 1 px line more than 4:4:4, and handles odd sizes", () => {
    const img = testImage(false);
    const full = img.slice();
    const sub = img.slice();
    jpegArtefacts(full, S, S, 90, false);
    jpegArtefacts(sub, S, S, 90, true);
    expect(mad(img, sub)).toBeGreaterThan(mad(img, full));
    const odd = new Float32Array(13 * 7 * 3).fill(0.5);
    jpegArtefacts(odd, 13, 7, 50);
    for (const v of odd) expect(v).toBeCloseTo(0.5, 2);
  });
});
