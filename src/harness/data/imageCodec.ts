/**
 * PNG and JPEG decoding to 8-bit RGB and grey PNG encoding, on in-memory buffers (the CLI reads
 * and writes the files). Decoders: pngjs (PNG.sync.read converts any bit depth and colour type to
 * 8-bit RGBA) and jpeg-js (baseline and progressive JPEG), with jpeg-js's own resolution and
 * memory caps so a hostile file cannot exhaust memory. Alpha is dropped (no compositing: the
 * detector sees the colour channels as stored).
 */
import { PNG } from "pngjs";
import * as jpeg from "jpeg-js";

export type RgbImage = { width: number; height: number; /** row-major RGB, 3 bytes per pixel */ rgb: Uint8Array };

/** Largest accepted image, in megapixels (jpeg-js default cap is 100). */
export const MAX_IMAGE_MEGAPIXELS = 100;

function rgbaToRgb(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += 4) {
    rgb[3 * i] = rgba[j] as number;
    rgb[3 * i + 1] = rgba[j + 1] as number;
    rgb[3 * i + 2] = rgba[j + 2] as number;
  }
  return rgb;
}

/** Decodes a PNG or JPEG (detected by magic bytes). `name` is used in error messages. */
export function decodeImage(bytes: Uint8Array, name: string): RgbImage {
  const isPng = bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  try {
    if (isPng) {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (png.width * png.height > MAX_IMAGE_MEGAPIXELS * 1e6) {
        throw new RangeError(`${png.width}x${png.height} exceeds ${MAX_IMAGE_MEGAPIXELS} megapixels`);
      }
      return { width: png.width, height: png.height, rgb: rgbaToRgb(png.data, png.width, png.height) };
    }
    if (isJpeg) {
      const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_MEGAPIXELS, maxMemoryUsageInMB: 1024 });
      return { width: img.width, height: img.height, rgb: rgbaToRgb(img.data, img.width, img.height) };
    }
  } catch (err) {
    throw new Error(`${name}: cannot decode image: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw new Error(`${name}: not a PNG or JPEG file (first bytes ${Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, "0")).join(" ")})`);
}

/** Encodes an 8-bit single-channel image as a greyscale PNG (colour type 0, bit depth 8). */
export function encodeGreyPng(width: number, height: number, grey: Uint8Array): Buffer {
  if (grey.length !== width * height) throw new RangeError(`grey.length=${grey.length}, expected width*height=${width * height}`);
  const png = new PNG({ width, height, colorType: 0 });
  for (let i = 0; i < width * height; i++) {
    const v = grey[i] as number;
    png.data[4 * i] = v;
    png.data[4 * i + 1] = v;
    png.data[4 * i + 2] = v;
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png, { colorType: 0, inputColorType: 6, bitDepth: 8 });
}

/** Encodes RGB as a PNG (colour type 2). */
export function encodeRgbPng(image: RgbImage): Buffer {
  const { width, height, rgb } = image;
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[4 * i] = rgb[3 * i] as number;
    png.data[4 * i + 1] = rgb[3 * i + 1] as number;
    png.data[4 * i + 2] = rgb[3 * i + 2] as number;
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png, { colorType: 2 });
}
