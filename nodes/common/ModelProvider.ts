/**
 * Where the perception and harness nodes get their networks. The default reads the trained
 * model files (src/harness/modelfile: <model_dir>/student.model.json + .weights.bin, likewise
 * harness) when the node is configured; the embedded launch of the main job can pass models it
 * holds in memory instead (`createNodeRegistry`), and tests inject deterministic fakes.
 */
import { loadHarness, loadStudent } from "../../src/harness/modelfile";
import { HarnessCorrector } from "./HarnessCorrector";
import type { Corrector, Detector } from "./models";
import { StudentDetector } from "./StudentDetector";

export type ModelProvider = {
  detector(params: { width: number; height: number; modelDir: string }): Detector | Promise<Detector>;
  corrector(params: { modelDir: string }): Corrector | Promise<Corrector>;
};

export const FILE_MODEL_PROVIDER: ModelProvider = {
  detector: async ({ width, height, modelDir }) => new StudentDetector((await loadStudent(modelDir)).model, width, height),
  corrector: async ({ modelDir }) => new HarnessCorrector((await loadHarness(modelDir)).model),
};
