/**
 * The manifest stored in each model file (issue 5 item 6): format version, model kind, input
 * shapes, normalisation ranges, training scenario and seed, parameter count and the sha256 of
 * the weights. It lives in model.json's `userDefinedMetadata.droneHarness` (the tfjs model.json
 * field for user data, tfjs-core src/io/types.ts ModelJSON), so the file stays a valid tfjs
 * weights artifact.
 */
import { HARNESS_IMAGE_CHANNELS, HARNESS_IMAGE_SIZE, IMAGE_CHANNELS, ROLLOUT_STEPS, SOBEL_FULL_SCALE } from "../models/imageInput";
import { STATE_DIM, STATE_RANGES } from "../models/stateVector";
import { HARNESS_CELL_CHANNELS } from "../spatial/SpatialHarness";

export const MODEL_FORMAT_VERSION = 1;

export type ModelKind = "student" | "teacher" | "harness" | "spatial_harness";
export const MODEL_KINDS: readonly ModelKind[] = ["student", "teacher", "harness", "spatial_harness"];

export type InputSpec = {
  name: string;
  /** -1 for a free dimension (batch; image H and W for the fully convolutional detectors). */
  shape: number[];
  /** Value range, or null when unbounded. */
  range: [number, number] | null;
};

export type TrainingInfo = {
  /** Scenario file or family the weights were trained on. */
  scenario: string;
  seed: number;
  /** Free-form: steps, phase, command line. */
  notes?: string;
};

export type ModelManifest = {
  formatVersion: number;
  kind: ModelKind;
  /** The model's constructor config (StudentConfig, TeacherConfig, HarnessConfig) as JSON. */
  config: Record<string, unknown>;
  inputs: InputSpec[];
  normalisation: {
    image: string;
    sobelFullScale: number;
    state: Record<string, readonly [number, number]>;
  };
  training: TrainingInfo;
  parameterCount: number;
  /** Lower-case hex sha256 of the weights .bin file. */
  weightsSha256: string;
};

/** The inputs each kind of model reads (documentation in the file, checked on load). */
export function inputSpecs(kind: ModelKind): InputSpec[] {
  const image: InputSpec = { name: "image", shape: [-1, -1, -1, IMAGE_CHANNELS], range: [-1, 1] };
  const state: InputSpec = { name: "state", shape: [-1, STATE_DIM], range: [-1, 1] };
  switch (kind) {
    case "teacher":
      return [image];
    case "student":
      return [image, state, { name: "textureGain", shape: [-1], range: [1, 1.5] }];
    case "harness":
      return [
        { name: "image", shape: [-1, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_CHANNELS], range: [-1, 1] },
        state,
        { name: "rolloutRewards", shape: [-1, ROLLOUT_STEPS], range: null },
        { name: "stateRates", shape: [-1, STATE_DIM], range: null },
      ];
    case "spatial_harness":
      // Per detector cell: class log-probabilities, near-threat logit, texture of the current and
      // of the imagined frame, image row (src/harness/spatial/spatialFeatures.ts).
      return [{ name: "cellFeatures", shape: [-1, -1, -1, HARNESS_CELL_CHANNELS], range: [-2, 2] }];
  }
  return [];
}

export function normalisationInfo(): ModelManifest["normalisation"] {
  return {
    image: "RGB in [0,1] -> 2x-1; Sobel magnitude of mean grey / sobelFullScale, clipped to 1, -> 2x-1",
    sobelFullScale: SOBEL_FULL_SCALE,
    state: { ...STATE_RANGES },
  };
}
