import { MatPool } from "./MatPool";
import type { Cv, CvMat } from "./opencv";

/**
 * Texture features of a (warped) grey frame: the Sobel gradient magnitude (the high-frequency
 * texture channel) and the variance of that magnitude inside candidate thin-structure regions.
 *
 * Units. Frames are grey levels 0..255. The gradient is the 3x3 Sobel response divided by 8, so
 * that it is the derivative in grey levels per pixel (a ramp of slope 1 grey level/px gives 1;
 * the Sobel kernel's gain on a ramp is 1 + 2 + 1 times the 2-px central difference = 8). The
 * variance is the population variance of that magnitude over a region's pixels, in
 * (grey levels / px)^2. The seed's rule (scenario 4.2) is "variance > 5 and altitude < 15 m:
 * strengthen the texture channel"; the seed gives no units, so 5 (grey levels/px)^2 on this scale
 * is our reading, and both thresholds are parameters.
 *
 * Candidate regions are either given (a mask, or boxes from the detector) or found by a ridge
 * filter: morphological top-hat and black-hat with a `ridgeKernel` x `ridgeKernel` square
 * (grey - opening, closing - grey) respond only to bright or dark structures narrower than the
 * kernel, i.e. thin lines such as wires; pixels where the larger of the two exceeds
 * `ridgeThreshold` grey levels, grown by one pixel on each side so that the wire's flanks (where
 * the gradient lives) are inside, form the candidate mask.
 */
export type TextureOptions = {
  width: number;
  height: number;
  /** Square kernel of the top-hat/black-hat ridge filter, odd, >= 3 px. Structures narrower than it respond. Default 5. */
  ridgeKernel?: number;
  /** Top-hat/black-hat response (grey levels, > 0) above which a pixel is a thin-structure candidate. Default 20. */
  ridgeThreshold?: number;
  /** Gradient-magnitude variance ((grey levels/px)^2) above which a region is textured. Default 5 (seed). */
  varianceThreshold?: number;
  /** Altitude (m) below which the texture rule applies. Default 15 (seed). */
  altitudeThresholdM?: number;
};

/** An axis-aligned box in pixels: [x, x + width) x [y, y + height), clipped to the image. */
export type PixelBox = { x: number; y: number; width: number; height: number };

/** Statistics of the gradient magnitude in one region. */
export type RegionStats = { pixels: number; mean: number; variance: number };

export class TextureAnalyzer {
  readonly width: number;
  readonly height: number;
  readonly ridgeThreshold: number;
  readonly varianceThreshold: number;
  readonly altitudeThresholdM: number;

  private readonly pool: MatPool;
  private readonly src32: CvMat;
  private readonly gx: CvMat;
  private readonly gy: CvMat;
  private readonly mag: CvMat;
  private readonly grey8: CvMat;
  private readonly tophat: CvMat;
  private readonly blackhat: CvMat;
  private readonly kernel: CvMat;

  constructor(
    private readonly cv: Cv,
    options: TextureOptions,
  ) {
    const { width, height } = options;
    if (!Number.isInteger(width) || width <= 0 || !Number.isInteger(height) || height <= 0) {
      throw new RangeError(`TextureAnalyzer: width=${width}, height=${height}, expected positive integers`);
    }
    this.width = width;
    this.height = height;
    const k = options.ridgeKernel ?? 5;
    if (!Number.isInteger(k) || k < 3 || k % 2 === 0) throw new RangeError(`TextureAnalyzer: ridgeKernel=${k}, expected an odd integer >= 3`);
    this.ridgeThreshold = options.ridgeThreshold ?? 20;
    if (!(this.ridgeThreshold > 0)) throw new RangeError(`TextureAnalyzer: ridgeThreshold=${this.ridgeThreshold}, expected > 0`);
    this.varianceThreshold = options.varianceThreshold ?? 5;
    if (!(this.varianceThreshold >= 0)) throw new RangeError(`TextureAnalyzer: varianceThreshold=${this.varianceThreshold}, expected >= 0`);
    this.altitudeThresholdM = options.altitudeThresholdM ?? 15;
    if (!Number.isFinite(this.altitudeThresholdM)) throw new RangeError(`TextureAnalyzer: altitudeThresholdM=${this.altitudeThresholdM}, expected finite`);

    this.pool = new MatPool(cv);
    this.src32 = this.pool.alloc(height, width, cv.CV_32FC1);
    this.gx = this.pool.alloc(height, width, cv.CV_32FC1);
    this.gy = this.pool.alloc(height, width, cv.CV_32FC1);
    this.mag = this.pool.alloc(height, width, cv.CV_32FC1);
    this.grey8 = this.pool.alloc(height, width, cv.CV_8UC1);
    this.tophat = this.pool.alloc(height, width, cv.CV_8UC1);
    this.blackhat = this.pool.alloc(height, width, cv.CV_8UC1);
    this.kernel = this.pool.adopt(cv.getStructuringElement(cv.MORPH_RECT, new cv.Size(k, k)));
  }

  /**
   * Sobel gradient magnitude (grey levels/px) of `src` (CV_32FC1 or CV_8UC1, grey levels).
   * Returns the owned CV_32FC1 magnitude Mat, valid until the next call. No allocation.
   */
  gradientMagnitude(src: CvMat): CvMat {
    this.checkSize(src);
    const cv = this.cv;
    let s = src;
    if (src.type() !== cv.CV_32FC1) {
      src.convertTo(this.src32, cv.CV_32FC1, 1, 0);
      s = this.src32;
    }
    cv.Sobel(s, this.gx, cv.CV_32F, 1, 0, 3, 1 / 8, 0, cv.BORDER_REPLICATE);
    cv.Sobel(s, this.gy, cv.CV_32F, 0, 1, 3, 1 / 8, 0, cv.BORDER_REPLICATE);
    cv.magnitude(this.gx, this.gy, this.mag);
    return this.mag;
  }

  /**
   * Thin-structure candidates of `src` (CV_8UC1 or CV_32FC1 grey levels) by the ridge filter
   * described above; writes 1/0 into `outMask` (width*height) and returns the candidate count.
   */
  findCandidates(src: CvMat, outMask: Uint8Array): number {
    this.checkSize(src);
    const n = this.width * this.height;
    if (outMask.length !== n) throw new RangeError(`TextureAnalyzer.findCandidates: outMask.length=${outMask.length}, expected ${n}`);
    const cv = this.cv;
    let s = src;
    if (src.type() !== cv.CV_8UC1) {
      src.convertTo(this.grey8, cv.CV_8UC1, 1, 0);
      s = this.grey8;
    }
    cv.morphologyEx(s, this.tophat, cv.MORPH_TOPHAT, this.kernel);
    cv.morphologyEx(s, this.blackhat, cv.MORPH_BLACKHAT, this.kernel);
    const t = this.tophat.data;
    const b = this.blackhat.data;
    const thr = this.ridgeThreshold;
    const { width: w, height: h } = this;
    outMask.fill(0);
    // Grow by one pixel (3x3) while thresholding, so the flanks of the line are included.
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (Math.max(t[i]!, b[i]!) <= thr) continue;
        for (let yy = Math.max(0, y - 1); yy <= Math.min(h - 1, y + 1); yy++) {
          for (let xx = Math.max(0, x - 1); xx <= Math.min(w - 1, x + 1); xx++) outMask[yy * w + xx] = 1;
        }
      }
    }
    let count = 0;
    for (let i = 0; i < n; i++) count += outMask[i]!;
    return count;
  }

  /**
   * Mean and population variance of `magnitude` (width*height values) over the pixels where
   * `mask` is non-zero; written into `out` and returned. Empty regions give zeros.
   * Accumulates in float64 around the first value (shifted data) to avoid cancellation.
   */
  maskStats(magnitude: Float32Array, mask: Uint8Array, out: RegionStats): RegionStats {
    const n = this.width * this.height;
    if (magnitude.length !== n) throw new RangeError(`TextureAnalyzer.maskStats: magnitude.length=${magnitude.length}, expected ${n}`);
    if (mask.length !== n) throw new RangeError(`TextureAnalyzer.maskStats: mask.length=${mask.length}, expected ${n}`);
    let count = 0;
    let shift = 0;
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      if (mask[i] === 0) continue;
      const v = magnitude[i]!;
      if (count === 0) shift = v;
      const d = v - shift;
      s += d;
      s2 += d * d;
      count++;
    }
    return TextureAnalyzer.finish(count, shift, s, s2, out);
  }

  /** Same as `maskStats` over a box (clipped to the image). */
  boxStats(magnitude: Float32Array, box: PixelBox, out: RegionStats): RegionStats {
    const n = this.width * this.height;
    if (magnitude.length !== n) throw new RangeError(`TextureAnalyzer.boxStats: magnitude.length=${magnitude.length}, expected ${n}`);
    const x0 = Math.max(0, Math.floor(box.x));
    const y0 = Math.max(0, Math.floor(box.y));
    const x1 = Math.min(this.width, Math.ceil(box.x + box.width));
    const y1 = Math.min(this.height, Math.ceil(box.y + box.height));
    let count = 0;
    let shift = 0;
    let s = 0;
    let s2 = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const v = magnitude[y * this.width + x]!;
        if (count === 0) shift = v;
        const d = v - shift;
        s += d;
        s2 += d * d;
        count++;
      }
    }
    return TextureAnalyzer.finish(count, shift, s, s2, out);
  }

  /** The seed's rule: strengthen the texture channel where variance > threshold and altitude < threshold. */
  shouldStrengthenTexture(variance: number, altitudeM: number): boolean {
    return variance > this.varianceThreshold && altitudeM < this.altitudeThresholdM;
  }

  dispose(): void {
    this.pool.dispose();
  }

  private static finish(count: number, shift: number, s: number, s2: number, out: RegionStats): RegionStats {
    out.pixels = count;
    if (count === 0) {
      out.mean = 0;
      out.variance = 0;
      return out;
    }
    const m = s / count;
    out.mean = shift + m;
    out.variance = Math.max(0, s2 / count - m * m);
    return out;
  }

  private checkSize(m: CvMat): void {
    if (m.rows !== this.height || m.cols !== this.width) {
      throw new RangeError(`TextureAnalyzer: input is ${m.cols}x${m.rows}, expected ${this.width}x${this.height}`);
    }
  }
}
