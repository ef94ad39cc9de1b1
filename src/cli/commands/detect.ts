/**
 * `drone-harness detect --models models/ [--harness on|off] <image files or folders> --out <dir>`
 * Runs the co-evolved student (and its harness) on PNG/JPEG photographs of any size and writes,
 * per image, `<name>.wire.png` (8-bit per-pixel wire probability, original size) and
 * `<name>.detections.json` (vision_msgs-shaped Detection2D list in original pixels).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { initBackend } from "../../harness/backend";
import { decodeImage, encodeGreyPng } from "../../harness/data/imageCodec";
import { detectImage } from "../../harness/eval/detectImage";
import { loadHarness, loadStudent } from "../../harness/modelfile";
import type { TrainingState } from "../../harness/training/trainPipeline";
import { LAMBDA_INITIAL } from "../../harness/correction/constants";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE = "drone-harness detect --models <dir> [--harness on|off] [--threshold 0.5] <image files or folders> --out <dir>";

export type DetectArgs = { models: string; harness: boolean; inputs: string[]; out: string; threshold: number };

export function parseDetectArgs(args: string[]): DetectArgs {
  const out: DetectArgs = { models: "models", harness: true, inputs: [], out: "", threshold: 0.5 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--models":
        out.models = args[++i] ?? "";
        break;
      case "--out":
        out.out = args[++i] ?? "";
        break;
      case "--harness": {
        const v = args[++i];
        if (v !== "on" && v !== "off") throw new UsageError(`--harness=${v ?? "(missing)"}, expected on or off`);
        out.harness = v === "on";
        break;
      }
      case "--threshold": {
        const t = Number(args[++i]);
        if (!(t >= 0 && t <= 1)) throw new UsageError(`--threshold=${args[i] ?? "(missing)"}, expected a number in [0, 1]`);
        out.threshold = t;
        break;
      }
      default:
        if (a.startsWith("--")) throw new UsageError(`unknown argument "${a}"`);
        out.inputs.push(a);
    }
  }
  if (out.inputs.length === 0) throw new UsageError("no image files or folders given");
  if (out.out === "") throw new UsageError("--out <dir> is required");
  return out;
}

const IMAGE_EXT = /\.(png|jpe?g)$/i;

/** Expands folders (not recursively) to their PNG/JPEG files, sorted; files are kept as given. */
export function listImages(inputs: readonly string[]): string[] {
  const files: string[] = [];
  for (const p of inputs) {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      throw new UsageError(`${p}: no such file or folder`);
    }
    if (st.isDirectory()) {
      for (const f of fs.readdirSync(p).sort()) if (IMAGE_EXT.test(f)) files.push(path.join(p, f));
    } else files.push(p);
  }
  return files;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseDetectArgs(args);
    const files = listImages(a.inputs);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const student = (await loadStudent(a.models)).model;
    const harness = a.harness ? (await loadHarness(a.models)).model : undefined;
    const stateFile = path.join(a.models, "training.json");
    const lambda = fs.existsSync(stateFile) ? ((JSON.parse(fs.readFileSync(stateFile, "utf8")) as TrainingState).lambda.coevo ?? LAMBDA_INITIAL) : LAMBDA_INITIAL;
    fs.mkdirSync(a.out, { recursive: true });
    let failed = 0;
    for (const file of files) {
      const base = path.basename(file).replace(IMAGE_EXT, "");
      try {
        const image = decodeImage(fs.readFileSync(file), file);
        const r = detectImage(student, harness, image, { threshold: a.threshold, lambda });
        const mapFile = path.join(a.out, `${base}.wire.png`);
        const jsonFile = path.join(a.out, `${base}.detections.json`);
        fs.writeFileSync(mapFile, encodeGreyPng(r.width, r.height, r.wireMap));
        fs.writeFileSync(
          jsonFile,
          `${JSON.stringify({ image: file, width: r.width, height: r.height, harness: a.harness, threshold: a.threshold, detections: r.detections }, null, 2)}\n`,
        );
        io.out(`${file}: ${r.width}x${r.height}, ${r.detections.length} detections -> ${mapFile}, ${jsonFile}\n`);
      } catch (err) {
        failed++;
        io.err(`${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
    return failed > 0 ? 1 : 0;
  },
};
