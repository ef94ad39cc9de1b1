/**
 * `drone-harness transfer --real <dir> [--model student] [--folds 5] [--curve 10,20,40,all]
 *   [--steps 150] [--scope adapter|context|all] [--out <dir>] [--json]`
 * Few-shot adaptation to real photographs (issue 14 item 3): k-fold cross-validation of
 * fine-tuning the simulator-trained detector on NAME.jpg + NAME.mask.png photos
 * (src/harness/transfer/realKFold.ts), with a learning curve over the training-set sizes; with
 * --out, also fine-tunes on every given photo and writes that detector (teacher.model.json, usable
 * as `detect --model <dir>`; with --partner, the partner adapted alike in <out>/partner, for
 * `detect --model <out> --partner <out>/partner`, the "ensemble" row). The source models are only read.
 */
import * as path from "node:path";
import { initBackend } from "../../harness/backend";
import { loadTeacher, saveModel } from "../../harness/modelfile";
import { fineTuneOnPhotos, type FineTuneScope } from "../../harness/transfer/fineTuneOnPhotos";
import { crossValidate, type SetPhoto } from "../../harness/transfer/realKFold";
import { UsageError, type CliIO } from "../CliCommand";
import { detectorDir } from "../loadWireNet";
import { listRealPhotos, loadRealPhoto } from "../realPhotoSet";
import { textTable } from "../textTable";
import { DEFAULT_CAMERA_EFFECTS } from "../../vision/cameraEffects";

export const TRANSFER_REAL_USAGE =
  "drone-harness transfer --real <dir of NAME.jpg + NAME.mask.png> [--model student|teacher|photo|<dir>] [--models <root>] [--folds 5] [--curve 10,20,40,all] " +
  "[--steps 150] [--batch 8] [--crop 96] [--lr 0.003] [--scope adapter|context|all] [--balance-sets] [--flip] [--schedule constant|cosine] [--swa F] [--augment camera] [--tta flip] [--wise A[,A...]] [--partner <model>] [--seed 1] [--out <dir>] [--json]";

type Args = { real: string; model: string; models: string; folds: number; curve: number[]; steps: number; batch: number; crop: number; lr: number; scope: FineTuneScope; balanceSets: boolean; flip: boolean; schedule: "constant" | "cosine"; tta: boolean; wise: number[]; partner: string; swa?: number; augmentCamera: boolean; seed: number; out: string; json: boolean };

/** Flags without a value. */
const SWITCHES = { "--json": "json", "--balance-sets": "balanceSets", "--flip": "flip" } as const;

/** --swa F: the fraction of the steps after which the weights are averaged, in [0, 1). */
function averagedFraction(v: string | undefined): number {
  const f = Number(v);
  if (v === undefined || v.trim() === "" || !(f >= 0 && f < 1)) throw new UsageError(`--swa ${v ?? "(missing)"}: expected the fraction of the steps after which the weights are averaged, in [0, 1)`);
  return f;
}

/** --augment camera: the camera effects drawn per training crop (the only augmentation offered). */
function cameraAugment(v: string | undefined): true {
  if (v !== "camera") throw new UsageError(`--augment ${v ?? "(missing)"}: expected camera (camera effects drawn per training crop)`);
  return true;
}

function parse(args: string[]): Args {
  const a: Args = { real: "", model: "student", models: "models", folds: 5, curve: [10, 20, 40, Infinity], steps: 150, batch: 8, crop: 96, lr: 3e-3, scope: "adapter", balanceSets: false, flip: false, schedule: "constant", tta: false, wise: [], partner: "", augmentCamera: false, seed: 1, out: "", json: false };
  const num = (flag: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min) throw new UsageError(`${flag} ${v ?? "(missing)"}: expected a number >= ${min}`);
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const k = args[i] ?? "";
    const v = args[i + 1];
    i++;
    switch (k) {
      case "--real":
        a.real = v ?? "";
        break;
      case "--model":
        a.model = v ?? "";
        break;
      case "--models":
        a.models = v ?? "";
        break;
      case "--folds":
        a.folds = Math.round(num(k, v, 2));
        break;
      case "--curve":
        a.curve = (v ?? "").split(",").map((s) => (s === "all" ? Infinity : num(k, s, 1)));
        break;
      case "--steps":
        a.steps = Math.round(num(k, v, 1));
        break;
      case "--batch":
        a.batch = Math.round(num(k, v, 1));
        break;
      case "--crop":
        a.crop = Math.round(num(k, v, 16));
        break;
      case "--lr":
        a.lr = num(k, v, 0);
        break;
      case "--seed":
        a.seed = Math.round(num(k, v, 0));
        break;
      case "--out":
        a.out = v ?? "";
        break;
      case "--scope":
        if (v !== "adapter" && v !== "context" && v !== "all") throw new UsageError(`--scope ${v ?? "(missing)"}: expected adapter, context or all`);
        a.scope = v;
        break;
      case "--json":
      case "--balance-sets":
      case "--flip":
        a[SWITCHES[k]] = true;
        i--;
        break;
      case "--schedule":
        if (v !== "constant" && v !== "cosine") throw new UsageError(`--schedule ${v ?? "(missing)"}: expected constant or cosine`);
        a.schedule = v;
        break;
      case "--tta":
        if (v !== "flip") throw new UsageError(`--tta ${v ?? "(missing)"}: expected flip (test-time flip averaging of the held-out maps)`);
        a.tta = true;
        break;
      case "--wise":
        a.wise = (v ?? "").split(",").map(Number);
        if (v === undefined || v === "" || !a.wise.every((x) => Number.isFinite(x) && x >= 0 && x <= 1)) throw new UsageError(`--wise ${v ?? "(missing)"}: expected a comma list of interpolation weights in [0, 1]`);
        break;
      case "--swa": a.swa = averagedFraction(v); break;
      case "--augment": a.augmentCamera = cameraAugment(v); break;
      case "--partner":
        if (v === undefined || v === "" || v.startsWith("--")) throw new UsageError(`--partner ${v ?? "(missing)"}: expected a detector (student|teacher|photo|<dir>) of the same architecture as --model`);
        a.partner = v;
        break;
      default:
        throw new UsageError(`unknown argument "${k}"`);
    }
  }
  if (a.real === "") throw new UsageError("--real <dir> is required");
  return a;
}

export async function transferReal(args: string[], io: CliIO): Promise<number> {
  const a = parse(args);
  const refs = listRealPhotos(a.real);
  await initBackend({ warn: (m) => io.err(`${m}\n`) });
  const dir = detectorDir(a.model, a.models);
  const detector = (await loadTeacher(dir)).model;
  const partnerDir = a.partner === "" ? "" : detectorDir(a.partner, a.models);
  const partner = partnerDir === "" ? undefined : (await loadTeacher(partnerDir)).model;
  const photos: SetPhoto[] = refs.map((r) => {
    const p = loadRealPhoto(r);
    return { set: p.set, name: p.name, image: p.image, wire: p.wire, group: p.set };
  });
  const fineTune = { steps: a.steps, batch: a.batch, crop: a.crop, learningRate: a.lr, scope: a.scope, balanceGroups: a.balanceSets, flip: a.flip, schedule: a.schedule, ...(a.swa === undefined ? {} : { averageFrom: a.swa }), ...(a.augmentCamera ? { camera: DEFAULT_CAMERA_EFFECTS } : {}) };
  const report = crossValidate(detector, photos, { folds: a.folds, curve: a.curve, fineTune, seed: a.seed, flipAverage: a.tta, wise: a.wise, partner, onProgress: (t) => io.err(`${t}\n`) });
  const command = `drone-harness transfer ${args.join(" ")}`;
  if (a.out !== "") {
    const r = fineTuneOnPhotos(detector, photos, { ...fineTune, seed: a.seed });
    const how = `fine-tuned ${r.trained.join(", ")} on ${photos.length} photos, final loss ${r.finalLoss.toFixed(4)}`;
    await saveModel(a.out, detector, { scenario: `real photos ${a.real}`, seed: a.seed, notes: `${command}; ${how}` });
    io.err(`wrote ${a.out}/teacher.model.json (fine-tuned on all ${photos.length} photos)\n`);
    if (partner !== undefined) {
      // The "ensemble" row's detector: both adapted networks, their maps averaged by `detect --partner`.
      const q = fineTuneOnPhotos(partner, photos, { ...fineTune, seed: a.seed });
      const partnerOut = path.join(a.out, "partner");
      await saveModel(partnerOut, partner, { scenario: `real photos ${a.real}`, seed: a.seed, notes: `${command}; the partner ${partnerDir}, fine-tuned ${q.trained.join(", ")} on ${photos.length} photos, final loss ${q.finalLoss.toFixed(4)}` });
      io.err(`wrote ${partnerOut}/teacher.model.json (the partner, fine-tuned alike); the ensemble: detect --model ${a.out} --partner ${partnerOut}${a.tta ? " --tta flip" : ""}\n`);
    }
  }
  detector.dispose();
  partner?.dispose();
  if (a.json) {
    io.out(`${JSON.stringify({ command, source: dir, partner: partnerDir === "" ? undefined : partnerDir, flipAveragedMaps: a.tta, ...report }, null, 2)}\n`);
    return 0;
  }
  io.out(`few-shot adaptation of ${dir} on ${a.real}: ${report.folds}-fold cross-validation (held-out maps pooled), ${a.steps} steps x ${a.batch} crops of ${a.crop} px, scope ${a.scope}${a.balanceSets ? ", crops drawn from each set equally" : ""}${a.flip ? ", mirrored crops" : ""}${a.augmentCamera ? ", camera effects per crop (--augment camera)" : ""}${a.schedule === "cosine" ? ", cosine learning rate" : ""}${a.swa === undefined ? "" : `, weights averaged over the steps from ${Math.round(100 * a.swa)} % on (--swa)`}${a.tta ? ", held-out maps flip-averaged (--tta flip)" : ""}${a.wise.length > 0 ? `, also weights interpolated toward the start (WiSE-FT, a = ${a.wise.join(", ")})` : ""}${partner !== undefined ? `, partner ${partnerDir} adapted alike (rows "partner", "soup": weights averaged, "ensemble": maps averaged)` : ""}, ${report.seconds.toFixed(0)} s\n`);
  io.out(`parameters changed: ${report.trained.join(", ")} (${report.trainedParameters} of ${report.totalParameters}); all others frozen\n`);
  io.out(textTable(["training photos", "set", "held-out photos", "cell AP", "F1", "chance AP"], report.rows.map((r) => [r.trainPhotos, r.set, String(r.photos), r.ap.toFixed(3), r.f1.toFixed(3), r.chance.toFixed(3)])));
  return 0;
}
