/**
 * PNG and JPEG decoding to 8-bit RGB and grey PNG encoding, on in-memory buffers (the CLI reads
 * and writes the files). Decoders: pngjs (PNG.sync.read converts any bit depth and colour type to
 * 8-bit RGBA) and jpeg-js (baseline and progressive JPEG), with jpeg-js's own resolution and
 * memory caps so a hostile file cannot exhaust memory. Alpha is dropped (no compositing: the
 * detector sees the colour channels as stored).
 */
import { PNG } from "pngjs";
import * as jpeg from "jpeg-js";
import { readImageHeader } from "./imageHeader";

export type RgbImage = { width: number; height: number; /** row-major RGB, 3 bytes per pixel */ rgb: Uint8Array };

/** Largest accepted image, in megapixels (jpeg-js default cap is 100). */
export const MAX_IMAGE_MEGAPIXELS = 100;

function rgbaToRgb(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += 4) {
    rgb[3 * i] = rgba[j]!;
    rgb[3 * i + 1] = rgba[j + 1]!;
    rgb[3 * i + 2] = rgba[j + 2]!;
  }
  return rgb;
}

/** Thrown when a header's dimensions are zero or too large to decode (checked before decoding). */
export class ImageSizeError extends RangeError {
  override readonly name = "ImageSizeError";
}

/**
 * Decodes a PNG or JPEG (detected by magic bytes). `name` is used in error messages. The
 * dimensions are read from the header first (imageHeader.ts) and an image of zero size or more
 * than MAX_IMAGE_MEGAPIXELS is refused before any pixel is decoded (issue 16 item 5).
 */
export function decodeImage(bytes: Uint8Array, name: string): RgbImage {
  const header = readImageHeader(bytes);
  switch (header.type) {
    case "unknown":
      throw new Error(`${name}: ${header.detail}`);
    case "malformed":
      throw new Error(`${name}: cannot decode image: ${header.format.toUpperCase()} header: ${header.detail}`);
    case "ok":
      break;
  }
  const { format, width, height } = header;
  if (width === 0 || height === 0 || width * height > MAX_IMAGE_MEGAPIXELS * 1e6) {
    throw new ImageSizeError(
      `${name}: ${format.toUpperCase()} header says ${width}x${height} (${((width * height) / 1e6).toFixed(1)} megapixels), expected 1 to ${MAX_IMAGE_MEGAPIXELS} megapixels; not decoded`,
    );
  }
  if (bytes.length < header.minBytes) {
    throw new ImageSizeError(`${name}: ${format.toUpperCase()} header says ${width}x${height}, which needs at least ${header.minBytes} bytes; the file has ${bytes.length} (truncated or a false header); not decoded`);
  }
  try {
    if (format === "png") {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return { width: png.width, height: png.height, rgb: rgbaToRgb(png.data, png.width, png.height) };
    }
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_MEGAPIXELS, maxMemoryUsageInMB: 1024 });
    return { width: img.width, height: img.height, rgb: rgbaToRgb(img.data, img.width, img.height) };
  } catch (err) {
    throw new Error(`${name}: cannot decode image: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Encodes an 8-bit single-channel image as a greyscale PNG (colour type 0, bit depth 8). */
export function encodeGreyPng(width: number, height: number, grey: Uint8Array): Buffer {
  if (grey.length !== width * height) throw new RangeError(`grey.length=${grey.length}, expected width*height=${width * height}`);
  const png = new PNG({ width, height, colorType: 0 });
  for (let i = 0; i < width * height; i++) {
    const v = grey[i]!;
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
    png.data[4 * i] = rgb[3 * i]!;
    png.data[4 * i + 1] = rgb[3 * i + 1]!;
    png.data[4 * i + 2] = rgb[3 * i + 2]!;
    png.data[4 * i + 3] = 255;
  }
  return PNG.sync.write(png, { colorType: 2 });
}
