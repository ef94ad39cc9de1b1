/**
 * PNG adapter: encodes an rgb8 frame (optionally with the class mask overlaid: wire red,
 * branch green, pole/trunk blue, blended 50 %) with pngjs.
 */
import { writeFileSync } from "node:fs";
import { PNG } from "pngjs";

const OVERLAY: Array<[number, number, number]> = [
  [0, 0, 0],
  [255, 40, 40],
  [40, 255, 40],
  [60, 120, 255],
];

/** PNG bytes of the frame; with `mask`, labelled pixels are tinted with their class colour. */
export function encodeFramePng(rgb: Uint8Array, width: number, height: number, mask?: Uint8Array, overlayAlpha = 0.5): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    let r = rgb[3 * i]!, g = rgb[3 * i + 1]!, b = rgb[3 * i + 2]!;
    const cls = mask === undefined ? 0 : mask[i]!;
    const c = OVERLAY[cls];
    if (cls > 0 && c !== undefined) {
      r = Math.round(r * (1 - overlayAlpha) + c[0] * overlayAlpha);
      g = Math.round(g * (1 - overlayAlpha) + c[1] * overlayAlpha);
      b = Math.round(b * (1 - overlayAlpha) + c[2] * overlayAlpha);
    }
    png.data[4 * i] = r;
    png.data[4 * i + 1] = g;
    png.data[4 * i + 2] = b;
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png);
}

export function writeFramePng(file: string, rgb: Uint8Array, width: number, height: number, mask?: Uint8Array): void {
  writeFileSync(file, encodeFramePng(rgb, width, height, mask));
}
