import { rotationalFlow, type CameraIntrinsics, type Vec3 } from "./flowModel";
import { MatPool } from "./MatPool";
import type { Cv, CvMat, CvScalar } from "./opencv";

/** OpenCV's remap fixed-point resolution (imgproc.hpp: INTER_BITS = 5, INTER_TAB_SIZE = 32). */
const INTER_BITS = 5;
const INTER_TAB_SIZE = 1 << INTER_BITS;

/** Resampling used by cv.remap. Bilinear is the default; nearest exists for comparison. */
export type Interpolation = "bilinear" | "nearest";

export type RolloutWarperOptions = {
  width: number;
  height: number;
  /** Rollout steps K, >= 1. Step k (1..K) shows the view after k/K of `distanceM`. Default 3. */
  steps?: number;
  /** Distance imagined ahead along the current velocity, metres, > 0. Default 1. */
  distanceM?: number;
  /**
   * Speeds below this (m/s, >= 0) are treated as hovering: the flow carries no usable translation,
   * so no scaling is possible and the rollout repeats the current frame (status "zero-speed").
   * Default 0.3 m/s.
   */
  minSpeedMps?: number;
  /** Frame intervals outside (0, maxFrameIntervalS] seconds are rejected (status "bad-interval"). Default 0.5 s. */
  maxFrameIntervalS?: number;
  /** Resampling of cv.remap. Default "bilinear" (cv.INTER_LINEAR), the seed's choice. */
  interpolation?: Interpolation;
  /** Camera intrinsics; needed to subtract gyro-measured rotation from the flow. */
  intrinsics?: CameraIntrinsics;
};

/**
 * How a rollout was produced. Exhaustive; consumers switch on it.
 * - "scaled": flow scaled to the imagined distance and warped.
 * - "no-flow": no previous frame yet; every step is zero padding (valid = 0).
 * - "zero-speed": |v| < minSpeedMps; steps repeat the current frame, unwarped (flagged).
 * - "bad-interval": the frame interval is not in (0, maxFrameIntervalS]; zero padding.
 */
export type RolloutStatus = "scaled" | "no-flow" | "zero-speed" | "bad-interval";

/** Motion between the previous and the current frame. */
export type FrameMotion = {
  /** Frame interval from the two header stamps, seconds. */
  dtS: number;
  /** Ground speed |v_gps|, m/s (any direction: the rollout continues the current motion). */
  speedMps: number;
  /** Mean angular velocity over the interval in the camera optical frame, rad/s (see bodyFluToOptical). */
  angularVelocityOpt?: Vec3;
};

/**
 * Scales measured flow to the imagined move and warps the current frame into K steps with
 * cv.remap. All Mats and buffers are per frame size, allocated once; `dispose()` frees them.
 *
 * Backward warping: step k is I_k(p) = I(p - s_k * F(p)) with F the flow per metre and
 * s_k = distanceM * k / K. Exact backward warping would sample the flow at the source pixel
 * p - s_k F(.) (a fixed point); using F(p) instead is a first-order approximation whose error is
 * s_k |F| * |grad F| px, small where the flow is smooth and largest at depth discontinuities
 * (e.g. a wire in front of distant ground). Pixels mapped from outside the image replicate the
 * border (cv.BORDER_REPLICATE), which keeps gradients at the border at zero instead of inventing an edge.
 */
export class RolloutWarper {
  readonly width: number;
  readonly height: number;
  readonly steps: number;
  readonly distanceM: number;
  readonly minSpeedMps: number;
  readonly maxFrameIntervalS: number;
  readonly interpolation: Interpolation;
  readonly intrinsics: CameraIntrinsics | undefined;
  /** Translational flow per metre of imagined motion (px/m), [H, W, 2]; valid after a "scaled" `scaleFlow`. */
  readonly flowPerMetre: Float32Array;
  /** Factor applied in the last `scaleFlow`: 1 / (|v| dt), per metre; 0 when not scaled. */
  lastScale = 0;
  /** Whether the last `scaleFlow` subtracted gyro-measured rotation. */
  lastRotationCompensated = false;

  private readonly pool: MatPool;
  /** Fixed-point map: integer source coordinates (CV_16SC2). */
  private readonly mapInt: CvMat;
  /** Fixed-point map: sub-pixel table index (CV_16UC1), (fy << INTER_BITS) | fx. */
  private readonly mapFrac: CvMat;
  /** Empty Mat: map2 for nearest-neighbour remap, which takes the integer map alone. */
  private readonly noMap: CvMat;
  private readonly rotFlow: Float32Array;
  private readonly border: CvScalar;

  constructor(
    private readonly cv: Cv,
    options: RolloutWarperOptions,
  ) {
    const { width, height } = options;
    if (!Number.isInteger(width) || width <= 0 || !Number.isInteger(height) || height <= 0) {
      throw new RangeError(`RolloutWarper: width=${width}, height=${height}, expected positive integers`);
    }
    this.width = width;
    this.height = height;
    this.steps = options.steps ?? 3;
    if (!Number.isInteger(this.steps) || this.steps < 1) throw new RangeError(`RolloutWarper: steps=${this.steps}, expected an integer >= 1`);
    this.distanceM = options.distanceM ?? 1;
    if (!(this.distanceM > 0 && Number.isFinite(this.distanceM))) throw new RangeError(`RolloutWarper: distanceM=${this.distanceM}, expected > 0`);
    this.minSpeedMps = options.minSpeedMps ?? 0.3;
    if (!(this.minSpeedMps >= 0)) throw new RangeError(`RolloutWarper: minSpeedMps=${this.minSpeedMps}, expected >= 0`);
    this.maxFrameIntervalS = options.maxFrameIntervalS ?? 0.5;
    if (!(this.maxFrameIntervalS > 0)) throw new RangeError(`RolloutWarper: maxFrameIntervalS=${this.maxFrameIntervalS}, expected > 0`);
    this.interpolation = options.interpolation ?? "bilinear";
    this.intrinsics = options.intrinsics;
    if (this.intrinsics !== undefined && !(this.intrinsics.fx > 0 && this.intrinsics.fy > 0)) {
      throw new RangeError(`RolloutWarper: intrinsics fx=${this.intrinsics.fx}, fy=${this.intrinsics.fy}, expected > 0`);
    }
    this.pool = new MatPool(cv);
    this.mapInt = this.pool.alloc(height, width, cv.CV_16SC2);
    this.mapFrac = this.pool.alloc(height, width, cv.CV_16UC1);
    this.noMap = this.pool.adopt(new cv.Mat());
    this.flowPerMetre = new Float32Array(width * height * 2);
    this.rotFlow = new Float32Array(this.intrinsics !== undefined ? width * height * 2 : 0);
    this.border = new cv.Scalar(0);
  }

  /**
   * Turns flow measured over one frame interval (px, [H, W, 2], OpenCV convention) into
   * translational flow per metre in `flowPerMetre`, subtracting rotation when both the angular
   * velocity and the intrinsics are known. Returns the status; only "scaled" fills the buffer.
   */
  scaleFlow(flow: Float32Array, motion: FrameMotion): RolloutStatus {
    const n2 = this.width * this.height * 2;
    if (flow.length !== n2) throw new RangeError(`RolloutWarper.scaleFlow: flow.length=${flow.length}, expected ${n2}`);
    this.lastScale = 0;
    this.lastRotationCompensated = false;
    const { dtS, speedMps } = motion;
    if (!(dtS > 0 && dtS <= this.maxFrameIntervalS)) return "bad-interval";
    if (!(speedMps >= this.minSpeedMps)) return "zero-speed";
    const scale = 1 / (speedMps * dtS);
    const out = this.flowPerMetre;
    const w = motion.angularVelocityOpt;
    if (w !== undefined && this.intrinsics !== undefined && Number.isFinite(w.x + w.y + w.z)) {
      rotationalFlow(this.width, this.height, this.intrinsics, w, dtS, this.rotFlow);
      const rot = this.rotFlow;
      for (let i = 0; i < n2; i++) out[i] = (flow[i]! - rot[i]!) * scale;
      this.lastRotationCompensated = true;
    } else {
      for (let i = 0; i < n2; i++) out[i] = flow[i]! * scale;
    }
    this.lastScale = scale;
    return "scaled";
  }

  /**
   * Warps `src` into `dst` (same size and type, e.g. CV_32FC1) by `factor` times `flow`
   * ([H, W, 2] px): dst(p) = src(p - factor * flow(p)), with this warper's interpolation
   * (or `interpolation` when given). No allocation.
   */
  warp(src: CvMat, flow: Float32Array, factor: number, dst: CvMat, interpolation: Interpolation = this.interpolation): void {
    const { width: w, height: h } = this;
    if (src.rows !== h || src.cols !== w) throw new RangeError(`RolloutWarper.warp: src is ${src.cols}x${src.rows}, expected ${w}x${h}`);
    if (flow.length !== w * h * 2) throw new RangeError(`RolloutWarper.warp: flow.length=${flow.length}, expected ${w * h * 2}`);
    // The maps are written directly in OpenCV's fixed-point format (what cv.convertMaps makes from
    // float maps, imgproc/src/imgwarp.cpp: 1/32 px, INTER_BITS = 5), which this OpenCV.js build
    // lacks: remap then skips its per-call float-to-fixed conversion (measured 0.6 ms instead of
    // 1.7 ms at 256x256, identical output). Coordinates are clamped to 16 px outside the image,
    // where BORDER_REPLICATE gives the same value, so they fit in int16.
    const mi = this.mapInt.data16S;
    const mf = this.mapFrac.data16U;
    const nearest = interpolation === "nearest";
    const loX = -16;
    const hiX = w + 16;
    const loY = -16;
    const hiY = h + 16;
    let i = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++, i++) {
        let sx = x - factor * flow[2 * i]!;
        let sy = y - factor * flow[2 * i + 1]!;
        sx = sx < loX ? loX : sx > hiX ? hiX : sx;
        sy = sy < loY ? loY : sy > hiY ? hiY : sy;
        if (nearest) {
          mi[2 * i] = Math.round(sx);
          mi[2 * i + 1] = Math.round(sy);
        } else {
          const fx = Math.round(sx * INTER_TAB_SIZE);
          const fy = Math.round(sy * INTER_TAB_SIZE);
          mi[2 * i] = fx >> INTER_BITS;
          mi[2 * i + 1] = fy >> INTER_BITS;
          mf[i] = ((fy & (INTER_TAB_SIZE - 1)) << INTER_BITS) | (fx & (INTER_TAB_SIZE - 1));
        }
      }
    }
    const cv = this.cv;
    const mode = nearest ? cv.INTER_NEAREST : cv.INTER_LINEAR;
    cv.remap(src, dst, this.mapInt, nearest ? this.noMap : this.mapFrac, mode, cv.BORDER_REPLICATE, this.border);
  }

  /** Warps `src` to rollout step k (1..K) using `flowPerMetre` (call `scaleFlow` first). */
  warpStep(src: CvMat, k: number, dst: CvMat): void {
    if (!Number.isInteger(k) || k < 1 || k > this.steps) throw new RangeError(`RolloutWarper.warpStep: k=${k}, expected 1..${this.steps}`);
    this.warp(src, this.flowPerMetre, (this.distanceM * k) / this.steps, dst);
  }

  /** Frees the Mats. */
  dispose(): void {
    this.pool.dispose();
  }
}
