/**
 * The model interfaces the perception and harness nodes run, so tests can inject deterministic
 * fakes and the real networks (src/harness) plug in through one adapter each.
 */
import type { CameraIntrinsics } from "../../../src/vision/flowModel";
import type { FrameState } from "../sensors/SensorState";
import type { Image } from "../sensors/sensorTypes";

/** The student's outputs for one image (mirrors drone_harness_msgs/msg/StudentOutput). */
export type StudentOutputs = {
  actionLogits: Float32Array;
  gridRows: number;
  gridCols: number;
  numClasses: number;
  /** HWC: cellProbs[(row * gridCols + col) * numClasses + class]. */
  cellProbs: Float32Array;
  /** The normalised state vector the policy head read (empty if the model reads none). */
  state: Float32Array;
  /** Side of `pooledInput` (0 when not provided). */
  pooledSize: number;
  /** The image input (RGB + Sobel in [-1, 1]) average-pooled to pooledSize^2 x 4, HWC. */
  pooledInput: Float32Array;
  /**
   * Near-threat probability per cell (gridRows*gridCols, row-major) from the pipeline detector;
   * absent or empty for the policy-head student (its actionLogits drive the controller instead).
   */
  threatProbs?: Float32Array;
};

/** Runs the student on a validated image; implementations reuse their buffers between calls. */
export interface Detector {
  readonly gridRows: number;
  readonly gridCols: number;
  readonly numClasses: number;
  /** `textureGain` (default 1): the harness's gain on the Sobel input channel for this frame (seed 4.2). */
  infer(image: Image, state: FrameState, textureGain?: number): StudentOutputs;
  dispose?(): void;
}

export type Correction = {
  /** delta added to the action logits (length = action count). */
  actionDelta: Float32Array;
  /** delta added to the cell logits (length = cellProbs.length), applied as softmax(logit + delta). */
  cellDelta: Float32Array;
  risk: number;
  lambda: number;
  topFeatures: string[];
  topSensitivities: number[];
  rolloutLength: number;
  /**
   * Imagined rollout of this frame, when the corrector runs one: its status (VisionPipeline
   * RolloutStatus, "off" without a rollout) and whether the gyro rotation was removed from the
   * flow (false until camera intrinsics are known).
   */
  rollout?: { status: string; rotationCompensated: boolean };
  /**
   * The seed's texture rule (scenario 4.2): the student's Sobel-channel gain for the next frame,
   * in [1, 1.5] (src/harness/correction/textureGain.ts); absent means 1.
   */
  textureGain?: number;
};

/** The Harness: imagined rollout -> S, r, delta (SPEC "The Harness method"). */
export interface Corrector {
  correct(image: Image, student: StudentOutputs, state: FrameState): Correction;
  /** Called on a clock jump backward or deactivate: forget frame/IMU histories. */
  reset(): void;
  /**
   * Camera intrinsics from sensor_msgs/CameraInfo K (pixels of the images `correct` receives);
   * called for every valid CameraInfo, so an implementation ignores unchanged values.
   */
  setCameraIntrinsics?(k: Readonly<CameraIntrinsics>): void;
  dispose?(): void;
}
