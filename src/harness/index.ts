/**
 * Public face of the harness: backend, layers, models (teacher, student, harness), the
 * Correction Generator, Policy Diagnostics targets and losses, and model files.
 * See docs/harness.md for the architecture and the formulas with their SPEC/seed citations.
 */
export * from "./actions";
export { initBackend } from "./backend";
export type { BackendInfo, BackendName, InitBackendOptions } from "./backend";

export { ParamStore } from "./layers/ParamStore";
export type { Init, NamedWeight } from "./layers/ParamStore";
export { Rng } from "../util/Rng";
export { conv2dSame } from "./layers/conv2dSame";
export type { Conv2dSameOptions } from "./layers/conv2dSame";
export { dense } from "./layers/dense";
export { avgPoolToGrid, globalAvgPool, maxPool2 } from "./layers/pooling";

export { STATE_DIM, STATE_RANGES, IMU_DIFF_WINDOW, normaliseState } from "./models/stateVector";
export type { ImuSample, SensorSnapshot } from "./models/stateVector";
export {
  IMAGE_CHANNELS,
  HARNESS_IMAGE_SIZE,
  HARNESS_IMAGE_CHANNELS,
  ROLLOUT_STEPS,
  SOBEL_FULL_SCALE,
  buildImageInput,
  buildHarnessImage,
  toGrey,
} from "./models/imageInput";
export { Student, DEFAULT_STUDENT_CONFIG, CELL_SIZE_PX, POLICY_POOL_GRID } from "./models/Student";
export type { StudentConfig, StudentInputs, StudentOutputs, StudentPerception } from "./models/Student";
export { Teacher, DEFAULT_TEACHER_CONFIG } from "./models/Teacher";
export type { TeacherConfig } from "./models/Teacher";
export { HarnessNet, SENSITIVITY_ROWS, EMBED_DIM, ENCODER_CHANNELS } from "./models/HarnessNet";
export type { HarnessConfig, HarnessInputs, HarnessOutputs, HarnessScope } from "./models/HarnessNet";
export { transferHarness } from "./models/transferHarness";
export type { TransferOptions } from "./models/transferHarness";
export { harnessParameterReport, formatParameterReport, SEED_RATIO_RANGE } from "./models/parameterReport";
export type { ParameterCounts } from "./models/parameterReport";

export * from "./correction/constants";
export { correctionDelta, softmaxCorrected, clipNorm, newCorrectionDelta } from "./correction/correctionDelta";
export type { CorrectionDelta, DeltaStats } from "./correction/correctionDelta";
export { correctionDeltaTensor, correctDetectionLogits, detectionGate } from "./correction/correctionTensors";
export type { CorrectionDeltaTensors } from "./correction/correctionTensors";
export { LambdaSchedule } from "./correction/LambdaSchedule";
export type { LambdaScheduleOptions } from "./correction/LambdaSchedule";
export { cellGradientVariance, textureGain } from "./correction/textureGain";
export type { TextureGainInputs } from "./correction/textureGain";
export { newPaddedRollout, padRollout, stateRates } from "./correction/rollout";
export type { PaddedRollout, RolloutStep } from "./correction/rollout";

export * from "./diagnostics/constants";
export { finiteDifferenceSensitivity, studentSensitivityPolicy, studentSgt } from "./diagnostics/finiteDifferenceSgt";
export type { BatchedPolicy } from "./diagnostics/finiteDifferenceSgt";
export { harnessLoss, harnessLossValue } from "./diagnostics/harnessLoss";
export type { HarnessLossOptions, HarnessLossTerms } from "./diagnostics/harnessLoss";
export { correctionDeltaInt8, quantizeSymmetricInt8, newInt8DeltaWorkspace } from "./correction/int8Delta";
export type { Int8DeltaWorkspace, QuantizeOptions } from "./correction/int8Delta";
export * from "./modelfile";
