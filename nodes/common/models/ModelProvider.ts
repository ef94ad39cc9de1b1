/**
 * Where the perception and harness nodes get their networks. The default reads the trained
 * model files (src/harness/modelfile: <model_dir>/student.model.json + .weights.bin, likewise
 * harness) when the node is configured, on the backend initBackend() picks (wasm here; once per
 * process, before any weight is created); the embedded launch of the main job can pass models it
 * holds in memory instead (`createNodeRegistry`), and tests inject deterministic fakes.
 */
import { initBackend } from "../../../src/harness/backend";
import { WireNetThread } from "../../../src/harness/data/node/wireNetThread";
import { teacherWireNet } from "../../../src/harness/eval/WireNet";
import { loadHarness, loadStudent, loadTeacher } from "../../../src/harness/modelfile";
import { loadOpenCv } from "../../../src/vision/opencv";
import { VisionPipeline } from "../../../src/vision/VisionPipeline";
import { HarnessCorrector } from "./HarnessCorrector";
import type { Corrector, Detector } from "./models";
import { StudentDetector } from "./StudentDetector";
import { ThreatDetector } from "./ThreatDetector";
import { ThreadedWireMapper, WireMapper, type WireMapGate, type WireMapSource } from "./WireMapper";

/**
 * Which network the perception node runs (its parameter `detector`): "pipeline" (default) the
 * detector with class and near-threat cells that the controller's planner flies on
 * (models/pipeline/student: <model_dir>/teacher.model.json, the file name of the architecture);
 * "policy" the older student with a 7-action policy head (models/: student.model.json).
 */
export type DetectorKind = "pipeline" | "policy";
export const DETECTOR_KINDS: readonly DetectorKind[] = ["pipeline", "policy"];

export type DetectorParams = { kind: DetectorKind; width: number; height: number; modelDir: string };

/** The perception node's optional wire map (parameters wire_map_model_dir, wire_map_gate, wire_map_thread). */
export type WireMapperParams = { modelDir: string; gate: WireMapGate; /** On a worker thread (ThreadedWireMapper) or in the node's. */ thread: boolean };

export type ModelProvider = {
  detector(params: DetectorParams): Detector | Promise<Detector>;
  corrector(params: CorrectorParams): Corrector | Promise<Corrector>;
  /** Absent: the registry reads the photo model from its files (FILE_MODEL_PROVIDER's). */
  wireMapper?(params: WireMapperParams): WireMapSource | Promise<WireMapSource>;
};

/** What the harness node passes when it creates its Corrector (its parameters). */
export type CorrectorParams = {
  modelDir: string;
  imaginedRollout: boolean;
  width: number;
  height: number;
  /** Downward pitch of the camera from the body x axis, rad (parameter camera_pitch_rad). */
  cameraPitchRad: number;
};

export const FILE_MODEL_PROVIDER: ModelProvider = {
  detector: async ({ kind, width, height, modelDir }) => {
    await initBackend();
    if (kind === "pipeline") return new ThreatDetector((await loadTeacher(modelDir)).model, width, height);
    return new StudentDetector((await loadStudent(modelDir)).model, width, height);
  },
  // A photo model is never trained here: frozen (its convolution set-up kept per frame shape).
  wireMapper: async ({ modelDir, gate, thread }) => {
    if (thread) return new ThreadedWireMapper(await WireNetThread.start(modelDir, `wire map ${modelDir}`), gate);
    await initBackend();
    return new WireMapper(teacherWireNet((await loadTeacher(modelDir)).model, modelDir, { frozen: true }), gate);
  },
  corrector: async ({ modelDir, imaginedRollout, width, height, cameraPitchRad }) => {
    await initBackend();
    const harness = (await loadHarness(modelDir)).model;
    if (!imaginedRollout) return new HarnessCorrector(harness);
    if (!(width > 0 && height > 0)) throw new RangeError(`imagined_rollout needs a fixed image size, got expected_width=${width}, expected_height=${height}`);
    const cv = await loadOpenCv();
    // Built without intrinsics first (uncompensated), again with them at the first CameraInfo.
    return new HarnessCorrector(harness, {
      cameraPitchRad,
      createVision: (intrinsics) => new VisionPipeline(cv, { width, height, rollout: intrinsics === undefined ? {} : { intrinsics } }),
    });
  },
};
