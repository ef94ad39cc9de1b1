/**
 * `drone-harness fit --data <cache> --val <cache> --size teacher|student --out <dir>
 *  [--minutes M] [--steps N] [--batch B] [--crop C] [--lr X] [--eval-every N] [--resume]`
 * A detector stage of the staged training (issue 12 items 2 and 5): trains the detector with the
 * near-threat logit on a frame cache written by `drone-harness dataset`, for at most --minutes of
 * wall clock (default 80: a stage fits the 90-minute limit), with a validation learning curve,
 * checkpoints every --checkpoint-every steps, and `--resume` from the last checkpoint.
 * Writes <out>/<size>/teacher.model.json + .weights.bin (the detector architecture is the Teacher
 * class at either size) and <out>/<size>/fit.json (curve, final validation report, command).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { FrameCacheDir } from "../../harness/data/node/FrameCacheDir";
import { SeedSource } from "../../harness/data/SeedSplit";
import { writeFileAtomicSync, configOf, encodeModel, inputSpecs, loadModel, loadTeacher, normalisationInfo, MODEL_FORMAT_VERSION } from "../../harness/modelfile";
import { Teacher } from "../../harness/models/Teacher";
import { runDetectorStage, type CurvePoint } from "../../harness/training/detectorStage";
import { AP_BOOTSTRAP_RESAMPLES, formatApWithInterval } from "../../harness/eval/ClusteredAp";
import { evaluateDetector, type WireMapTransform } from "../../harness/eval/evaluateDetector";
import { formatLineSupportSpec, lineSupportScore, type LineSupportSpec } from "../../harness/eval/lineSupport";
import type { DetectorReport } from "../../harness/eval/detectorReport";
import { DEFAULT_CAMERA_EFFECTS } from "../../vision/cameraEffects";
import { DEFAULT_GROUND_CLUTTER } from "../../vision/groundClutter";
import { DEFAULT_FOLIAGE_CLUTTER } from "../../vision/foliageClutter";
import { intArg, lineSupportArg, numberArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE =
  "drone-harness fit --data <cache dir>[,<cache dir>...] --val <cache dir> --size teacher|student --out <dir> [--minutes M] [--steps N] [--batch B] [--crop C] [--lr X] " +
  "[--eval-every N] [--curve-frames N] [--checkpoint-every N] [--distill <teacher dir>] [--init <detector dir>] [--augment camera[,clutter][,foliage]] [--seed N] [--resume]\n" +
  "       drone-harness fit --evaluate <detector dir> --val <cache dir> [--line-support F:geo|F:ls,...]   (the final validation report of a saved detector, no training;\n" +
  "         --line-support adds one report per spec with the wire probabilities rewritten by the line-support operator, src/harness/eval/lineSupport.ts)";

type FitArgs = { data: string; val: string; size: "teacher" | "student"; out: string; minutes: number; steps: number; batch: number; crop: number; lr: number; evalEvery: number; curveFrames: number; checkpointEvery: number; resume: boolean; distill?: string; init?: string; evaluate?: string; augment: boolean; clutter: boolean; foliage: boolean; seed: number; lineSupport: LineSupportSpec[] };

export function parseFitArgs(args: string[]): FitArgs {
  const a: FitArgs = { data: "", val: "", size: "teacher", out: "", minutes: 80, steps: 6000, batch: 8, crop: 128, lr: 2e-3, evalEvery: 250, curveFrames: 300, checkpointEvery: 250, resume: false, augment: false, clutter: false, foliage: false, seed: 1, lineSupport: [] };
  const given: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const f = args[i] ?? "";
    given.push(f);
    switch (f) {
      case "--data": a.data = args[++i] ?? ""; break;
      case "--val": a.val = args[++i] ?? ""; break;
      case "--out": a.out = args[++i] ?? ""; break;
      case "--size": {
        const v = args[++i];
        if (v !== "teacher" && v !== "student") throw new UsageError(`--size=${v ?? "(missing)"}, expected teacher or student`);
        a.size = v;
        break;
      }
      case "--minutes": a.minutes = numberArg(f, args[++i], 0.05, 90); break;
      case "--steps": a.steps = intArg(f, args[++i], 1); break;
      case "--batch": a.batch = intArg(f, args[++i], 1); break;
      case "--crop": a.crop = intArg(f, args[++i], 32); break;
      case "--lr": a.lr = numberArg(f, args[++i], 1e-6, 1); break;
      case "--eval-every": a.evalEvery = intArg(f, args[++i], 1); break;
      case "--curve-frames": a.curveFrames = intArg(f, args[++i], 1); break;
      case "--checkpoint-every": a.checkpointEvery = intArg(f, args[++i], 0); break;
      case "--resume": a.resume = true; break;
      case "--distill": a.distill = args[++i] ?? ""; break;
      case "--init": a.init = args[++i] ?? ""; break;
      case "--evaluate": a.evaluate = args[++i] ?? ""; break;
      case "--line-support": a.lineSupport = lineSupportArg(args[++i]); break;
      case "--seed": a.seed = intArg(f, args[++i], 0); break;
      case "--augment": {
        const v = args[++i];
        const kinds = (v ?? "").split(",");
        if (v === undefined || v === "" || kinds.some((k) => k !== "camera" && k !== "clutter" && k !== "foliage")) throw new UsageError(`--augment=${v ?? "(missing)"}, expected a comma list of camera, clutter, foliage`);
        a.augment ||= kinds.includes("camera");
        a.clutter ||= kinds.includes("clutter");
        a.foliage ||= kinds.includes("foliage");
        break;
      }
      default: throw new UsageError(`unknown argument "${f}"`);
    }
  }
  if (a.evaluate !== undefined) {
    if (a.evaluate === "" || a.val === "") throw new UsageError("--evaluate needs a detector directory and --val <cache dir>");
    const training = given.filter((f) => f.startsWith("--") && f !== "--evaluate" && f !== "--val" && f !== "--line-support");
    if (training.length > 0) throw new UsageError(`--evaluate measures a saved detector and trains nothing: ${training.join(", ")} would be ignored; drop ${training.length === 1 ? "it" : "them"}`);
    return a;
  }
  if (a.lineSupport.length > 0) throw new UsageError("--line-support scores a saved detector: use it with --evaluate <dir> --val <cache dir>");
  if (a.data === "" || a.val === "" || a.out === "") throw new UsageError("--data, --val and --out are required");
  if (a.crop % 32 !== 0) throw new UsageError(`--crop=${a.crop}, expected a multiple of 32`);
  return a;
}

function saveDetector(dir: string, model: Teacher, note: string, meta: Record<string, unknown>): void {
  const enc = encodeModel(model.params.snapshot(), {
    formatVersion: MODEL_FORMAT_VERSION,
    kind: "teacher",
    config: configOf(model),
    inputs: inputSpecs("teacher"),
    normalisation: normalisationInfo(),
    training: { scenario: "default", seed: model.config.seed, notes: note },
  });
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomicSync(path.join(dir, "teacher.weights.bin"), enc.weightsBin);
  writeFileAtomicSync(path.join(dir, "teacher.model.json"), enc.modelJson);
  writeFileAtomicSync(path.join(dir, "fit.json"), `${JSON.stringify(meta, null, 2)}\n`);
}

/** The validation report as fit prints it. */
function validationLines(r: DetectorReport): string {
  const f = (x: number): string => x.toFixed(3);
  return (
    `validation (${r.frames} frames, ${r.approachFrames} approach):\n` +
    `  wire AP visible ${f(r.visible.wire)}, approach ${f(r.approach.wire)}, all-pixels ${f(r.allPixels.wire)}; wire+branch visible ${f(r.visible.wire_branch)}; threat AP ${f(r.threat)}\n`
  );
}

/** `--evaluate`: a saved detector on every frame of a validation cache, with the code of fit's final report. */
async function evaluateSaved(dir: string, valDir: string, lineSupport: readonly LineSupportSpec[], out: (s: string) => void): Promise<number> {
  const val = new FrameCacheDir(valDir).read((s) => new SeedSource("val", splitOfSeed).require(s));
  if (val.frames.length === 0) throw new UsageError(`--val ${valDir}: no cached flights (run drone-harness dataset first)`);
  const { model } = await loadTeacher(dir);
  try {
    const variants: [string, WireMapTransform | undefined][] = [["", undefined], ...lineSupport.map((s): [string, WireMapTransform] => [` with line support ${formatLineSupportSpec(s)}`, (w, r, c) => lineSupportScore(w, r, c, s)])];
    for (const [name, wireTransform] of variants) {
      const report = evaluateDetector(model, val, undefined, 4, { bootstrap: AP_BOOTSTRAP_RESAMPLES, ...(wireTransform === undefined ? {} : { wireTransform }) });
      const iv = report.wireInterval;
      const intervals = iv === undefined ? "" : `  wire AP visible ${formatApWithInterval(iv.visible)}, approach ${formatApWithInterval(iv.approach)} (95 % intervals: the ${iv.visible.clusters} flight seeds resampled ${iv.visible.resamples} times)\n`;
      out(`fit --evaluate ${dir}${name}: ${validationLines(report)}${intervals}`);
    }
  } finally {
    model.dispose();
  }
  return 0;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseFitArgs(args);
    const backend = await initBackend({ warn: (m) => io.err(`${m}\n`) });
    if (a.evaluate !== undefined) return evaluateSaved(a.evaluate, a.val, a.lineSupport, io.out);
    // --data takes a comma list of caches (expert flights, planner flights): one training set.
    const parts = a.data.split(",").map((d) => new FrameCacheDir(d).read((s) => new SeedSource("train", splitOfSeed).require(s)));
    const train = { grid: parts[0]?.grid ?? { width: 256, height: 256, cell_px: 8 }, frames: parts.flatMap((p) => p.frames) };
    for (const [i, p] of parts.entries()) {
      if (p.frames.length > 0 && JSON.stringify(p.grid) !== JSON.stringify(train.grid)) throw new UsageError(`--data part ${i + 1} has grid ${JSON.stringify(p.grid)}, expected ${JSON.stringify(train.grid)}`);
    }
    const val = new FrameCacheDir(a.val).read((s) => new SeedSource("val", splitOfSeed).require(s));
    if (train.frames.length === 0) throw new UsageError(`--data ${a.data}: no cached flights (run drone-harness dataset first)`);
    const commandLine = `drone-harness fit ${args.join(" ")}`;
    io.err(`fit: backend ${backend.name}, ${train.frames.length} train frames, ${val.frames.length} val frames, ${a.size}, budget ${a.minutes} min\n`);
    const ckptDir = path.join(a.out, a.size, "checkpoint");
    let resume: { model: Teacher; step: number; curve: CurvePoint[] } | undefined;
    if (a.resume && fs.existsSync(path.join(ckptDir, "teacher.model.json"))) {
      const meta = JSON.parse(fs.readFileSync(path.join(ckptDir, "fit.json"), "utf8")) as { step: number; curve: CurvePoint[] };
      resume = { model: (await loadModel(ckptDir, "teacher")).model as Teacher, step: meta.step, curve: meta.curve };
      io.err(`fit: resuming from step ${meta.step}\n`);
    }
    const distillFrom = a.distill === undefined ? undefined : (await loadTeacher(a.distill)).model;
    if (distillFrom !== undefined) io.err(`fit: behaviour cloning of the detector in ${a.distill} (${distillFrom.parameterCount()} parameters)\n`);
    const initFrom = a.init === undefined || resume !== undefined ? undefined : (await loadTeacher(a.init)).model;
    if (initFrom !== undefined) io.err(`fit: fine-tuning the detector in ${a.init}\n`);
    const t0 = performance.now();
    const r = runDetectorStage(
      train,
      val,
      { size: a.size, steps: a.steps, batch: a.batch, crop: a.crop, learningRate: a.lr, budget_s: a.minutes * 60, evalEvery: a.evalEvery, curveFrames: a.curveFrames, checkpointEvery: a.checkpointEvery, seed: a.seed, ...(distillFrom === undefined ? {} : { distillFrom }), ...(initFrom === undefined ? {} : { init: initFrom }), ...(a.augment ? { augment: DEFAULT_CAMERA_EFFECTS } : {}), ...(a.clutter ? { clutter: DEFAULT_GROUND_CLUTTER } : {}), ...(a.foliage ? { foliage: DEFAULT_FOLIAGE_CLUTTER } : {}) },
      {
        progress: (line) => io.err(`${line}\n`),
        save: (name, model, meta) => {
          const dir = name === "checkpoint" ? ckptDir : path.join(a.out, a.size);
          saveDetector(dir, model, commandLine, { command: commandLine, trainFrames: train.frames.length, valFrames: val.frames.length, ...meta });
        },
        ...(resume === undefined ? {} : { resume }),
      },
    );
    io.out(`fit ${a.size}: ${r.steps} steps in ${((performance.now() - t0) / 60000).toFixed(1)} min; ${validationLines(r.report)}`);
    io.out(`  model: ${path.join(a.out, a.size)}\n`);
    return 0;
  },
};
