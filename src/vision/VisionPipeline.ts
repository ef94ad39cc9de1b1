import { FlowEstimator, type FlowEstimatorOptions } from "./FlowEstimator";
import type { Vec3 } from "./flowModel";
import { checkImage, imageToGrey, type ImageLike } from "./imageToGrey";
import { MatPool } from "./MatPool";
import type { Cv, CvMat } from "./opencv";
import { RolloutWarper, type RolloutStatus, type RolloutWarperOptions } from "./RolloutWarper";
import { TextureAnalyzer, type TextureOptions } from "./TextureAnalyzer";

export type VisionPipelineOptions = {
  /** Frame width, px (all buffers are preallocated for this size). Default 256. */
  width?: number;
  /** Frame height, px. Default 256. */
  height?: number;
  /** Flow options (Farneback parameters, downscale). */
  flow?: Omit<FlowEstimatorOptions, "width" | "height">;
  /** Rollout options (steps K, distance, minimum speed, interpolation, intrinsics). */
  rollout?: Omit<RolloutWarperOptions, "width" | "height">;
  /** Texture options (ridge filter, variance and altitude thresholds). */
  texture?: Omit<TextureOptions, "width" | "height">;
  /**
   * Value range of the frame tensor: "signed" maps grey 0..255 to [-1, 1] (SPEC: all harness
   * inputs in [-1, 1]); "unit" to [0, 1]. Default "signed".
   */
  output?: "signed" | "unit";
  /**
   * Optional: replace the dense flow at thin-structure pixels (TextureAnalyzer.findCandidates on
   * the previous frame) by pyramidal Lucas-Kanade, tracking at most `maxPoints` of them (a fixed
   * count, so nothing is allocated per frame). Measured on a 1-px wire (bench/vision.bench.ts):
   * the error of the flow component normal to the wire drops from 0.21 px (128x128 Farneback) to
   * 0.02 px; the component along a straight wire is unobservable for both (aperture problem) and
   * does not change how the wire looks in the warped image. When there are more candidates than
   * `maxPoints`, every s-th candidate (raster order) is tracked and the candidates in between take
   * its flow. Off by default (it costs a ridge filter and the LK call per frame).
   */
  wireRefinement?: { maxPoints?: number };
  /**
   * Gradient magnitude (grey levels/px) that maps to the top of the texture tensor's range; larger
   * values clip. Default 127.5, the magnitude of a full 0 -> 255 step edge under the /8 Sobel.
   */
  textureRange?: number;
};

/** The per-frame input besides the image. */
export type FrameInput = {
  /** Header stamp of the image, nanoseconds. */
  stampNs: bigint;
  /** Ground speed |v_gps|, m/s. */
  speedMps: number;
  /** Mean angular velocity since the previous frame, camera optical frame, rad/s. */
  angularVelocityOpt?: Vec3;
};

/**
 * The fixed-shape rollout of one frame (static shapes for deployment). Owned by the pipeline and
 * overwritten by the next `push`: copy what must outlive it.
 */
export type RolloutTensors = {
  readonly steps: number;
  readonly height: number;
  readonly width: number;
  /** [K, H, W] warped grey frames in the output range; zeros where a step is not valid. */
  readonly frames: Float32Array;
  /** [K, H, W] Sobel gradient magnitude of each warped frame, mapped to the output range; zeros where not valid. */
  readonly texture: Float32Array;
  /** [K]: 1 where step k holds a frame, 0 for zero padding. */
  readonly valid: Uint8Array;
  validCount: number;
  status: RolloutStatus;
  /** Whether gyro-measured rotation was removed from the flow before scaling. */
  rotationCompensated: boolean;
  /** Frame interval used, seconds (0 for the first frame). */
  dtS: number;
};

/**
 * Camera frame -> imagined rollout: grey conversion, Farneback flow against the previous frame,
 * scaling to the imagined distance, K bilinear warps and their Sobel texture channel. One
 * instance per camera stream and frame size; every buffer and cv.Mat is allocated in the
 * constructor and freed by `dispose()`.
 */
export class VisionPipeline {
  readonly width: number;
  readonly height: number;
  readonly flow: FlowEstimator;
  readonly warper: RolloutWarper;
  readonly textures: TextureAnalyzer;
  readonly result: RolloutTensors;

  private readonly pool: MatPool;
  private prevGrey: CvMat;
  private currGrey: CvMat;
  private readonly curr32: CvMat;
  private readonly warped: CvMat;
  private readonly scratch: CvMat;
  private readonly textureRange: number;
  private prevStampNs: bigint | undefined;
  private readonly wire:
    | { maxPoints: number; mask: Uint8Array; candidates: Int32Array; points: Float32Array; moved: Float32Array; status: Uint8Array }
    | undefined;
  /** Wire pixels whose flow came from Lucas-Kanade in the last frame (0 when refinement is off). */
  lastWirePixels = 0;
  private readonly valueScale: number;
  private readonly valueOffset: number;
  private readonly textureScale: number;
  private readonly textureOffset: number;

  constructor(
    private readonly cv: Cv,
    options: VisionPipelineOptions = {},
  ) {
    const width = options.width ?? 256;
    const height = options.height ?? 256;
    this.width = width;
    this.height = height;
    const range = options.textureRange ?? 127.5;
    if (!(range > 0)) throw new RangeError(`VisionPipeline: textureRange=${range}, expected > 0`);
    const maxPoints = options.wireRefinement?.maxPoints ?? 512;
    if (!Number.isInteger(maxPoints) || maxPoints < 1) {
      throw new RangeError(`VisionPipeline: wireRefinement.maxPoints=${maxPoints}, expected an integer >= 1`);
    }
    // A bad option in a later part must not leak the Mats of the parts built before it.
    const built: { dispose(): void }[] = [];
    try {
      this.flow = new FlowEstimator(cv, { width, height, ...options.flow });
      built.push(this.flow);
      this.warper = new RolloutWarper(cv, { width, height, ...options.rollout });
      built.push(this.warper);
      this.textures = new TextureAnalyzer(cv, { width, height, ...options.texture });
    } catch (err) {
      for (const part of built) part.dispose();
      throw err;
    }
    if (options.wireRefinement !== undefined) {
      this.wire = {
        maxPoints,
        mask: new Uint8Array(width * height),
        candidates: new Int32Array(width * height),
        points: new Float32Array(2 * maxPoints),
        moved: new Float32Array(2 * maxPoints),
        status: new Uint8Array(maxPoints),
      };
    }
    this.pool = new MatPool(cv);
    this.prevGrey = this.pool.alloc(height, width, cv.CV_8UC1);
    this.currGrey = this.pool.alloc(height, width, cv.CV_8UC1);
    this.curr32 = this.pool.alloc(height, width, cv.CV_32FC1);
    this.warped = this.pool.alloc(height, width, cv.CV_32FC1);
    this.scratch = this.pool.alloc(height, width, cv.CV_32FC1);
    const steps = this.warper.steps;
    this.result = {
      steps,
      height,
      width,
      frames: new Float32Array(steps * width * height),
      texture: new Float32Array(steps * width * height),
      valid: new Uint8Array(steps),
      validCount: 0,
      status: "no-flow",
      rotationCompensated: false,
      dtS: 0,
    };
    const signed = (options.output ?? "signed") === "signed";
    this.valueScale = signed ? 2 / 255 : 1 / 255;
    this.valueOffset = signed ? -1 : 0;
    this.textureRange = range;
    this.textureScale = signed ? 2 / range : 1 / range;
    this.textureOffset = signed ? -1 : 0;
  }

  /**
   * Processes one camera frame. Throws a RangeError naming the field for an unusable image (wrong
   * encoding or size, bad step/data length): callers in subscription callbacks count and drop it.
   * Returns `this.result`, overwritten by the next call.
   */
  push(image: ImageLike, input: FrameInput): RolloutTensors {
    const problem = checkImage(image, { width: this.width, height: this.height });
    if (problem !== undefined) throw new RangeError(`VisionPipeline.push: ${problem.message}`);
    // Straight into the WASM heap: the grey frame is written once, into the Mat flow reads.
    imageToGrey(image, this.currGrey.data);
    return this.process(input);
  }

  /** Same as `push` for an already grey frame (width*height bytes). */
  pushGrey(grey: Uint8Array, input: FrameInput): RolloutTensors {
    const n = this.width * this.height;
    if (grey.length !== n) throw new RangeError(`VisionPipeline.pushGrey: grey.length=${grey.length}, expected ${n}`);
    this.currGrey.data.set(grey);
    return this.process(input);
  }

  private process(input: FrameInput): RolloutTensors {
    this.currGrey.convertTo(this.curr32, this.cv.CV_32FC1, 1, 0);
    const r = this.result;
    r.rotationCompensated = false;

    let status: RolloutStatus;
    if (this.prevStampNs === undefined) {
      status = "no-flow";
      r.dtS = 0;
    } else {
      r.dtS = Number(input.stampNs - this.prevStampNs) / 1e9;
      if (r.dtS > 0 && r.dtS <= this.warper.maxFrameIntervalS && input.speedMps >= this.warper.minSpeedMps) {
        const flowMat = this.flow.computeMats(this.prevGrey, this.currGrey);
        this.lastWirePixels = this.wire !== undefined ? this.refineWires(flowMat) : 0;
        const flow = flowMat.data32F;
        status = this.warper.scaleFlow(flow, { dtS: r.dtS, speedMps: input.speedMps, angularVelocityOpt: input.angularVelocityOpt });
        r.rotationCompensated = this.warper.lastRotationCompensated;
      } else {
        status = r.dtS > 0 && r.dtS <= this.warper.maxFrameIntervalS ? "zero-speed" : "bad-interval";
      }
    }
    r.status = status;
    this.fill(status);

    // The current frame becomes the previous one: swap the Mats, no copy.
    const t = this.prevGrey;
    this.prevGrey = this.currGrey;
    this.currGrey = t;
    // A stamp going backwards (bag loop, sim reset) restarts the history, as tf2 does.
    this.prevStampNs = input.stampNs;
    return r;
  }

  /** Forgets the previous frame (next push reports "no-flow"). */
  reset(): void {
    this.prevStampNs = undefined;
  }

  dispose(): void {
    this.flow.dispose();
    this.warper.dispose();
    this.textures.dispose();
    this.pool.dispose();
  }

  private fill(status: RolloutStatus): void {
    const r = this.result;
    const hw = this.width * this.height;
    switch (status) {
      case "no-flow":
      case "bad-interval":
        r.frames.fill(0);
        r.texture.fill(0);
        r.valid.fill(0);
        r.validCount = 0;
        return;
      case "zero-speed":
      case "scaled":
        for (let k = 1; k <= r.steps; k++) {
          const src = status === "scaled" ? this.warpTo(k) : this.curr32;
          this.writeStep(k - 1, src, hw);
        }
        r.valid.fill(1);
        r.validCount = r.steps;
        return;
    }
  }

  /** Overwrites the dense flow at thin-structure pixels with Lucas-Kanade flow (see the option). */
  private refineWires(flowMat: CvMat): number {
    const wire = this.wire;
    if (wire === undefined) return 0;
    const count = this.textures.findCandidates(this.prevGrey, wire.mask);
    if (count === 0) return 0;
    const w = this.width;
    const { mask, candidates, points, moved, status, maxPoints } = wire;
    let c = 0;
    for (let i = 0; i < mask.length; i++) if (mask[i] === 1) candidates[c++] = i;
    const stride = Math.ceil(count / maxPoints);
    const sampled = Math.ceil(count / stride);
    for (let j = 0; j < maxPoints; j++) {
      // Unused slots repeat the last sample: the point count, and so the Mats, stay fixed.
      const i = candidates[Math.min(j, sampled - 1) * stride]!;
      points[2 * j] = i % w;
      points[2 * j + 1] = (i - (i % w)) / w;
    }
    this.flow.trackPointsMats(this.prevGrey, this.currGrey, points, moved, status);
    const flow = flowMat.data32F;
    let replaced = 0;
    for (let k = 0; k < count; k++) {
      const j = Math.floor(k / stride);
      if (status[j] !== 1) continue;
      const i = candidates[k]!;
      flow[2 * i] = moved[2 * j]!;
      flow[2 * i + 1] = moved[2 * j + 1]!;
      replaced++;
    }
    return replaced;
  }

  private warpTo(k: number): CvMat {
    this.warper.warpStep(this.curr32, k, this.warped);
    return this.warped;
  }

  private writeStep(index: number, frame: CvMat, hw: number): void {
    // Scaling runs in WASM (convertTo) and one bulk copy moves it out: ~10x faster than a JS loop.
    const cv = this.cv;
    const r = this.result;
    const off = index * hw;
    frame.convertTo(this.scratch, cv.CV_32FC1, this.valueScale, this.valueOffset);
    r.frames.set(this.scratch.data32F, off);
    const mag = this.textures.gradientMagnitude(frame);
    cv.threshold(mag, this.scratch, this.textureRange, 0, cv.THRESH_TRUNC);
    this.scratch.convertTo(this.scratch, cv.CV_32FC1, this.textureScale, this.textureOffset);
    r.texture.set(this.scratch.data32F, off);
  }
}
