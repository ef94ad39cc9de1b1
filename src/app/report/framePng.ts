/**
 * A camera frame with detection boxes drawn on it, encoded as a PNG data URI (pure: pixels in,
 * string out; pngjs encodes in memory). Boxes are 2 px outlines; ground truth is drawn 1 px.
 */
import { PNG } from "pngjs";
import type { Box } from "../types";

export type Rgb = [number, number, number];

export const CLASS_COLORS: Record<string, Rgb> = { wire: [255, 40, 40], branch: [40, 220, 60], pole_trunk: [255, 200, 0] };
const TRUTH: Rgb = [255, 255, 255];

function rect(img: Uint8Array, W: number, H: number, b: Box, color: Rgb, thickness: number): void {
  const x0 = Math.max(0, Math.floor(b.x0)), y0 = Math.max(0, Math.floor(b.y0));
  const x1 = Math.min(W - 1, Math.ceil(b.x1) - 1), y1 = Math.min(H - 1, Math.ceil(b.y1) - 1);
  if (x1 < x0 || y1 < y0) return;
  const put = (x: number, y: number): void => {
    const i = (y * W + x) * 4;
    img[i] = color[0];
    img[i + 1] = color[1];
    img[i + 2] = color[2];
    img[i + 3] = 255;
  };
  for (let t = 0; t < thickness; t++) {
    for (let x = x0; x <= x1; x++) {
      if (y0 + t <= y1) put(x, y0 + t);
      if (y1 - t >= y0) put(x, y1 - t);
    }
    for (let y = y0; y <= y1; y++) {
      if (x0 + t <= x1) put(x0 + t, y);
      if (x1 - t >= x0) put(x1 - t, y);
    }
  }
}

/** RGBA pixels of `rgb` (rgb8, W x H) with the boxes drawn. */
export function drawBoxes(rgb: Uint8Array, W: number, H: number, boxes: readonly Box[], truth: readonly Box[]): Uint8Array {
  if (rgb.length !== W * H * 3) throw new RangeError(`rgb.length=${rgb.length}, expected ${W}x${H}x3=${W * H * 3}`);
  const img = new Uint8Array(W * H * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    img[j] = rgb[i]!;
    img[j + 1] = rgb[i + 1]!;
    img[j + 2] = rgb[i + 2]!;
    img[j + 3] = 255;
  }
  for (const b of truth) rect(img, W, H, b, TRUTH, 1);
  for (const b of boxes) rect(img, W, H, b, CLASS_COLORS[b.classId] ?? [0, 200, 255], 2);
  return img;
}

export function pngDataUri(rgba: Uint8Array, W: number, H: number): string {
  const png = new PNG({ width: W, height: H });
  png.data = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  return `data:image/png;base64,${PNG.sync.write(png).toString("base64")}`;
}
