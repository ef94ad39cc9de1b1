/**
 * Vision: the on-board imagined rollout of the seed's scenario 4.2 as a pure library (no ROS, no
 * files). OpenCV.js (WASM) is loaded once with `loadOpenCv()`; every class owns preallocated
 * buffers and cv.Mats for one frame size and frees them in `dispose()`.
 *
 * Typical use (one camera stream):
 *   const cv = await loadOpenCv();
 *   const vision = new VisionPipeline(cv, { width: 256, height: 256, rollout: { steps: 3 } });
 *   const r = vision.push(imageMsg, { stampNs, speedMps, angularVelocityOpt });
 *   // r.frames [K,H,W], r.texture [K,H,W], r.valid [K], r.status
 *   const imu = new ImuDifferencer({ window: 10 });
 *   imu.push(imuMsg); // imu.values [N, IMU_CHANNELS], imu.counters
 *
 * See docs/vision.md for the model, its limits and the measured figures.
 */
export { loadOpenCv, wasmHeapBytes, wasmHeapTop, type Cv, type CvMat } from "./opencv";
export { MatPool } from "./MatPool";
export { checkImage, imageToGrey, GREY_ENCODINGS, type GreyEncoding, type ImageLike, type ImageProblem } from "./imageToGrey";
export { FlowEstimator, DEFAULT_FARNEBACK, checkFarnebackParams, type FarnebackParams, type FlowEstimatorOptions } from "./FlowEstimator";
export { bodyFluToOptical, rotationalFlow, type CameraIntrinsics, type Vec3 } from "./flowModel";
export { RolloutWarper, type FrameMotion, type Interpolation, type RolloutStatus, type RolloutWarperOptions } from "./RolloutWarper";
export { TextureAnalyzer, type PixelBox, type RegionStats, type TextureOptions } from "./TextureAnalyzer";
export { VisionPipeline, type FrameInput, type RolloutTensors, type VisionPipelineOptions } from "./VisionPipeline";
export { ImuDifferencer, IMU_CHANNELS, type ImuCounters, type ImuDifferencerOptions, type ImuLike, type ImuPushResult } from "./ImuDifferencer";
export {
  DEFAULT_NORMALIZATION,
  SENSOR_VECTOR_LENGTH,
  checkNormalizationRanges,
  clipUnit,
  normalizationRanges,
  normalizeAltitude,
  normalizeRange,
  normalizeSensors,
  normalizeSymmetric,
  normalizeVelocity,
  type NormalizationRanges,
} from "./normalize";
