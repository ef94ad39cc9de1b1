/**
 * File adapter for the training pipeline (TrainIO's save/load/state): models in the tfjs format
 * of src/harness/modelfile (F1's codec, validation on load), written synchronously with an atomic
 * rename so a checkpoint taken inside a training loop is never half-written, and training.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpatialHarness } from "../spatial/SpatialHarness";
import { configOf, encodeModel, inputSpecs, loadModel, modelFileName, modelKindOf, normalisationInfo, weightsFileName, MODEL_FORMAT_VERSION, type AnyModel } from "../modelfile";
import type { ModelSlot, TrainingState } from "./trainPipeline";

function writeAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

function slotDir(root: string, dir: string, slot: ModelSlot): string {
  return path.join(root, dir, path.dirname(slot));
}

export type ModelStore = {
  save: (dir: string, slot: ModelSlot, model: AnyModel, note: string) => void;
  load: (dir: string, slot: ModelSlot) => Promise<Exclude<AnyModel, SpatialHarness> | undefined>;
  readState: () => TrainingState | undefined;
  writeState: (state: TrainingState) => void;
};

export function modelStore(root: string, training: { scenario: string; seed: number }): ModelStore {
  const stateFile = path.join(root, "training.json");
  return {
    save: (dir, slot, model, note) => {
      const kind = modelKindOf(model);
      const enc = encodeModel(model.params.snapshot(), {
        formatVersion: MODEL_FORMAT_VERSION,
        kind,
        config: configOf(model),
        inputs: inputSpecs(kind),
        normalisation: normalisationInfo(),
        training: { scenario: training.scenario, seed: training.seed, notes: note },
      });
      const d = slotDir(root, dir, slot);
      fs.mkdirSync(d, { recursive: true });
      writeAtomicSync(path.join(d, weightsFileName(kind)), enc.weightsBin);
      writeAtomicSync(path.join(d, modelFileName(kind)), enc.modelJson);
    },
    load: async (dir, slot) => {
      const d = slotDir(root, dir, slot);
      const kind = path.basename(slot) as "student" | "teacher" | "harness";
      if (!fs.existsSync(path.join(d, modelFileName(kind)))) return undefined;
      const model = (await loadModel(d, kind)).model;
      if (model instanceof SpatialHarness) throw new Error(`${d}: a spatial harness is not a model of the policy-head pipeline`);
      return model;
    },
    readState: () => {
      if (!fs.existsSync(stateFile)) return undefined;
      const parsed: unknown = JSON.parse(fs.readFileSync(stateFile, "utf8"));
      if (typeof parsed !== "object" || parsed === null || (parsed as { version?: unknown }).version !== 1) {
        throw new Error(`${stateFile}: not a training state file (expected "version": 1)`);
      }
      return parsed as TrainingState;
    },
    writeState: (state) => {
      fs.mkdirSync(root, { recursive: true });
      writeAtomicSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    },
  };
}
