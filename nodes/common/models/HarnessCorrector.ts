/**
 * Adapter: the trained Harness (src/harness/models/HarnessNet.ts) as the harness node's
 * Corrector, with the same inputs as in training (src/harness/runtime/HarnessedPolicy.ts):
 *   image: buildHarnessImage(image input, []) (imagined frames zero-padded, static shapes); the
 *          pooled image input comes from the student output when present (the perception node
 *          computes it from the full-resolution input it already has; avg-pooling commutes with
 *          buildHarnessImage's own pooling), else it is computed here from the camera image,
 *   state: the vector the student read (from StudentOutput.state),
 *   rollout rewards: zeros, state rates: backward |ds/dt| over the last ROLLOUT_STEPS state periods;
 *   delta = clip(-lambda r S |ds/dt|) (correctionDeltaTensor), lambda from LambdaSchedule
 *   (0.3, decays while r < 0.2, grows while r > 0.7), halved after sustained runaway (> 0.6).
 * Optional imagined rollout (`vision`, the harness node's `imagined_rollout` parameter): the
 * camera frame goes through src/vision's VisionPipeline (Farneback flow scaled to a 1 m move
 * from the GPS speed, gyro rotation removed, K bilinear warps; SPEC "Rollouts"), and the valid
 * warped frames (grey in [-1, 1]) fill the harness image's rollout channels, pooled to 64x64,
 * as buildHarnessImage does with imagined RGB frames. The gyro rate (body FLU, the latest IMU message, FrameState.latestGyro_rad_s)
 * goes to the optical frame with the camera's downward pitch (`cameraPitchRad`,
 * bodyFluToOptical); removing its rotational flow needs the intrinsics, which arrive with the
 * first CameraInfo (`setCameraIntrinsics`): `createVision` then builds the pipeline again with
 * them (once; unchanged K is ignored). Until then the rollout runs uncompensated and reports
 * `rotationCompensated: false`. Off by default: the training code feeds
 * zero-padded rollout channels, and a network sees at run time what it was trained on.
 * Texture rule (seed 4.2; src/harness/correction/textureGain.ts, docs/harness.md): per student
 * cell, the variance of the pixel-gradient magnitude (grey 0-255, cellGradientVariance) of the
 * first valid warped frame of the imagined rollout, or of the current frame when there is none
 * (rollout off, first frame, bad interval: no motion imagined); with the student's wire
 * probabilities, the altitude and this frame's risk, textureGain gives the student's Sobel gain for
 * the next frame, in [1, 1.5] (`Correction.textureGain`; the node decides whether to apply it).
 * The per-class detection delta reaches the cells through the student's uncertainty gate
 * (detectionGate): cellDelta[cell, c] = gate(cell) * delta_detection[c], so
 * softmax(log p + cellDelta) equals correctDetectionLogits on the cell logits.
 */
import * as tf from "@tensorflow/tfjs";

import { ACTIONS, DETECTION_CLASSES, NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../../../src/harness/actions";
import { DELTA_RUNAWAY } from "../../../src/harness/correction/constants";
import { cellGradientVariance, textureGain } from "../../../src/harness/correction/textureGain";
import { correctionDeltaTensor } from "../../../src/harness/correction/correctionTensors";
import { LambdaSchedule } from "../../../src/harness/correction/LambdaSchedule";
import type { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { avgPoolToGrid } from "../../../src/harness/layers/pooling";
import { HARNESS_IMAGE_SIZE, ROLLOUT_STEPS, buildHarnessImage, buildImageInput } from "../../../src/harness/models/imageInput";
import { bodyFluToOptical, type CameraIntrinsics, type Vec3 } from "../../../src/vision/flowModel";
import type { RolloutTensors, VisionPipeline } from "../../../src/vision/VisionPipeline";
import { stampToNs } from "../ros/StampGuard";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { StateHistory } from "../../../src/harness/runtime/StateHistory";
import type { Correction, Corrector, StudentOutputs } from "./models";
import type { FrameState } from "../sensors/SensorState";
import type { Image } from "../sensors/sensorTypes";
import { Rgb8Converter } from "../sensors/toRgb8";

/** Names of the state features s_j (src/harness/models/stateVector.ts layout). */
export const STATE_FEATURE_NAMES: readonly string[] = [
  "altitude",
  "gps_vel_east",
  "gps_vel_north",
  "gps_vel_up",
  ...[1, 0].flatMap((lag) => ["gyro_x", "gyro_y", "gyro_z", "accel_x", "accel_y", "accel_z"].map((n) => `d_${n}_t-${lag}`)),
];

export type HarnessCorrectorOptions = {
  /** Number of top features reported. Default 3. */
  topK?: number;
  /** Consecutive frames above DELTA_RUNAWAY that halve lambda. Default 5. */
  runawayFrames?: number;
  /** Dispose the network (and `vision`) with the corrector. Default true (false when shared). */
  ownsModel?: boolean;
  /** Imagined rollout from the camera frames, fixed; default none (zero-padded rollout channels). */
  vision?: VisionPipeline;
  /**
   * Builds the imagined-rollout pipeline instead of `vision`: once at construction (intrinsics
   * undefined: no rotation compensation) and again when `setCameraIntrinsics` brings new values
   * (the previous pipeline is disposed).
   */
  createVision?: (intrinsics: Readonly<CameraIntrinsics> | undefined) => VisionPipeline;
  /** Downward pitch of the camera's optical axis from the body x axis, rad (bodyFluToOptical). Default 0. */
  cameraPitchRad?: number;
};

export class HarnessCorrector implements Corrector {
  private readonly rgb = new Rgb8Converter();
  private readonly history = new StateHistory();
  private readonly rates = new Float32Array(STATE_DIM);
  private readonly lambda = new LambdaSchedule();
  private readonly topK: number;
  private readonly runawayFrames: number;
  private runawayStreak = 0;
  private readonly actionDelta = new Float32Array(NUM_ACTIONS);
  private readonly classDelta = new Float32Array(NUM_DETECTION_CLASSES);
  private cellDelta = new Float32Array(0);
  private readonly sens = new Float64Array(STATE_DIM);
  private readonly order = Array.from({ length: STATE_DIM }, (_, j) => j);
  private readonly omegaOpt: Vec3 = { x: 0, y: 0, z: 0 };
  private readonly omegaBody: Vec3 = { x: 0, y: 0, z: 0 };
  /** Status of the last imagined rollout ("off" without vision). */
  lastRolloutStatus = "off";
  /** Whether the last imagined rollout had the gyro rotation removed. */
  lastRotationCompensated = false;
  private vision: VisionPipeline | undefined;
  private readonly intrinsics: CameraIntrinsics = { fx: 0, fy: 0, cx: 0, cy: 0 };
  private haveIntrinsics = false;
  private readonly cameraPitchRad: number;
  // Texture rule scratch, reallocated only when the image or grid size changes.
  private grey = new Float32Array(0);
  private cellVariance = new Float32Array(0);
  private wireProb = new Float32Array(0);
  /** Source of the last texture-rule grey frame: "warped", "current", or "grid_mismatch" (gain 1). */
  lastTextureSource = "current";

  constructor(
    private readonly harness: HarnessNet,
    private readonly options: HarnessCorrectorOptions = {},
  ) {
    this.topK = options.topK ?? 3;
    this.runawayFrames = options.runawayFrames ?? 5;
    this.cameraPitchRad = options.cameraPitchRad ?? 0;
    if (!Number.isFinite(this.cameraPitchRad) || Math.abs(this.cameraPitchRad) > Math.PI / 2) {
      throw new RangeError(`cameraPitchRad=${this.cameraPitchRad}, expected a finite value in [-pi/2, pi/2]`);
    }
    if (options.vision !== undefined && options.createVision !== undefined) {
      throw new RangeError("HarnessCorrector: pass either vision or createVision, not both");
    }
    this.vision = options.vision ?? options.createVision?.(undefined);
  }

  /** Rebuilds the rollout pipeline with the camera intrinsics (only with createVision, only when they change). */
  setCameraIntrinsics(k: Readonly<CameraIntrinsics>): void {
    const cur = this.intrinsics;
    if (this.haveIntrinsics && cur.fx === k.fx && cur.fy === k.fy && cur.cx === k.cx && cur.cy === k.cy) return;
    const create = this.options.createVision;
    if (create === undefined) return;
    if (!(k.fx > 0 && k.fy > 0 && Number.isFinite(k.fx + k.fy + k.cx + k.cy))) {
      throw new RangeError(`camera intrinsics fx=${k.fx}, fy=${k.fy}, cx=${k.cx}, cy=${k.cy}: expected finite values with fx, fy > 0`);
    }
    const next = create({ fx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy });
    this.vision?.dispose();
    this.vision = next;
    cur.fx = k.fx;
    cur.fy = k.fy;
    cur.cx = k.cx;
    cur.cy = k.cy;
    this.haveIntrinsics = true;
  }

  correct(image: Image, student: StudentOutputs, state: FrameState): Correction {
    if (student.state.length !== STATE_DIM) {
      throw new RangeError(`student state length=${student.state.length}, expected ${STATE_DIM} (a student that reads the sensor state)`);
    }
    // |ds/dt| over control steps as in training: one state per state period enters the history
    // (FrameState.newStatePeriod) and the rate divides by the period; frames in between reuse it.
    if (state.newStatePeriod) {
      this.history.push(student.state);
      this.history.rates(state.statePeriod_s, this.rates);
    }
    const pooled = student.pooledSize === HARNESS_IMAGE_SIZE && student.pooledInput.length === HARNESS_IMAGE_SIZE * HARNESS_IMAGE_SIZE * 4;
    const rgb01Data = pooled ? undefined : this.rgb.convertFloat01(image);
    const lambda = this.lambda.value;
    const { actionDelta, classDelta, sens, order } = this;
    const rollout = this.imagine(image, state);
    let risk = 0;
    tf.tidy(() => {
      const imageInput =
        rgb01Data === undefined
          ? tf.tensor4d(student.pooledInput, [1, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_SIZE, 4])
          : buildImageInput(tf.tensor4d(rgb01Data, [1, image.height, image.width, 3]));
      const rates = tf.tensor2d(this.rates, [1, STATE_DIM]);
      const h = this.harness.forward({
        image: rollout === undefined ? buildHarnessImage(imageInput, []) : this.harnessImageWithRollout(imageInput, rollout),
        state: tf.tensor2d(student.state, [1, STATE_DIM]),
        rolloutRewards: tf.zeros([1, ROLLOUT_STEPS]),
        stateRates: rates,
      });
      const delta = correctionDeltaTensor(h.sensitivity, rates, h.risk, lambda);
      actionDelta.set(delta.action.dataSync());
      classDelta.set(delta.detection.dataSync());
      risk = h.risk.dataSync()[0]!;
      // Sensitivity of the policy to s_j: sum over the action rows of S[i, j].
      const S = h.sensitivity.dataSync();
      sens.fill(0);
      for (let i = 0; i < ACTIONS.length; i++) for (let j = 0; j < STATE_DIM; j++) sens[j] = sens[j]! + S[i * STATE_DIM + j]!;
    });
    // Per-cell gate from the student's own probabilities: g = (1 - max_c p_c) / (1 - 1/C).
    const C = student.numClasses;
    if (this.cellDelta.length !== student.cellProbs.length) this.cellDelta = new Float32Array(student.cellProbs.length);
    const cellDelta = this.cellDelta;
    for (let base = 0; base < cellDelta.length; base += C) {
      let pmax = 0;
      for (let c = 0; c < C; c++) pmax = Math.max(pmax, student.cellProbs[base + c]!);
      const g = (1 - pmax) / (1 - 1 / C);
      for (let c = 0; c < C; c++) cellDelta[base + c] = g * classDelta[c]!;
    }
    let maxAbs = 0;
    for (const v of actionDelta) maxAbs = Math.max(maxAbs, Math.abs(v));
    for (const v of classDelta) maxAbs = Math.max(maxAbs, Math.abs(v));
    this.runawayStreak = maxAbs > DELTA_RUNAWAY ? this.runawayStreak + 1 : 0;
    if (this.runawayStreak >= this.runawayFrames) {
      this.lambda.reduceForRunaway();
      this.runawayStreak = 0;
    }
    if (risk >= 0 && risk <= 1) this.lambda.update(risk);
    const gain = this.textureGainFor(image, student, state.altitude_m, risk, rollout);
    order.sort((a, b) => sens[b]! - sens[a]!);
    const top = order.slice(0, this.topK);
    return {
      actionDelta,
      cellDelta,
      risk,
      lambda,
      topFeatures: top.map((j) => STATE_FEATURE_NAMES[j] ?? `s${j}`),
      topSensitivities: top.map((j) => sens[j]!),
      rolloutLength: ROLLOUT_STEPS,
      rollout: { status: this.lastRolloutStatus, rotationCompensated: this.lastRotationCompensated },
      textureGain: gain,
    };
  }

  /**
   * The seed's texture rule on this frame: the student's texture gain for the next frame. Grey
   * source: the first valid warped frame (rollout output in [-1, 1] -> 0..255), else the current
   * camera frame (mean of R, G, B, the grey the student's Sobel channel uses).
   */
  private textureGainFor(image: Image, student: StudentOutputs, altitudeM: number, risk: number, rollout: RolloutTensors | undefined): number {
    const { width, height } = image;
    const cellPx = width / student.gridCols;
    if (!Number.isInteger(cellPx) || cellPx !== height / student.gridRows) {
      this.lastTextureSource = "grid_mismatch";
      return 1;
    }
    const n = width * height;
    if (this.grey.length !== n) this.grey = new Float32Array(n);
    const cells = student.gridRows * student.gridCols;
    if (this.cellVariance.length !== cells) {
      this.cellVariance = new Float32Array(cells);
      this.wireProb = new Float32Array(cells);
    }
    const grey = this.grey;
    let step = -1;
    if (rollout !== undefined && rollout.width === width && rollout.height === height) {
      for (let k = 0; k < rollout.steps && step < 0; k++) if (rollout.valid[k] === 1) step = k;
    }
    if (step >= 0 && rollout !== undefined) {
      const frames = rollout.frames;
      for (let i = 0, j = step * n; i < n; i++, j++) grey[i] = (frames[j]! + 1) * 127.5;
      this.lastTextureSource = "warped";
    } else {
      const rgb = this.rgb.convert(image);
      for (let i = 0, j = 0; i < n; i++, j += 3) grey[i] = (rgb[j]! + rgb[j + 1]! + rgb[j + 2]!) / 3;
      this.lastTextureSource = "current";
    }
    cellGradientVariance(grey, width, height, cellPx, this.cellVariance);
    const C = student.numClasses;
    const wire = DETECTION_CLASSES.indexOf("wire");
    for (let c = 0; c < cells; c++) this.wireProb[c] = student.cellProbs[c * C + wire]!;
    return textureGain({ cellVariance: this.cellVariance, wireProb: this.wireProb, altitude_m: altitudeM, risk });
  }

  /** Runs the vision pipeline on the frame; undefined when off or when no step is valid. */
  private imagine(image: Image, state: FrameState): RolloutTensors | undefined {
    const vision = this.vision;
    if (vision === undefined) return undefined;
    const g = state.latestGyro_rad_s;
    this.omegaBody.x = g[0];
    this.omegaBody.y = g[1];
    this.omegaBody.z = g[2];
    const v = state.velocityEnu_m_s;
    const r = vision.push(image, {
      stampNs: stampToNs(image.header.stamp),
      speedMps: Math.hypot(v[0], v[1], v[2]),
      angularVelocityOpt: bodyFluToOptical(this.omegaBody, this.omegaOpt, this.cameraPitchRad),
    });
    this.lastRolloutStatus = r.status;
    this.lastRotationCompensated = r.rotationCompensated;
    return r.validCount > 0 ? r : undefined;
  }

  /** [1,64,64,4+K]: the pooled image input plus the valid warped frames pooled (zeros elsewhere). Inside tf.tidy. */
  private harnessImageWithRollout(imageInput: tf.Tensor4D, r: RolloutTensors): tf.Tensor4D {
    const g = HARNESS_IMAGE_SIZE;
    const hw = r.height * r.width;
    const parts: tf.Tensor4D[] = [avgPoolToGrid(imageInput, g, g)];
    for (let k = 0; k < ROLLOUT_STEPS; k++) {
      if (k < r.steps && r.valid[k] === 1) {
        parts.push(avgPoolToGrid(tf.tensor4d(r.frames.subarray(k * hw, (k + 1) * hw), [1, r.height, r.width, 1]), g, g));
      } else {
        parts.push(tf.zeros<tf.Rank.R4>([1, g, g, 1]));
      }
    }
    return tf.concat(parts, 3);
  }

  reset(): void {
    this.vision?.reset();
    this.history.reset();
    this.runawayStreak = 0;
  }

  dispose(): void {
    if (this.options.ownsModel ?? true) {
      this.harness.dispose();
      this.vision?.dispose();
    } else if (this.options.createVision !== undefined) {
      // A pipeline this corrector built is its own even when the network is shared.
      this.vision?.dispose();
    }
    this.vision = undefined;
  }
}
