/**
 * Where the perception and harness nodes get their networks. The default reads the trained
 * model files (src/harness/modelfile: <model_dir>/student.model.json + .weights.bin, likewise
 * harness) when the node is configured, on the backend initBackend() picks (wasm here; once per
 * process, before any weight is created); the embedded launch of the main job can pass models it
 * holds in memory instead (`createNodeRegistry`), and tests inject deterministic fakes.
 */
import { initBackend } from "../../src/harness/backend";
import { loadHarness, loadStudent } from "../../src/harness/modelfile";
import { loadOpenCv } from "../../src/vision/opencv";
import { VisionPipeline } from "../../src/vision/VisionPipeline";
import { HarnessCorrector } from "./HarnessCorrector";
import type { Corrector, Detector } from "./models";
import { StudentDetector } from "./StudentDetector";

export type ModelProvider = {
  detector(params: { width: number; height: number; modelDir: string }): Detector | Promise<Detector>;
  corrector(params: { modelDir: string; imaginedRollout: boolean; width: number; height: number }): Corrector | Promise<Corrector>;
};

export const FILE_MODEL_PROVIDER: ModelProvider = {
  detector: async ({ width, height, modelDir }) => {
    await initBackend();
    return new StudentDetector((await loadStudent(modelDir)).model, width, height);
  },
  corrector: async ({ modelDir, imaginedRollout, width, height }) => {
    await initBackend();
    const harness = (await loadHarness(modelDir)).model;
    if (!imaginedRollout) return new HarnessCorrector(harness);
    if (!(width > 0 && height > 0)) throw new RangeError(`imagined_rollout needs a fixed image size, got expected_width=${width}, expected_height=${height}`);
    return new HarnessCorrector(harness, { vision: new VisionPipeline(await loadOpenCv(), { width, height }) });
  },
};
