/**
 * The file-system adapter for model files: `<dir>/<kind>.model.json` + `<dir>/<kind>.weights.bin`
 * (student, teacher, harness). Sizes are checked with stat before a file is read, so an
 * oversized or truncated file is rejected before allocation. Writes go to a temporary name and
 * are renamed into place (a crash never leaves a half-written model).
 */
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { SpatialHarness } from "../spatial/SpatialHarness";
import { HarnessNet } from "../models/HarnessNet";
import { Student } from "../models/Student";
import { Teacher } from "../models/Teacher";
import { checkFiniteOutputs } from "./checkFiniteOutputs";
import { ModelFileError } from "./ModelFileError";
import { MODEL_FORMAT_VERSION, inputSpecs, normalisationInfo, type ModelKind, type ModelManifest, type TrainingInfo } from "./ModelManifest";
import { DEFAULT_MAX_JSON_BYTES, checkModelJson, decodeModel, encodeModel, modelFileName, weightsFileName, type DecodeLimits, type EncodedModel } from "./modelFileCodec";
import { writeFileAtomic, writeFileAtomicSync } from "./atomicWrite";
import { configOf, modelFromDecoded, modelKindOf, type AnyModel } from "./modelFromDecoded";

export type ModelPaths = { modelJson: string; weightsBin: string };

export function modelPaths(dir: string, kind: ModelKind): ModelPaths {
  return { modelJson: path.join(dir, modelFileName(kind)), weightsBin: path.join(dir, weightsFileName(kind)) };
}

export { writeFileAtomic, writeFileAtomicSync };

function encodeForFile(model: AnyModel, training: TrainingInfo): { kind: ModelKind; enc: EncodedModel } {
  const kind = modelKindOf(model);
  const enc = encodeModel(model.params.snapshot(), {
    formatVersion: MODEL_FORMAT_VERSION,
    kind,
    config: configOf(model),
    inputs: inputSpecs(kind),
    normalisation: normalisationInfo(),
    training,
  });
  return { kind, enc };
}

/** Writes `model` to `dir` (created if missing): weights first, then the manifest; returns the paths and the manifest. */
export async function saveModel(dir: string, model: AnyModel, training: TrainingInfo): Promise<ModelPaths & { manifest: ModelManifest }> {
  const { kind, enc } = encodeForFile(model, training);
  await fs.mkdir(dir, { recursive: true });
  const p = modelPaths(dir, kind);
  await writeFileAtomic(p.weightsBin, enc.weightsBin);
  await writeFileAtomic(p.modelJson, enc.modelJson);
  return { ...p, manifest: checkModelJson(p.modelJson, enc.modelJson).manifest };
}

/** saveModel, synchronously (the same bytes). */
export function saveModelSync(dir: string, model: AnyModel, training: TrainingInfo): ModelPaths & { manifest: ModelManifest } {
  const { kind, enc } = encodeForFile(model, training);
  fsSync.mkdirSync(dir, { recursive: true });
  const p = modelPaths(dir, kind);
  writeFileAtomicSync(p.weightsBin, enc.weightsBin);
  writeFileAtomicSync(p.modelJson, enc.modelJson);
  return { ...p, manifest: checkModelJson(p.modelJson, enc.modelJson).manifest };
}

async function sizeOf(file: string): Promise<number> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) throw new ModelFileError(file, "is not a regular file");
    return st.size;
  } catch (err) {
    if (err instanceof ModelFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ModelFileError(file, code === "ENOENT" ? "file is missing" : `cannot be read (${code ?? String(err)})`);
  }
}

/** Reads and validates the `kind` model in `dir` and builds it with its weights. */
export async function loadModel(dir: string, kind: ModelKind, limits: DecodeLimits = {}): Promise<{ model: AnyModel; manifest: ModelManifest }> {
  const p = modelPaths(dir, kind);
  const jsonSize = await sizeOf(p.modelJson);
  const maxJson = limits.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
  if (jsonSize > maxJson) throw new ModelFileError(p.modelJson, `is ${jsonSize} bytes, over the ${maxJson}-byte limit`);
  const json = await fs.readFile(p.modelJson, "utf8");
  const { weightBytes } = checkModelJson(p.modelJson, json, limits, kind);
  const binSize = await sizeOf(p.weightsBin);
  if (binSize !== weightBytes) {
    throw new ModelFileError(p.weightsBin, `is ${binSize} bytes, expected ${weightBytes} (${weightBytes / 4} float32 weights)${binSize < weightBytes ? ": truncated" : ""}`);
  }
  const bin = await fs.readFile(p.weightsBin);
  const decoded = decodeModel({ jsonFile: p.modelJson, binFile: p.weightsBin }, json, new Uint8Array(bin.buffer, bin.byteOffset, bin.byteLength), { ...limits, expectedKind: kind });
  const model = modelFromDecoded(p.modelJson, decoded);
  try {
    checkFiniteOutputs(p.weightsBin, model);
  } catch (err) {
    model.dispose();
    throw err;
  }
  return { model, manifest: decoded.manifest };
}

export async function loadStudent(dir: string, limits?: DecodeLimits): Promise<{ model: Student; manifest: ModelManifest }> {
  const { model, manifest } = await loadModel(dir, "student", limits);
  if (!(model instanceof Student)) throw new ModelFileError(modelPaths(dir, "student").modelJson, "is not a student model");
  return { model, manifest };
}

export async function loadTeacher(dir: string, limits?: DecodeLimits): Promise<{ model: Teacher; manifest: ModelManifest }> {
  const { model, manifest } = await loadModel(dir, "teacher", limits);
  if (!(model instanceof Teacher)) throw new ModelFileError(modelPaths(dir, "teacher").modelJson, "is not a teacher model");
  return { model, manifest };
}

export async function loadHarness(dir: string, limits?: DecodeLimits): Promise<{ model: HarnessNet; manifest: ModelManifest }> {
  const { model, manifest } = await loadModel(dir, "harness", limits);
  if (!(model instanceof HarnessNet)) throw new ModelFileError(modelPaths(dir, "harness").modelJson, "is not a harness model");
  return { model, manifest };
}

export async function loadSpatialHarness(dir: string, limits?: DecodeLimits): Promise<{ model: SpatialHarness; manifest: ModelManifest }> {
  const { model, manifest } = await loadModel(dir, "spatial_harness", limits);
  if (!(model instanceof SpatialHarness)) throw new ModelFileError(modelPaths(dir, "spatial_harness").modelJson, "is not a spatial harness model");
  return { model, manifest };
}
