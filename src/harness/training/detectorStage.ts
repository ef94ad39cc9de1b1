/**
 * One detector training stage of the staged pipeline (issue 12 item 5): train a detector
 * (teacher or student size, with the near-threat logit) on a frame cache for a wall-clock budget,
 * evaluate it on a validation cache every `evalEvery` steps (the learning curve of
 * docs/training.md), checkpoint so a later session resumes, and report the final measures.
 * I/O is injected (the CLI passes the file adapters), so this module does no file access.
 */
import type { FrameDataset } from "../data/FrameDataset";
import type { DetectorReport } from "../eval/detectorReport";
import { evaluateDetector } from "../eval/evaluateDetector";

export { evaluateDetector };
import { Teacher, type TeacherConfig } from "../models/Teacher";
import { DISTILLATION_TEMPERATURE } from "./supervisedLosses";
import { trainDetector } from "./trainDetector";
import type { CameraEffectRanges } from "../../vision/cameraEffects";
import type { GroundClutterRanges } from "../../vision/groundClutter";
import type { FoliageClutterRanges } from "../../vision/foliageClutter";

/** The two detector sizes of the pipeline (chosen by measurement: docs/training.md "Detector"). */
export const DETECTOR_SIZES: Record<"teacher" | "student", TeacherConfig> = {
  teacher: { channels: [24, 48, 64, 96], headHidden: 48, seed: 2, context: [2, 4], threatLogit: true },
  student: { channels: [8, 16, 24, 32], headHidden: 16, seed: 1, context: [2], threatLogit: true },
};

export type CurvePoint = { step: number; elapsed_s: number; loss: number; visibleWire: number; approachWire: number; threat: number };

export type DetectorStageOptions = {
  size: "teacher" | "student";
  steps: number;
  batch: number;
  crop: number;
  learningRate: number;
  budget_s: number;
  evalEvery: number;
  /** Validation frames used for the curve points (the final report uses all). */
  curveFrames: number;
  checkpointEvery: number;
  seed: number;
  /** Behaviour cloning: imitate this teacher's outputs instead of the labels. */
  distillFrom?: Teacher;
  /**
   * Start from these weights instead of a fresh detector of `size` (fine-tuning: the on-policy
   * rounds of issue 13 continue the BC student on the aggregated frames). Its config must be the
   * size's architecture.
   */
  init?: Teacher;
  /** Camera-effect augmentation of the crops (trainDetector `augment`). Default none. */
  augment?: CameraEffectRanges;
  /** Ground clutter behind the objects of the crops (trainDetector `clutter`). Default none. */
  clutter?: GroundClutterRanges;
  /** Leaf-scale foliage behind the objects of the crops (trainDetector `foliage`). Default none. */
  foliage?: FoliageClutterRanges;
  /** Distillation temperature. Default 2 (supervisedLosses.DISTILLATION_TEMPERATURE). */
  temperature?: number;
};

export type DetectorStageIO = {
  progress: (line: string) => void;
  /** Saves the detector under a name ("teacher", "checkpoint"). */
  save: (name: string, model: Teacher, meta: Record<string, unknown>) => void;
  /** The checkpoint and its step, if resuming. */
  resume?: { model: Teacher; step: number; curve: CurvePoint[] };
};

function spread(n: number, k: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(n, k); i++) out.push(Math.floor((i * n) / Math.min(n, k)));
  return out;
}

export function runDetectorStage(train: FrameDataset, val: FrameDataset, options: DetectorStageOptions, io: DetectorStageIO): { model: Teacher; curve: CurvePoint[]; report: DetectorReport; steps: number } {
  if (options.init !== undefined && JSON.stringify({ ...options.init.config, seed: 0 }) !== JSON.stringify({ ...DETECTOR_SIZES[options.size], seed: 0 })) {
    throw new RangeError(`init detector config ${JSON.stringify(options.init.config)} is not the ${options.size} architecture ${JSON.stringify(DETECTOR_SIZES[options.size])}`);
  }
  const model = io.resume?.model ?? options.init ?? new Teacher(DETECTOR_SIZES[options.size]);
  const curve: CurvePoint[] = [...(io.resume?.curve ?? [])];
  const curveFrames = spread(val.frames.length, options.curveFrames);
  const t0 = performance.now();
  const first = (io.resume?.step ?? 0) + 1;
  let lastLoss = NaN;
  let lossAvg = NaN;
  let teacher: { model: Teacher; temperature: number } | undefined;
  if (options.distillFrom !== undefined) {
    const from = options.distillFrom;
    if (from.outputChannels !== model.outputChannels) throw new RangeError(`teacher has ${from.outputChannels} output channels, the ${options.size} ${model.outputChannels}; expected equal`);
    teacher = { model: from, temperature: options.temperature ?? DISTILLATION_TEMPERATURE };
  }
  const r = trainDetector(model, train, {
    ...(teacher === undefined ? {} : { teacher }),
    ...(options.augment === undefined ? {} : { augment: options.augment }),
    ...(options.clutter === undefined ? {} : { clutter: options.clutter }),
    ...(options.foliage === undefined ? {} : { foliage: options.foliage }),
    steps: options.steps,
    batch: options.batch,
    crop: options.crop,
    learningRate: options.learningRate,
    seed: options.seed + first,
    startStep: first,
    budget_s: options.budget_s,
    onStep: (step, loss) => {
      lastLoss = loss.total;
      lossAvg = Number.isNaN(lossAvg) ? loss.total : 0.98 * lossAvg + 0.02 * loss.total;
      const elapsed = (performance.now() - t0) / 1000;
      const done = step - first + 1;
      if (step % 25 === 0) {
        const perStep = elapsed / done;
        const eta = Math.min((options.steps - step) * perStep, options.budget_s - elapsed);
        io.progress(`fit ${options.size}: step ${step}/${options.steps}, loss ${lossAvg.toFixed(4)} (cls ${loss.cls.toFixed(3)}, threat ${loss.threat.toFixed(3)}), ${perStep.toFixed(2)} s/step, ETA ${(eta / 60).toFixed(1)} min`);
      }
      if (step % options.evalEvery === 0) {
        const rep = evaluateDetector(model, val, curveFrames);
        curve.push({ step, elapsed_s: elapsed, loss: lossAvg, visibleWire: rep.visible.wire, approachWire: rep.approach.wire, threat: rep.threat });
        io.progress(`fit ${options.size}: step ${step} val(${curveFrames.length} frames) wire AP visible ${rep.visible.wire.toFixed(3)}, approach ${rep.approach.wire.toFixed(3)}, all-pixels ${rep.allPixels.wire.toFixed(3)}, threat AP ${rep.threat.toFixed(3)}`);
      }
      if (options.checkpointEvery > 0 && step % options.checkpointEvery === 0) io.save("checkpoint", model, { step, curve });
    },
  });
  const report = evaluateDetector(model, val);
  io.save(options.size, model, { steps: r.steps, finalLoss: lastLoss, curve, report });
  return { model, curve, report, steps: r.steps };
}
