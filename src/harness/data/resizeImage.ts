/**
 * Resizing an RGB image to the model input. Upscaling (and mild downscaling, factor <= 2) uses
 * bilinear interpolation with pixel centres aligned (source x = (x + 0.5) * w / W - 0.5, the
 * OpenCV INTER_LINEAR convention). Stronger downscaling uses area averaging (each output pixel is
 * the mean of the source pixels it covers, weighted by overlap, OpenCV INTER_AREA): bilinear
 * sampling would step over a 1-pixel wire between two samples and erase it.
 */
import type { RgbImage } from "./imageCodec";

function bilinear(src: RgbImage, W: number, H: number, out: Uint8Array): void {
  const { width: w, height: h, rgb } = src;
  for (let y = 0; y < H; y++) {
    let sy = ((y + 0.5) * h) / H - 0.5;
    sy = Math.min(Math.max(sy, 0), h - 1);
    const y0 = Math.floor(sy);
    const y1 = Math.min(y0 + 1, h - 1);
    const fy = sy - y0;
    for (let x = 0; x < W; x++) {
      let sx = ((x + 0.5) * w) / W - 0.5;
      sx = Math.min(Math.max(sx, 0), w - 1);
      const x0 = Math.floor(sx);
      const x1 = Math.min(x0 + 1, w - 1);
      const fx = sx - x0;
      for (let c = 0; c < 3; c++) {
        const a = rgb[(y0 * w + x0) * 3 + c]!;
        const b = rgb[(y0 * w + x1) * 3 + c]!;
        const d = rgb[(y1 * w + x0) * 3 + c]!;
        const e = rgb[(y1 * w + x1) * 3 + c]!;
        const v = (1 - fy) * ((1 - fx) * a + fx * b) + fy * ((1 - fx) * d + fx * e);
        out[(y * W + x) * 3 + c] = Math.round(v);
      }
    }
  }
}

function area(src: RgbImage, W: number, H: number, out: Uint8Array): void {
  const { width: w, height: h, rgb } = src;
  const sxScale = w / W;
  const syScale = h / H;
  const acc = new Float64Array(3);
  for (let y = 0; y < H; y++) {
    const ya = y * syScale;
    const yb = (y + 1) * syScale;
    for (let x = 0; x < W; x++) {
      const xa = x * sxScale;
      const xb = (x + 1) * sxScale;
      acc.fill(0);
      let wsum = 0;
      for (let sy = Math.floor(ya); sy < Math.min(h, Math.ceil(yb)); sy++) {
        const wy = Math.min(yb, sy + 1) - Math.max(ya, sy);
        for (let sx = Math.floor(xa); sx < Math.min(w, Math.ceil(xb)); sx++) {
          const wgt = wy * (Math.min(xb, sx + 1) - Math.max(xa, sx));
          const o = (sy * w + sx) * 3;
          acc[0] = acc[0]! + wgt * rgb[o]!;
          acc[1] = acc[1]! + wgt * rgb[o + 1]!;
          acc[2] = acc[2]! + wgt * rgb[o + 2]!;
          wsum += wgt;
        }
      }
      for (let c = 0; c < 3; c++) out[(y * W + x) * 3 + c] = Math.round(acc[c]! / wsum);
    }
  }
}

/** Resizes `src` to W x H RGB (into `out` when given). */
export function resizeRgb(src: RgbImage, W: number, H: number, out: Uint8Array = new Uint8Array(W * H * 3)): RgbImage {
  if (!Number.isInteger(W) || !Number.isInteger(H) || W < 1 || H < 1) throw new RangeError(`target ${W}x${H}, expected positive integers`);
  if (src.rgb.length !== src.width * src.height * 3) {
    throw new RangeError(`rgb.length=${src.rgb.length}, expected width*height*3=${src.width * src.height * 3}`);
  }
  if (out.length !== W * H * 3) throw new RangeError(`out.length=${out.length}, expected ${W * H * 3}`);
  if (src.width === W && src.height === H) out.set(src.rgb);
  else if (src.width > 2 * W || src.height > 2 * H) area(src, W, H, out);
  else bilinear(src, W, H, out);
  return { width: W, height: H, rgb: out };
}
