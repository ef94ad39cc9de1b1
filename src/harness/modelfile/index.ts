export { ModelFileError } from "./ModelFileError";
export { MODEL_FORMAT_VERSION, MODEL_KINDS, inputSpecs, normalisationInfo } from "./ModelManifest";
export type { InputSpec, ModelKind, ModelManifest, TrainingInfo } from "./ModelManifest";
export { checkModelJson, decodeModel, encodeModel, modelFileName, sha256Hex, weightsFileName, DEFAULT_MAX_JSON_BYTES, DEFAULT_MAX_WEIGHT_BYTES } from "./modelFileCodec";
export type { CheckedModelJson, DecodeLimits, DecodedModel, EncodedModel } from "./modelFileCodec";
export { configOf, modelFromDecoded, modelKindOf } from "./modelFromDecoded";
export type { AnyModel } from "./modelFromDecoded";
export { loadHarness, loadModel, loadStudent, loadTeacher, modelPaths, saveModel, saveModelSync, writeFileAtomic, writeFileAtomicSync } from "./modelFiles";
export type { ModelPaths } from "./modelFiles";
