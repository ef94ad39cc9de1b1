/**
 * Encodes and decodes model files on buffers (the pure core; modelFiles.ts is the fs adapter).
 * Format: a tfjs weights artifact, i.e. model.json with `weightsManifest` [{paths, weights:
 * [{name, shape, dtype}]}] (tfjs-core src/io/types.ts WeightsManifestConfig) and one
 * little-endian float32 .bin holding the weights in manifest order; `modelTopology` is null
 * (our models are code, not graphs). The drone-harness manifest is in
 * `userDefinedMetadata.droneHarness`.
 *
 * Decoding never executes anything from the file: JSON.parse only, then every field is checked
 * (structure, names, shapes, dtype, byte lengths capped before allocating, NaN/Inf weights, the
 * sha256 of the .bin). Each failure throws a ModelFileError naming the file and the problem.
 */
import { createHash } from "node:crypto";
import type { NamedWeight } from "../layers/ParamStore";
import { ModelFileError, show } from "./ModelFileError";
import { MODEL_FORMAT_VERSION, MODEL_KINDS, type ModelKind, type ModelManifest } from "./ModelManifest";

export type EncodedModel = { modelJson: string; weightsBin: Uint8Array };

export type DecodedModel = { manifest: ModelManifest; weights: NamedWeight[] };

export type DecodeLimits = {
  /** Largest accepted .bin, bytes. Default 64 MiB. */
  maxWeightBytes?: number;
  /** Largest accepted model.json, bytes. Default 4 MiB. */
  maxJsonBytes?: number;
};

export const DEFAULT_MAX_WEIGHT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_JSON_BYTES = 4 * 1024 * 1024;
const MAX_RANK = 6;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The .bin file name that goes with a model.json name (student.model.json -> student.weights.bin). */
export function weightsFileName(kind: ModelKind): string {
  return `${kind}.weights.bin`;
}

export function modelFileName(kind: ModelKind): string {
  return `${kind}.model.json`;
}

/** Serialises weights and manifest (without its hash and count, which are computed here). */
export function encodeModel(weights: readonly NamedWeight[], manifest: Omit<ModelManifest, "weightsSha256" | "parameterCount">): EncodedModel {
  let count = 0;
  for (const w of weights) {
    const size = w.shape.reduce((a, b) => a * b, 1);
    if (size !== w.values.length) {
      throw new RangeError(`weight "${w.name}" has ${w.values.length} values, shape [${w.shape.join(",")}] needs ${size}`);
    }
    count += size;
  }
  const bin = new Uint8Array(count * 4);
  const view = new DataView(bin.buffer);
  let off = 0;
  for (const w of weights) {
    for (let i = 0; i < w.values.length; i++) {
      view.setFloat32(off, w.values[i]!, true);
      off += 4;
    }
  }
  const full: ModelManifest = { ...manifest, parameterCount: count, weightsSha256: sha256Hex(bin) };
  const json = {
    format: "drone-harness-weights",
    generatedBy: "drone-harness",
    convertedBy: null,
    modelTopology: null,
    weightsManifest: [{ paths: [weightsFileName(manifest.kind)], weights: weights.map((w) => ({ name: w.name, shape: w.shape, dtype: "float32" })) }],
    userDefinedMetadata: { droneHarness: full },
  };
  return { modelJson: `${JSON.stringify(json, null, 1)}\n`, weightsBin: bin };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isShape(v: unknown): v is number[] {
  return Array.isArray(v) && v.length <= MAX_RANK && v.every((d) => Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 1 << 24);
}

type WeightSpec = { name: string; shape: number[] };

/** Checks model.json's structure; returns the weight specs and the manifest. */
function parseModelJson(file: string, text: string, expectedKind: ModelKind | undefined): { specs: WeightSpec[]; manifest: ModelManifest } {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw new ModelFileError(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!isRecord(root)) throw new ModelFileError(file, "top level is not a JSON object");
  if (root.modelTopology !== null && root.modelTopology !== undefined) {
    throw new ModelFileError(file, "modelTopology must be null: drone-harness model files hold weights only");
  }
  const meta = isRecord(root.userDefinedMetadata) ? root.userDefinedMetadata.droneHarness : undefined;
  if (!isRecord(meta)) throw new ModelFileError(file, "userDefinedMetadata.droneHarness manifest is missing");
  if (meta.formatVersion !== MODEL_FORMAT_VERSION) {
    throw new ModelFileError(file, `manifest formatVersion=${show(meta.formatVersion)}, expected ${MODEL_FORMAT_VERSION}`);
  }
  if (typeof meta.kind !== "string" || !MODEL_KINDS.includes(meta.kind as ModelKind)) {
    throw new ModelFileError(file, `manifest kind=${show(meta.kind)}, expected one of ${MODEL_KINDS.join(", ")}`);
  }
  if (expectedKind !== undefined && meta.kind !== expectedKind) {
    throw new ModelFileError(file, `manifest kind=${meta.kind}, expected ${expectedKind}`);
  }
  if (typeof meta.weightsSha256 !== "string" || !/^[0-9a-f]{64}$/.test(meta.weightsSha256)) {
    throw new ModelFileError(file, "manifest weightsSha256 is not a 64-digit lower-case hex string");
  }
  if (!Number.isInteger(meta.parameterCount) || (meta.parameterCount as number) < 0) {
    throw new ModelFileError(file, `manifest parameterCount=${show(meta.parameterCount)}, expected a non-negative integer`);
  }
  if (!isRecord(meta.config)) throw new ModelFileError(file, "manifest config is missing");
  if (!isRecord(meta.training) || typeof meta.training.scenario !== "string" || !Number.isInteger(meta.training.seed)) {
    throw new ModelFileError(file, "manifest training must have a string scenario and an integer seed");
  }
  if (!Array.isArray(meta.inputs) || !isRecord(meta.normalisation)) {
    throw new ModelFileError(file, "manifest inputs/normalisation are missing");
  }
  const groups = root.weightsManifest;
  if (!Array.isArray(groups) || groups.length !== 1 || !isRecord(groups[0])) {
    throw new ModelFileError(file, "weightsManifest must be an array with exactly one group");
  }
  const group = groups[0];
  const binName = weightsFileName(meta.kind as ModelKind);
  const paths = group.paths;
  if (!Array.isArray(paths) || paths.length !== 1 || paths[0] !== binName) {
    throw new ModelFileError(file, `weightsManifest paths must be ["${binName}"] (a plain file name beside model.json)`);
  }
  if (!Array.isArray(group.weights)) throw new ModelFileError(file, "weightsManifest[0].weights is not an array");
  const specs: WeightSpec[] = [];
  const names = new Set<string>();
  for (const [i, w] of (group.weights as unknown[]).entries()) {
    if (!isRecord(w) || typeof w.name !== "string" || w.name.length === 0) throw new ModelFileError(file, `weight #${i} has no name`);
    if (names.has(w.name)) throw new ModelFileError(file, `weight "${w.name}" appears twice`);
    names.add(w.name);
    if (w.dtype !== "float32") throw new ModelFileError(file, `weight "${w.name}" dtype=${show(w.dtype)}, expected float32`);
    if (!isShape(w.shape)) throw new ModelFileError(file, `weight "${w.name}" shape ${show(w.shape)} is not a list of at most ${MAX_RANK} non-negative integers`);
    specs.push({ name: w.name, shape: w.shape });
  }
  return { specs, manifest: meta as unknown as ModelManifest };
}

/** Parsed model.json with its expected .bin size, checked against the cap before anything is allocated. */
export type CheckedModelJson = { specs: WeightSpec[]; manifest: ModelManifest; weightBytes: number };

export function checkModelJson(file: string, modelJson: string, limits: DecodeLimits = {}, expectedKind?: ModelKind): CheckedModelJson {
  const maxJson = limits.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  if (modelJson.length > maxJson) throw new ModelFileError(file, `model.json is ${modelJson.length} bytes, over the ${maxJson}-byte limit`);
  const parsed = parseModelJson(file, modelJson, expectedKind);
  let elements = 0;
  for (const s of parsed.specs) elements += s.shape.reduce((a, b) => a * b, 1);
  const weightBytes = elements * 4;
  const max = limits.maxWeightBytes ?? DEFAULT_MAX_WEIGHT_BYTES;
  if (weightBytes > max) throw new ModelFileError(file, `weights need ${weightBytes} bytes, over the ${max}-byte limit`);
  if (elements !== parsed.manifest.parameterCount) {
    throw new ModelFileError(file, `manifest parameterCount=${parsed.manifest.parameterCount}, but the weight shapes hold ${elements} values`);
  }
  return { ...parsed, weightBytes };
}

/**
 * Decodes and validates a model. `jsonFile` and `binFile` are the names used in error messages.
 */
export function decodeModel(
  files: { jsonFile: string; binFile: string },
  modelJson: string,
  weightsBin: Uint8Array,
  options: DecodeLimits & { expectedKind?: ModelKind } = {},
): DecodedModel {
  const { specs, manifest, weightBytes: bytes } = checkModelJson(files.jsonFile, modelJson, options, options.expectedKind);
  if (weightsBin.byteLength !== bytes) {
    throw new ModelFileError(files.binFile, `is ${weightsBin.byteLength} bytes, expected ${bytes} (${bytes / 4} float32 weights)${weightsBin.byteLength < bytes ? ": truncated" : ""}`);
  }
  const hash = sha256Hex(weightsBin);
  if (hash !== manifest.weightsSha256) {
    throw new ModelFileError(files.binFile, `sha256 ${hash} does not match the manifest's ${manifest.weightsSha256}`);
  }
  const view = new DataView(weightsBin.buffer, weightsBin.byteOffset, weightsBin.byteLength);
  const weights: NamedWeight[] = [];
  let off = 0;
  for (const s of specs) {
    const n = s.shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const v = view.getFloat32(off, true);
      if (!Number.isFinite(v)) {
        throw new ModelFileError(files.binFile, `weight "${s.name}" element ${i} is ${v} (NaN/Inf weights are rejected)`);
      }
      values[i] = v;
      off += 4;
    }
    weights.push({ name: s.name, shape: s.shape, values });
  }
  return { manifest, weights };
}
