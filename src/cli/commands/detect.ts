/**
 * `drone-harness detect [--model student|teacher|corrected|old-teacher|<dir>] [--models <root>]
 *   [--threshold 0.5] <image files or folders> --out <dir>`
 * Runs a wire detector on PNG/JPEG photographs as they come (issue 14 item 1): any size and
 * aspect, fully convolutional at the native size (src/harness/eval/detectNative.ts), and writes
 * per image `<name>.wire.png` (8-bit wire probability at the photo's size) and
 * `<name>.detections.json` (vision_msgs-shaped Detection2D list in photo pixels), printing the
 * per-image detector time. The model names are resolved by src/cli/loadWireNet.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { DETECTION_CLASSES } from "../../harness/actions";
import { CellsToDetections } from "../../control/cellsToDetections";
import { initBackend } from "../../harness/backend";
import { decodeImage, encodeGreyPng, type RgbImage } from "../../harness/data/imageCodec";
import { WIRE_CELL_PX, type WireNet } from "../../harness/eval/WireNet";
import { averageWithMirrored, detectEnsemble, detectNative, detectPass, meanDetections, withLineSupport, type NativeDetection } from "../../harness/eval/detectNative";
import { WireNetThread } from "../../harness/data/node/wireNetThread";
import { formatLineSupportSpec, type LineSupportSpec } from "../../harness/eval/lineSupport";
import { applyGate, photoGateEdges, type GateKind } from "../../harness/eval/edgeGate";
import { probabilityToGrey } from "../../harness/eval/probabilityMap";
import { GateThread } from "../../harness/data/node/gateThread";
import { lineSupportArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";
import { MODEL_CHOICES, loadWireNet, teacherDetector } from "../loadWireNet";

export const USAGE = `drone-harness detect [--model ${MODEL_CHOICES.join("|")}|<dir>] [--partner <model>] [--models <root>] [--threshold 0.5] [--tta flip | --line-support F:geo|F:ls] [--edge-gate | --coherence-gate] [--threads 1|2] <image files or folders> --out <dir>

  --model      which detector (default photo):
                 photo        <root>/photo/student, the student fine-tuned on overhead views, camera effects and wires (thin and thick) drawn over photographed ground textures and paving (no real wire photo)
                 adapted      <root>/photo/adapted, the previous photo model (photo/student-soup11) fine-tuned on the 85 PLD-UAV dev photos (transfer --real
                              --augment camera; k-fold AP 0.855 / 0.867 urban / mountain in one pass, 0.860 / 0.873 with --tta flip)
                 student      <root>/pipeline/student, the BC student-size detector
                 teacher      <root>/pipeline/teacher, the teacher-size detector
                 corrected    <root>/student.*, the co-evolved student (its harness adds zero on a still photo)
                 old-teacher  <root>/teacher.*, the co-evolution run's teacher
                 <dir>        a folder with teacher.model.json (e.g. written by \`transfer\`)
  --partner    a second detector (the choices of --model but corrected): the map, cells and detections are the
               mean of the two networks' (a map ensemble, e.g. the two models \`transfer --real --partner --out\`
               writes); the partner runs on a second thread, beside the first network
  --models     models root (default models)
  --harness    on|off: the older spelling of --model corrected (same map either way on a photo)
  --threshold  cell probability for a detection (default 0.5)
  --tta flip   average the wire map with the map of the mirrored photo (a second pass); the detections list
               stays the single pass's. With 2 threads the mirrored pass runs on the second one, beside the
               first (not for --model corrected, whose harness runs in this thread)
  --line-support F:geo|F:ls
               rewrite the wire map by the line-support operator (src/harness/eval/lineSupport.ts): the mean wire
               probability along the best straight segment through each cell, half-length F x the cell grid's
               longer side; geo = sqrt(p x support), ls = support alone. Not with --tta flip; the detections list
               stays the network's
  --edge-gate  gate the wire map by the photo's own edges: sqrt(p x min(1, Sobel / its 99th percentile))
               (src/harness/eval/edgeGate.ts, no training; dev-photo cell AP of the photo model 0.476 / 0.838 ->
               0.571 / 0.943 urban / mountain); the detections list stays the network's cells
  --coherence-gate  the edge gate with Sobel replaced by Sobel x the structure tensor's coherence over 7x7
               (1 on a straight edge or line, near 0 in foliage; edgeGate.ts, no training; dev-photo cell AP of
               the photo model 0.636 / 0.956 urban / mountain); the detections list stays the network's cells
  --threads    1: everything in this thread; 2 (default): the partner, or without one the mirrored pass of
               --tta flip, or without either a gate's edges (Sobel, coherence, their 99th percentile), on a
               worker thread beside the network (the same maps either way)
  --out        output folder: <name>.wire.png (wire probability at the photo's size) and <name>.detections.json
Photos of any size and aspect run at their native resolution (no resize).`;

export type DetectArgs = { model: string; partner?: string; models: string; inputs: string[]; out: string; threshold: number; flipAverage: boolean; lineSupport?: LineSupportSpec; gate: PhotoGate; threads?: 1 | 2 };

export function parseDetectArgs(args: string[]): DetectArgs {
  const out: DetectArgs = { model: "photo", models: "models", inputs: [], out: "", threshold: 0.5, flipAverage: false, gate: "none" };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--model":
        out.model = args[++i] ?? "";
        break;
      case "--models":
        out.models = args[++i] ?? "";
        break;
      case "--partner": {
        const v = args[++i];
        if (v === undefined || v === "" || v.startsWith("--")) throw new UsageError(`--partner ${v ?? "(missing)"}: expected a second detector (${MODEL_CHOICES.join("|")}|<dir>)`);
        if (v === "corrected") throw new UsageError("--partner corrected: the partner must be a teacher-type detector (student, teacher, photo, old-teacher or a folder with teacher.model.json)");
        out.partner = v;
        break;
      }
      case "--out":
        out.out = args[++i] ?? "";
        break;
      case "--harness": {
        const v = args[++i];
        if (v !== "on" && v !== "off") throw new UsageError(`--harness=${v ?? "(missing)"}, expected on or off`);
        out.model = "corrected";
        break;
      }
      case "--threshold": {
        const t = Number(args[++i]);
        if (!(t >= 0 && t <= 1)) throw new UsageError(`--threshold=${args[i] ?? "(missing)"}, expected a number in [0, 1]`);
        out.threshold = t;
        break;
      }
      case "--tta": {
        const v = args[++i];
        if (v !== "flip") throw new UsageError(`--tta=${v ?? "(missing)"}, expected flip`);
        out.flipAverage = true;
        break;
      }
      case "--threads": {
        const v = args[++i];
        if (v !== "1" && v !== "2") throw new UsageError(`--threads=${v ?? "(missing)"}, expected 1 or 2`);
        out.threads = v === "1" ? 1 : 2;
        break;
      }
      case "--edge-gate":
      case "--coherence-gate": {
        const gate = a === "--edge-gate" ? "edge" : "coherence";
        if (out.gate !== "none" && out.gate !== gate) throw new UsageError("--edge-gate and --coherence-gate: give one (both rewrite the same map)");
        out.gate = gate;
        break;
      }
      case "--line-support": {
        const specs = lineSupportArg(args[++i]);
        if (specs.length !== 1) throw new UsageError(`--line-support=${args[i] ?? ""}: detect writes one map, give one spec`);
        out.lineSupport = specs[0];
        break;
      }
      default:
        if (a.startsWith("--")) throw new UsageError(`unknown argument "${a}"`);
        out.inputs.push(a);
    }
  }
  if (out.model === "") throw new UsageError("--model needs a value");
  if (out.partner !== undefined && out.lineSupport !== undefined) throw new UsageError("--partner and --line-support cannot be combined (the operator works on one network's cells)");
  if (out.flipAverage && out.lineSupport !== undefined) throw new UsageError("--tta flip and --line-support cannot be combined (the operator works on one pass's cells)");
  if (out.threads === 2 && out.model === "corrected" && out.flipAverage && out.partner === undefined) {
    throw new UsageError("--threads 2 with --model corrected --tta flip: the co-evolved student runs in this thread only; use --threads 1");
  }
  if (out.inputs.length === 0) throw new UsageError("no image files or folders given");
  if (out.out === "") throw new UsageError("--out <dir> is required");
  return out;
}

const IMAGE_EXT = /\.(png|jpe?g)$/i;

/** Expands folders (not recursively) to their PNG/JPEG files (not *.mask.png), sorted; files are kept as given. */
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
      for (const f of fs.readdirSync(p).sort()) if (IMAGE_EXT.test(f) && !f.endsWith(".mask.png") && !f.endsWith(".wire.png")) files.push(path.join(p, f));
    } else files.push(p);
  }
  return files;
}

/** Milliseconds per stage of one photo in `detect` (the printed time is detectMs). */
export type DetectPhotoTimes = { decodeMs: number; detectMs: number; detectionsMs: number; writeMs: number };

export type DetectPhotoResult = { width: number; height: number; detections: number; mapFile: string; jsonFile: string; times: DetectPhotoTimes };

/**
 * The second network of `detect --partner`: in this thread (a WireNet: the two run one after the
 * other) or on a worker thread (a WireNetThread: the two run at once).
 */
export type DetectPartner = WireNet | WireNetThread;

/**
 * What `detect` does besides the first network's pass: a partner network (the map ensemble), or
 * the mirrored photo's pass of the same network on a worker thread (`--tta flip`, 2 threads).
 */
export type DetectSecond = { partner: DetectPartner } | { mirror: WireNetThread };

/** The detection of `image` by `net`, averaged with `partner`'s when given (meanDetections). */
export async function detectWithPartner(net: WireNet, image: RgbImage, flipAverage: boolean, partner?: DetectPartner): Promise<NativeDetection> {
  if (partner === undefined) return detectPass(net, image, flipAverage);
  if (!(partner instanceof WireNetThread)) return detectEnsemble([net, partner], image, flipAverage);
  return alongside(partner.detect(image, flipAverage), () => detectPass(net, image, flipAverage), (mine, theirs) => meanDetections([mine, theirs]));
}

/**
 * detectNativeFlipAveraged with the mirrored photo's pass on `mirror` (a worker running the same
 * network) while this thread runs the plain pass: the same bits, the two passes at once.
 */
export function detectFlipAveragedOnThread(net: WireNet, image: RgbImage, mirror: WireNetThread): Promise<NativeDetection> {
  return alongside(mirror.detectMirrored(image), () => detectNative(net, image), averageWithMirrored);
}

/**
 * Runs `mine` in this thread while the worker's job `theirs` (posted before the call) runs, then
 * combines the two. When `mine` throws, it waits for the worker first, so the worker is free
 * again for the next photo.
 */
async function alongside(theirs: Promise<NativeDetection>, mine: () => NativeDetection, combine: (mine: NativeDetection, theirs: NativeDetection) => NativeDetection): Promise<NativeDetection> {
  let own: NativeDetection;
  try {
    own = mine();
  } catch (e) {
    await theirs.catch(() => undefined);
    throw e;
  }
  return combine(own, await theirs);
}

/** One photo's detection with `second` (detectWithPartner, or detectFlipAveragedOnThread for a mirror thread). */
export function detectWithSecond(net: WireNet, image: RgbImage, flipAverage: boolean, second?: DetectSecond): Promise<NativeDetection> {
  if (second === undefined || "partner" in second) return detectWithPartner(net, image, flipAverage, second?.partner);
  if (!flipAverage) throw new RangeError("a mirror thread serves the flip average only (--tta flip)");
  return detectFlipAveragedOnThread(net, image, second.mirror);
}

/** What rewrites the wire map after the network (edgeGate.ts): nothing, the edge gate or the coherence gate. */
export type PhotoGate = "none" | GateKind;

/** What `detect` does to one photo besides the first network's plain pass (all off by default). */
export type DetectPhotoOptions = { flipAverage?: boolean; lineSupport?: LineSupportSpec; gate?: PhotoGate; second?: DetectSecond; gateThread?: GateThread };

/**
 * One photo of `detect`: read and decode (jpeg-js / pngjs), the detection (the printed detector
 * time; with a partner, the two networks' mean), the Detection2D list, then `<name>.wire.png` and
 * `<name>.detections.json` in `outDir`.
 */
export async function detectPhoto(net: WireNet, file: string, outDir: string, threshold: number, options: DetectPhotoOptions = {}): Promise<DetectPhotoResult> {
  const { flipAverage = false, lineSupport, gate = "none", second, gateThread } = options;
  const base = path.basename(file).replace(IMAGE_EXT, "");
  const t0 = performance.now();
  const image = decodeImage(fs.readFileSync(file), file);
  const t1 = performance.now();
  // The gate's edges depend on the photo only: on the gate thread they are computed beside the network.
  const edgesOnThread = gate === "none" ? undefined : gateThread?.edges(image, gate);
  edgesOnThread?.catch(() => undefined); // awaited below; a failure is reported there, not as an unhandled rejection
  let plain: NativeDetection;
  try {
    plain = await detectWithSecond(net, image, flipAverage, second);
  } catch (e) {
    await edgesOnThread?.catch(() => undefined); // the thread is free for the next photo
    throw e;
  }
  const supported = lineSupport === undefined ? plain : withLineSupport(plain, lineSupport);
  // A gate rewrites the map only: the detections stay the network's cells (their classes sum to 1).
  const r = gate === "none" ? supported : { ...supported, map: applyGate(supported.map, (await edgesOnThread) ?? photoGateEdges(image.rgb, image.width, image.height, gate)) };
  const t2 = performance.now();
  const labeller = new CellsToDetections({ rows: r.rows, cols: r.cols, numClasses: DETECTION_CLASSES.length, classNames: DETECTION_CLASSES, scoreThreshold: threshold });
  const detections = labeller.run(r.cellProbs, r.cols * WIRE_CELL_PX, r.rows * WIRE_CELL_PX, { stamp: { sec: 0, nanosec: 0 }, frame_id: "image" });
  const t3 = performance.now();
  const map8 = probabilityToGrey(r.map);
  const mapFile = path.join(outDir, `${base}.wire.png`);
  const jsonFile = path.join(outDir, `${base}.detections.json`);
  fs.writeFileSync(mapFile, encodeGreyPng(r.width, r.height, map8));
  fs.writeFileSync(jsonFile, `${JSON.stringify({ image: file, model: net.name, ...(second !== undefined && "partner" in second ? { partner: second.partner.name } : {}), width: r.width, height: r.height, threshold, detections }, null, 2)}\n`);
  const times = { decodeMs: t1 - t0, detectMs: t2 - t1, detectionsMs: t3 - t2, writeMs: performance.now() - t3 };
  return { width: r.width, height: r.height, detections: detections.length, mapFile, jsonFile, times };
}

/**
 * The partner (on a worker thread with 2 threads, else in this thread), or with --tta flip and 2
 * threads a worker running the model itself for the mirrored pass; nothing otherwise.
 */
async function startSecond(a: DetectArgs): Promise<DetectSecond | undefined> {
  const threads = a.threads ?? 2;
  if (a.partner !== undefined) {
    const partner = teacherDetector(a.partner, a.models, "--partner");
    return { partner: threads === 2 ? await WireNetThread.start(partner.dir, partner.name) : await loadWireNet(a.partner, a.models) };
  }
  if (!a.flipAverage || threads === 1 || a.model === "corrected") return undefined;
  const own = teacherDetector(a.model, a.models);
  return { mirror: await WireNetThread.start(own.dir, `${own.name}, mirrored pass`) };
}

async function closeSecond(second: DetectSecond | undefined): Promise<void> {
  if (second === undefined) return;
  if ("mirror" in second) await second.mirror.close();
  else if (second.partner instanceof WireNetThread) await second.partner.close();
  else second.partner.dispose();
}

/** How the printed times were made: the network(s), the flip average and where its passes ran, line support. */
function describeDetector(net: WireNet, a: DetectArgs, second: DetectSecond | undefined, gateThread: GateThread | undefined): string {
  const parts = [second !== undefined && "partner" in second ? `${net.name} + ${second.partner.name}, 2 networks${second.partner instanceof WireNetThread ? " on 2 threads" : " in 1 thread"}` : net.name];
  if (a.flipAverage) parts.push(second !== undefined && "mirror" in second ? "flip-averaged, the mirrored pass on a second thread" : "flip-averaged");
  if (a.lineSupport !== undefined) parts.push(`line support ${formatLineSupportSpec(a.lineSupport)}`);
  if (a.gate !== "none") parts.push(`${a.gate}-gated${gateThread !== undefined ? ", its edges on a second thread" : ""}`);
  return parts.join(", ");
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseDetectArgs(args);
    const files = listImages(a.inputs);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const net = await loadWireNet(a.model, a.models);
    let second: DetectSecond | undefined;
    let gateThread: GateThread | undefined;
    try {
      second = await startSecond(a);
      // The second core is free (no partner, no mirrored pass): the gate's edges run there, beside the network.
      if (a.gate !== "none" && (a.threads ?? 2) === 2 && second === undefined) gateThread = await GateThread.start(`${a.gate} gate edges`);
    } catch (e) {
      net.dispose();
      await closeSecond(second);
      throw e;
    }
    fs.mkdirSync(a.out, { recursive: true });
    const name = describeDetector(net, a, second, gateThread);
    let failed = 0;
    try {
      for (const file of files) {
        try {
          const d = await detectPhoto(net, file, a.out, a.threshold, { flipAverage: a.flipAverage, lineSupport: a.lineSupport, gate: a.gate, second, gateThread });
          io.out(`${file}: ${d.width}x${d.height}, ${d.detections} detections, ${d.times.detectMs.toFixed(1)} ms (${name}) -> ${d.mapFile}, ${d.jsonFile}\n`);
        } catch (err) {
          failed++;
          io.err(`${err instanceof Error ? err.message : String(err)}\n`);
        }
      }
    } finally {
      net.dispose();
      await closeSecond(second);
      await gateThread?.close();
    }
    return failed > 0 ? 1 : 0;
  },
};
