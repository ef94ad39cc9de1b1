import type { Cv, CvMat } from "./opencv";

/**
 * Owns the `cv.Mat`s of one component and frees them together. WASM memory is not
 * garbage-collected (see opencv.ts), so every Mat in src/vision is allocated through a pool and
 * released by the owner's `dispose()`. `MatPool.live` counts Mats allocated through any pool and
 * not yet freed; the leak test reads it (embind's own instance counter only works in debug builds).
 */
export class MatPool {
  private static liveCount = 0;
  private readonly mats: CvMat[] = [];

  constructor(private readonly cv: Cv) {}

  /** Number of Mats allocated by all pools in this process and not yet deleted. */
  static get live(): number {
    return MatPool.liveCount;
  }

  /** Allocates a rows x cols Mat of `type` (e.g. cv.CV_32FC2) owned by this pool. */
  alloc(rows: number, cols: number, type: number): CvMat {
    if (!Number.isInteger(rows) || rows <= 0 || !Number.isInteger(cols) || cols <= 0) {
      throw new RangeError(`MatPool.alloc: rows=${rows}, cols=${cols}; expected positive integers`);
    }
    return this.adopt(new this.cv.Mat(rows, cols, type));
  }

  /** Takes ownership of a Mat created elsewhere (e.g. by cv.getStructuringElement). */
  adopt(mat: CvMat): CvMat {
    this.mats.push(mat);
    MatPool.liveCount += 1;
    return mat;
  }

  /** Deletes one Mat of this pool now (when a size change replaces it). */
  release(mat: CvMat): void {
    const i = this.mats.indexOf(mat);
    if (i < 0) throw new Error("MatPool.release: Mat is not owned by this pool");
    this.mats.splice(i, 1);
    if (!mat.isDeleted()) mat.delete();
    MatPool.liveCount -= 1;
  }

  /** Deletes every Mat of this pool. Safe to call twice. */
  dispose(): void {
    for (const mat of this.mats) {
      if (!mat.isDeleted()) mat.delete();
      MatPool.liveCount -= 1;
    }
    this.mats.length = 0;
  }
}
