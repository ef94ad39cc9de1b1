/**
 * File adapter for the training pipeline (TrainIO's save/load/state): models through
 * src/harness/modelfile's one writer (saveModelSync: atomic rename, so a checkpoint taken inside a
 * training loop is never half-written; validation on load), and training.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SpatialHarness } from "../../spatial/SpatialHarness";
import { loadModel, modelFileName, saveModelSync, writeFileAtomicSync, type AnyModel } from "../../modelfile";
import type { TrainingState } from "../trainConfig";
import type { ModelSlot } from "../trainPipeline";

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
      saveModelSync(slotDir(root, dir, slot), model, { scenario: training.scenario, seed: training.seed, notes: note });
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
      writeFileAtomicSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    },
  };
}
