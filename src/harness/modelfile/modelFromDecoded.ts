/**
 * Builds a model from a decoded file: validates the manifest's config (bounded integers, so a
 * hostile file cannot make us allocate huge variables), constructs the model, then loads the
 * weights by name with exact shape checks (ParamStore.load). Pure: no file access.
 */
import { withParameterBudget } from "../layers/ParamStore";
import { HarnessNet } from "../models/HarnessNet";
import { Student, type StudentConfig } from "../models/Student";
import { Teacher, type TeacherConfig } from "../models/Teacher";
import { NUM_SENSITIVITY_DIMS, SpatialHarness } from "../spatial/SpatialHarness";
import { ModelFileError, show } from "./ModelFileError";
import type { ModelKind, ModelManifest } from "./ModelManifest";
import type { DecodedModel } from "./modelFileCodec";

const MAX_CHANNELS = 1024;
const MAX_HIDDEN = 8192;

export type AnyModel = Student | Teacher | HarnessNet | SpatialHarness;

export function modelKindOf(model: AnyModel): ModelKind {
  if (model instanceof Student) return "student";
  if (model instanceof Teacher) return "teacher";
  if (model instanceof SpatialHarness) return "spatial_harness";
  return "harness";
}

function intList(file: string, key: string, v: unknown, minLen: number, maxLen: number, max: number): number[] {
  if (!Array.isArray(v) || v.length < minLen || v.length > maxLen || !v.every((x) => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max)) {
    throw new ModelFileError(file, `config.${key}=${show(v)}, expected ${minLen}-${maxLen} integers in [1, ${max}]`);
  }
  return v as number[];
}

function seedOf(file: string, v: unknown): number {
  if (!Number.isInteger(v)) throw new ModelFileError(file, `config.seed=${show(v)}, expected an integer`);
  return v as number;
}

function build(file: string, manifest: ModelManifest): AnyModel {
  const c = manifest.config;
  switch (manifest.kind) {
    case "student": {
      const ch = intList(file, "channels", c.channels, 4, 4, MAX_CHANNELS);
      const config: StudentConfig = {
        channels: [ch[0] ?? 1, ch[1] ?? 1, ch[2] ?? 1, ch[3] ?? 1],
        policyHidden: intList(file, "policyHidden", c.policyHidden, 0, 4, MAX_HIDDEN),
        seed: seedOf(file, c.seed),
      };
      if (c.policyReadsDetections !== undefined) {
        if (typeof c.policyReadsDetections !== "boolean") throw new ModelFileError(file, `config.policyReadsDetections=${show(c.policyReadsDetections)}, expected true or false`);
        config.policyReadsDetections = c.policyReadsDetections;
      }
      return new Student(config);
    }
    case "teacher": {
      const headHidden = intList(file, "headHidden", [c.headHidden], 1, 1, MAX_CHANNELS)[0] ?? 1;
      const config: TeacherConfig = { channels: intList(file, "channels", c.channels, 3, 8, MAX_CHANNELS), headHidden, seed: seedOf(file, c.seed) };
      if (c.context !== undefined) config.context = intList(file, "context", c.context, 0, 4, 16);
      if (c.threatLogit !== undefined) {
        if (typeof c.threatLogit !== "boolean") throw new ModelFileError(file, `config.threatLogit=${show(c.threatLogit)}, expected true or false`);
        config.threatLogit = c.threatLogit;
      }
      return new Teacher(config);
    }
    case "harness":
      return new HarnessNet({ seed: seedOf(file, c.seed) });
    case "spatial_harness": {
      const hidden1 = intList(file, "hidden1", [c.hidden1], 1, 1, 256)[0] ?? 1;
      const hidden2 = intList(file, "hidden2", [c.hidden2], 1, 1, 256)[0] ?? 1;
      const sScale = c.sScale;
      if (!Array.isArray(sScale) || sScale.length !== NUM_SENSITIVITY_DIMS || !sScale.every((x) => typeof x === "number" && Number.isFinite(x) && x > 0 && x < 1e6)) {
        throw new ModelFileError(file, `config.sScale=${show(sScale)}, expected ${NUM_SENSITIVITY_DIMS} numbers in (0, 1e6)`);
      }
      return new SpatialHarness({ hidden1, hidden2, sScale: sScale as number[], seed: seedOf(file, c.seed) });
    }
  }
  throw new ModelFileError(file, `unknown model kind ${show(manifest.kind)}`);
}

/** The model described by `decoded`, with its weights loaded. */
export function modelFromDecoded(file: string, decoded: DecodedModel): AnyModel {
  let held = 0;
  for (const w of decoded.weights) held += w.values.length;
  let model: AnyModel;
  try {
    model = withParameterBudget(held, () => build(file, decoded.manifest));
  } catch (err) {
    if (err instanceof ModelFileError) throw err;
    throw new ModelFileError(file, `config ${show(decoded.manifest.config)} describes a model larger than the ${held} weights in the file (${err instanceof Error ? err.message : "error"})`);
  }
  try {
    model.params.load(decoded.weights);
  } catch (err) {
    model.dispose();
    throw new ModelFileError(file, err instanceof Error ? err.message : "weights do not match the model");
  }
  return model;
}

/** The config object stored in the manifest for `model`. */
export function configOf(model: AnyModel): Record<string, unknown> {
  return JSON.parse(JSON.stringify(model.config)) as Record<string, unknown>;
}
