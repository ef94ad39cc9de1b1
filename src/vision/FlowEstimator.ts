import { MatPool } from "./MatPool";
import type { Cv, CvMat, CvSize, CvTermCriteria } from "./opencv";

/**
 * Parameters of cv.calcOpticalFlowFarneback (G. Farneback, "Two-Frame Motion Estimation Based on
 * Polynomial Expansion", SCIA 2003; OpenCV video/src/optflow.cpp). Names follow the OpenCV call.
 */
export type FarnebackParams = {
  /** Pyramid scale between levels, in (0, 1). Default 0.5 (each level half the size). */
  pyrScale: number;
  /** Number of pyramid levels including the full image, >= 1. Default 3. */
  levels: number;
  /** Averaging window size in pixels, >= 3. Default 15. */
  winsize: number;
  /** Iterations per pyramid level, >= 1. Default 3. */
  iterations: number;
  /** Pixel neighbourhood of the polynomial expansion: 5 or 7. Default 5. */
  polyN: 5 | 7;
  /** Gaussian sigma of the polynomial expansion, > 0 (OpenCV suggests 1.1 for polyN 5, 1.5 for 7). Default 1.2. */
  polySigma: number;
  /** Gaussian instead of box window (OPTFLOW_FARNEBACK_GAUSSIAN): more accurate, slower. Default false. */
  gaussian: boolean;
};

export const DEFAULT_FARNEBACK: Readonly<FarnebackParams> = {
  pyrScale: 0.5,
  levels: 3,
  winsize: 15,
  iterations: 3,
  polyN: 5,
  polySigma: 1.2,
  gaussian: false,
};

export type FlowEstimatorOptions = {
  /** Frame width in pixels (the pipeline preallocates per size). */
  width: number;
  /** Frame height in pixels. */
  height: number;
  /** Farneback parameters; missing fields take DEFAULT_FARNEBACK. */
  farneback?: Partial<FarnebackParams>;
  /**
   * Integer factor by which frames are shrunk (cv.INTER_AREA) before Farneback; the flow is
   * upsampled back (cv.INTER_LINEAR) and multiplied by the factor. 1 = full resolution.
   * Default 2 (256x256 -> 128x128): see docs/vision.md for the accuracy/cost table behind it.
   */
  downscale?: number;
  /** Pyramidal Lucas-Kanade window (pixels, odd, >= 3). Default 15. */
  lkWinSize?: number;
  /** Pyramidal Lucas-Kanade maximum pyramid level (0-based), >= 0. Default 2. */
  lkMaxLevel?: number;
};

function checkInt(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`FlowEstimator: ${name}=${value}, expected an integer >= ${min}`);
}

/** Validates Farneback parameters; throws a RangeError naming the bad one. */
export function checkFarnebackParams(p: FarnebackParams): void {
  if (!(p.pyrScale > 0 && p.pyrScale < 1)) throw new RangeError(`FlowEstimator: pyrScale=${p.pyrScale}, expected 0 < pyrScale < 1`);
  checkInt("levels", p.levels, 1);
  checkInt("winsize", p.winsize, 3);
  checkInt("iterations", p.iterations, 1);
  if (p.polyN !== 5 && p.polyN !== 7) throw new RangeError(`FlowEstimator: polyN=${String(p.polyN)}, expected 5 or 7`);
  if (!(p.polySigma > 0 && Number.isFinite(p.polySigma))) throw new RangeError(`FlowEstimator: polySigma=${p.polySigma}, expected > 0`);
}

/**
 * Dense optical flow between two grey frames of one fixed size, with every cv.Mat preallocated in
 * the constructor and freed by `dispose()`.
 *
 * Convention (OpenCV): flow(x, y) = (dx, dy) such that prev(x, y) ~ next(x + dx, y + dy), stored
 * interleaved as CV_32FC2 / Float32Array [H, W, 2], in full-resolution pixels per frame interval.
 */
export class FlowEstimator {
  readonly width: number;
  readonly height: number;
  readonly params: Readonly<FarnebackParams>;
  readonly downscale: number;

  private readonly pool: MatPool;
  private readonly prev: CvMat;
  private readonly next: CvMat;
  private readonly flow: CvMat;
  private readonly smallPrev: CvMat | undefined;
  private readonly smallNext: CvMat | undefined;
  private readonly smallFlow: CvMat | undefined;
  private readonly smallSize: CvSize;
  private readonly fullSize: CvSize;
  private readonly flags: number;

  private readonly lkWin: CvSize;
  private readonly lkMaxLevel: number;
  private readonly lkCriteria: CvTermCriteria;
  private lkPts: { n: number; prevPts: CvMat; nextPts: CvMat; status: CvMat; err: CvMat } | undefined;

  constructor(
    private readonly cv: Cv,
    options: FlowEstimatorOptions,
  ) {
    checkInt("width", options.width, 1);
    checkInt("height", options.height, 1);
    this.width = options.width;
    this.height = options.height;
    this.params = { ...DEFAULT_FARNEBACK, ...options.farneback };
    checkFarnebackParams(this.params);
    this.downscale = options.downscale ?? 2;
    checkInt("downscale", this.downscale, 1);
    if (this.width % this.downscale !== 0 || this.height % this.downscale !== 0) {
      throw new RangeError(
        `FlowEstimator: downscale=${this.downscale}, expected a divisor of width=${this.width} and height=${this.height}`,
      );
    }
    const lkWin = options.lkWinSize ?? 15;
    checkInt("lkWinSize", lkWin, 3);
    this.lkMaxLevel = options.lkMaxLevel ?? 2;
    checkInt("lkMaxLevel", this.lkMaxLevel, 0);

    this.pool = new MatPool(cv);
    const { width: w, height: h } = this;
    this.prev = this.pool.alloc(h, w, cv.CV_8UC1);
    this.next = this.pool.alloc(h, w, cv.CV_8UC1);
    this.flow = this.pool.alloc(h, w, cv.CV_32FC2);
    this.fullSize = new cv.Size(w, h);
    const sw = w / this.downscale;
    const sh = h / this.downscale;
    this.smallSize = new cv.Size(sw, sh);
    if (this.downscale > 1) {
      this.smallPrev = this.pool.alloc(sh, sw, cv.CV_8UC1);
      this.smallNext = this.pool.alloc(sh, sw, cv.CV_8UC1);
      this.smallFlow = this.pool.alloc(sh, sw, cv.CV_32FC2);
    }
    this.flags = this.params.gaussian ? cv.OPTFLOW_FARNEBACK_GAUSSIAN : 0;
    this.lkWin = new cv.Size(lkWin, lkWin);
    this.lkCriteria = new cv.TermCriteria(cv.TERM_CRITERIA_COUNT + cv.TERM_CRITERIA_EPS, 30, 0.01);
  }

  /**
   * Dense Farneback flow from `prev` to `next` (CV_8UC1 Mats of this size). Returns the owned
   * CV_32FC2 flow Mat, valid until the next call. No allocation.
   */
  computeMats(prev: CvMat, next: CvMat): CvMat {
    this.checkMat("prev", prev);
    this.checkMat("next", next);
    const p = this.params;
    const cv = this.cv;
    if (this.smallPrev !== undefined && this.smallNext !== undefined && this.smallFlow !== undefined) {
      cv.resize(prev, this.smallPrev, this.smallSize, 0, 0, cv.INTER_AREA);
      cv.resize(next, this.smallNext, this.smallSize, 0, 0, cv.INTER_AREA);
      cv.calcOpticalFlowFarneback(this.smallPrev, this.smallNext, this.smallFlow, p.pyrScale, p.levels, p.winsize, p.iterations, p.polyN, p.polySigma, this.flags);
      cv.resize(this.smallFlow, this.flow, this.fullSize, 0, 0, cv.INTER_LINEAR);
      // Flow vectors are in small-image pixels: scale to full-resolution pixels (in place, same type).
      this.flow.convertTo(this.flow, cv.CV_32FC2, this.downscale, 0);
    } else {
      cv.calcOpticalFlowFarneback(prev, next, this.flow, p.pyrScale, p.levels, p.winsize, p.iterations, p.polyN, p.polySigma, this.flags);
    }
    return this.flow;
  }

  /**
   * Dense flow from two grey frames (row-major, width*height bytes). Copies them into the owned
   * Mats, runs `computeMats`, and copies the flow into `out` (Float32Array of width*height*2,
   * interleaved dx, dy).
   */
  compute(prev: Uint8Array, next: Uint8Array, out: Float32Array): void {
    const n = this.width * this.height;
    if (prev.length !== n) throw new RangeError(`FlowEstimator.compute: prev.length=${prev.length}, expected ${n}`);
    if (next.length !== n) throw new RangeError(`FlowEstimator.compute: next.length=${next.length}, expected ${n}`);
    if (out.length !== 2 * n) throw new RangeError(`FlowEstimator.compute: out.length=${out.length}, expected ${2 * n}`);
    this.prev.data.set(prev);
    this.next.data.set(next);
    out.set(this.computeMats(this.prev, this.next).data32F);
  }

  /**
   * Sparse pyramidal Lucas-Kanade (J.-Y. Bouguet, "Pyramidal implementation of the Lucas Kanade
   * feature tracker", 2000; cv.calcOpticalFlowPyrLK) at the given pixels, e.g. wire pixels.
   * `points` holds x, y pairs (pixels in `prev`); `out` receives dx, dy pairs; `status[i]` is 1
   * when point i was tracked. The point Mats are reallocated only when the point count changes.
   */
  trackPoints(prev: Uint8Array, next: Uint8Array, points: Float32Array, out: Float32Array, status: Uint8Array): void {
    const n = this.width * this.height;
    if (prev.length !== n) throw new RangeError(`FlowEstimator.trackPoints: prev.length=${prev.length}, expected ${n}`);
    if (next.length !== n) throw new RangeError(`FlowEstimator.trackPoints: next.length=${next.length}, expected ${n}`);
    if (points.length % 2 !== 0 || points.length === 0) {
      throw new RangeError(`FlowEstimator.trackPoints: points.length=${points.length}, expected a positive even number (x, y pairs)`);
    }
    const count = points.length / 2;
    if (out.length !== points.length) throw new RangeError(`FlowEstimator.trackPoints: out.length=${out.length}, expected ${points.length}`);
    if (status.length !== count) throw new RangeError(`FlowEstimator.trackPoints: status.length=${status.length}, expected ${count}`);
    this.prev.data.set(prev);
    this.next.data.set(next);
    this.trackPointsMats(this.prev, this.next, points, out, status);
  }

  /**
   * `trackPoints` on CV_8UC1 Mats of this size (no frame copies). Same arguments otherwise; with a
   * constant point count nothing is allocated.
   */
  trackPointsMats(prev: CvMat, next: CvMat, points: Float32Array, out: Float32Array, status: Uint8Array): void {
    this.checkMat("prev", prev);
    this.checkMat("next", next);
    const count = points.length / 2;
    if (!Number.isInteger(count) || count === 0) {
      throw new RangeError(`FlowEstimator.trackPointsMats: points.length=${points.length}, expected a positive even number (x, y pairs)`);
    }
    if (out.length !== points.length) throw new RangeError(`FlowEstimator.trackPointsMats: out.length=${out.length}, expected ${points.length}`);
    if (status.length !== count) throw new RangeError(`FlowEstimator.trackPointsMats: status.length=${status.length}, expected ${count}`);
    const lk = this.lkBuffers(count);
    lk.prevPts.data32F.set(points);
    lk.nextPts.data32F.set(points);
    this.cv.calcOpticalFlowPyrLK(prev, next, lk.prevPts, lk.nextPts, lk.status, lk.err, this.lkWin, this.lkMaxLevel, this.lkCriteria);
    const moved = lk.nextPts.data32F;
    for (let i = 0; i < points.length; i++) out[i] = moved[i]! - points[i]!;
    status.set(lk.status.data);
  }

  /** Frees every Mat. The estimator must not be used afterwards. */
  dispose(): void {
    this.pool.dispose();
    this.lkPts = undefined;
  }

  private lkBuffers(count: number): { n: number; prevPts: CvMat; nextPts: CvMat; status: CvMat; err: CvMat } {
    if (this.lkPts?.n === count) return this.lkPts;
    if (this.lkPts !== undefined) {
      for (const m of [this.lkPts.prevPts, this.lkPts.nextPts, this.lkPts.status, this.lkPts.err]) this.pool.release(m);
    }
    const cv = this.cv;
    this.lkPts = {
      n: count,
      prevPts: this.pool.alloc(count, 1, cv.CV_32FC2),
      nextPts: this.pool.alloc(count, 1, cv.CV_32FC2),
      status: this.pool.alloc(count, 1, cv.CV_8UC1),
      err: this.pool.alloc(count, 1, cv.CV_32FC1),
    };
    return this.lkPts;
  }

  private checkMat(name: string, m: CvMat): void {
    if (m.rows !== this.height || m.cols !== this.width || m.type() !== this.cv.CV_8UC1) {
      throw new RangeError(
        `FlowEstimator: ${name} is ${m.cols}x${m.rows} type ${m.type()}, expected ${this.width}x${this.height} CV_8UC1 (${this.cv.CV_8UC1})`,
      );
    }
  }
}
