/**
 * `npm run bench -- detect` (issue 14: `detect` <= 40 ms per 540x360 photo after start-up): the
 * detector time per real photo, split into its stages, for the committed student and teacher
 * (models/pipeline/), on a fixed subset of the dev photos (../shared/fixtures/real/pld-dev: up to
 * 10 landscape 540x360 and 10 portrait 360x540, alternating). For each model the optimised path
 * (src/harness/eval/detectNative.ts on Teacher.infer) and the plain path it replaced
 * (bench/detectNativeReference.ts on Teacher.forward) run on the same photos in the same process,
 * alternately, so their ratio holds on a busy machine; the largest map difference between them is
 * printed (must stay <= 1e-5). Then: does alternating photo shapes cost (wasm/XNNPACK set-up per
 * input shape), and the whole per-photo `detect` path (JPEG decode, detection, Detection2D list,
 * PNG + JSON writing) so the printed per-image time (the detection stage) reads in context.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { detectPhoto, detectWithSecond, type DetectSecond, type PhotoGate } from "../src/cli/commands/detect";
import { GateThread } from "../src/harness/data/node/gateThread";
import { WireNetThread } from "../src/harness/data/node/wireNetThread";
import { initBackend } from "../src/harness/backend";
import { decodeImage, type RgbImage } from "../src/harness/data/imageCodec";
import { detectNative, type DetectStageTimes, type NativeDetection } from "../src/harness/eval/detectNative";
import { percentile } from "../src/harness/eval/Percentiles";
import { teacherWireNet, type WireNet } from "../src/harness/eval/WireNet";
import { loadTeacher } from "../src/harness/modelfile";
import { detectNativeReference } from "./detectNativeReference";

const DEV = path.resolve("..", "shared", "fixtures", "real", "pld-dev");
const PER_ORIENTATION = 10;
const ROUNDS = 3;

type Photo = { file: string; image: RgbImage };
type Detect = (net: WireNet, image: RgbImage, times: DetectStageTimes) => NativeDetection;
type Samples = { input: number[]; forward: number[]; readback: number[]; map: number[]; total: number[] };

/** Up to PER_ORIENTATION landscape and portrait photos, alternating, in file-name order. */
function pickPhotos(): Photo[] {
  const files = ["PLDU", "PLDM"].flatMap((d) => {
    const dir = path.join(DEV, d);
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".jpg")).sort().map((f) => path.join(dir, f)) : [];
  });
  const photos = files.map((file) => ({ file, image: decodeImage(fs.readFileSync(file), file) }));
  const land = photos.filter((p) => p.image.width > p.image.height).slice(0, PER_ORIENTATION);
  const port = photos.filter((p) => p.image.width <= p.image.height).slice(0, PER_ORIENTATION);
  const out: Photo[] = [];
  for (let i = 0; i < Math.max(land.length, port.length); i++) out.push(...[land[i], port[i]].filter((p): p is Photo => p !== undefined));
  return out;
}

function emptySamples(): Samples {
  return { input: [], forward: [], readback: [], map: [], total: [] };
}

function record(s: Samples, t: DetectStageTimes, total: number): void {
  s.input.push(t.inputMs);
  s.forward.push(t.forwardMs);
  s.readback.push(t.readbackMs);
  s.map.push(t.mapMs);
  s.total.push(total);
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

const fmt = (v: number[]): string => `${percentile(v, 50).toFixed(1)} / ${percentile(v, 90).toFixed(1)}`;

/** Plain and optimised paths on every photo, alternating which goes first; returns the samples and the largest map difference. */
function compare(plain: WireNet, fast: WireNet, photos: Photo[]): { ref: Samples; opt: Samples; maxDiff: number } {
  const ref = emptySamples();
  const opt = emptySamples();
  const t: DetectStageTimes = { inputMs: 0, forwardMs: 0, readbackMs: 0, mapMs: 0 };
  const runs: [Detect, WireNet, Samples][] = [
    [detectNativeReference, plain, ref],
    [detectNative, fast, opt],
  ];
  let maxDiff = 0;
  for (const p of photos) for (const [fn, net] of runs) fn(net, p.image, t); // warm-up: every shape, both paths
  for (let round = 0; round < ROUNDS; round++) {
    photos.forEach((p, i) => {
      const order = (i + round) % 2 === 0 ? runs : [...runs].reverse();
      const maps: Float32Array[] = [];
      for (const [fn, net, s] of order) {
        const t0 = performance.now();
        const r = fn(net, p.image, t);
        record(s, t, performance.now() - t0);
        maps.push(r.map);
      }
      maxDiff = Math.max(maxDiff, maxAbsDiff(maps[0]!, maps[1]!));
    });
  }
  return { ref, opt, maxDiff };
}

async function stageTable(photos: Photo[], print: (line: string) => void): Promise<void> {
  print(`| model | path | input (pad + imageInputFromRgb8) | forward (tf) | readback + softmax | map | total | total vs plain (p50) |`);
  print(`|---|---|---|---|---|---|---|---|`);
  for (const size of ["student", "teacher"] as const) {
    const dir = path.join("models", "pipeline", size);
    if (!fs.existsSync(path.join(dir, "teacher.model.json"))) {
      print(`| ${size} | skipped: no ${dir}/teacher.model.json |`);
      continue;
    }
    const teacher = (await loadTeacher(dir)).model;
    const fast = teacherWireNet(teacher, size, { frozen: true });
    const { ref, opt, maxDiff } = compare(teacherWireNet(teacher, size, { fused: false }), fast, photos);
    const ratio = percentile(opt.total, 50) / percentile(ref.total, 50);
    print(`| ${size} | plain (before) | ${fmt(ref.input)} | ${fmt(ref.forward)} | ${fmt(ref.readback)} | ${fmt(ref.map)} | ${fmt(ref.total)} | 1 |`);
    print(`| ${size} | optimised | ${fmt(opt.input)} | ${fmt(opt.forward)} | ${fmt(opt.readback)} | ${fmt(opt.map)} | ${fmt(opt.total)} | ${ratio.toFixed(2)} |`);
    print(`  ${size}: max |map difference| over ${photos.length} photos x ${ROUNDS} rounds = ${maxDiff.toExponential(2)} (limit 1e-5)`);
    fast.dispose(); // its snapshots and the teacher
  }
}

/**
 * The student's forward time with photos in shape blocks (all landscape, then all portrait) and
 * alternating, without and with the per-shape weight snapshots (TeacherWireNetOptions.frozen).
 */
async function shapeSwitching(photos: Photo[], print: (line: string) => void): Promise<void> {
  const teacher = (await loadTeacher(path.join("models", "pipeline", "student"))).model;
  const nets: [string, WireNet][] = [
    ["one weight copy", teacherWireNet(teacher, "student")],
    ["a weight copy per shape", teacherWireNet(teacher, "student", { frozen: true })],
  ];
  const t: DetectStageTimes = { inputMs: 0, forwardMs: 0, readbackMs: 0, mapMs: 0 };
  const blocks = [...photos].sort((a, b) => a.image.width - b.image.width);
  const orders: [string, Photo[]][] = [
    ["alternating shapes", photos],
    ["one shape after another", blocks],
  ];
  const fwd = new Map<string, number[]>();
  for (const [n] of nets) for (const [o] of orders) fwd.set(`${n}, ${o}`, []);
  for (const [, net] of nets) for (const p of photos) detectNative(net, p.image, t);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [o, order] of orders) {
      for (const p of order) {
        for (const [n, net] of nets) {
          detectNative(net, p.image, t);
          fwd.get(`${n}, ${o}`)!.push(t.forwardMs);
        }
      }
    }
  }
  print(`| student forward, p50 / p90 ms | ${orders.map(([o]) => o).join(" | ")} |`);
  print(`|---|---|---|`);
  for (const [n] of nets) print(`| ${n} | ${orders.map(([o]) => fmt(fwd.get(`${n}, ${o}`)!)).join(" | ")} |`);
  nets[1]![1].dispose(); // its snapshots and the teacher, which the other net shares
}

/**
 * detect's per-photo path (detectPhoto) with the student, into a temporary folder: plain, with
 * --edge-gate (Sobel, its 99th percentile and the gate on the map) and with --coherence-gate (Sobel
 * and the structure tensor's coherence in one pass, then the gate), each gate in the calling thread
 * (--threads 1) and with its edges on a GateThread beside the network (what detect does), interleaved
 * per photo with the order rotating, so the five rows come from one run.
 */
async function wholePath(photos: Photo[], print: (line: string) => void): Promise<void> {
  const teacher = (await loadTeacher(path.join("models", "pipeline", "student"))).model;
  const net = teacherWireNet(teacher, "student", { frozen: true });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "detect-bench-"));
  const stages = (): Record<"decode" | "detect" | "detections" | "write" | "total", number[]> => ({ decode: [], detect: [], detections: [], write: [], total: [] });
  const gateThread = await GateThread.start("bench gate edges");
  const rows: [string, PhotoGate, GateThread | undefined, ReturnType<typeof stages>][] = [
    ["student", "none", undefined, stages()],
    ["student, --edge-gate --threads 1", "edge", undefined, stages()],
    ["student, --coherence-gate --threads 1", "coherence", undefined, stages()],
    ["student, --edge-gate (edges on a second thread)", "edge", gateThread, stages()],
    ["student, --coherence-gate (edges on a second thread)", "coherence", gateThread, stages()],
  ];
  try {
    // warm-up, the gate thread's code included ("after start-up": its first photos compile the gate's loops)
    for (const p of photos) for (const gate of ["none", "edge", "coherence"] as const) await detectPhoto(net, p.file, out, 0.5, { gate, gateThread });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [k, p] of photos.entries()) {
        const shift = (round + k) % rows.length;
        for (const [, gate, thread, s] of [...rows.slice(shift), ...rows.slice(0, shift)]) {
          const t0 = performance.now();
          const { times } = await detectPhoto(net, p.file, out, 0.5, { gate, gateThread: thread });
          s.total.push(performance.now() - t0);
          s.decode.push(times.decodeMs);
          s.detect.push(times.detectMs);
          s.detections.push(times.detectionsMs);
          s.write.push(times.writeMs);
        }
      }
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    net.dispose();
    await gateThread.close();
  }
  print(`| detect per photo, p50 / p90 ms | read + JPEG decode | detection (printed) | Detection2D list | PNG + JSON write | whole |`);
  print(`|---|---|---|---|---|---|`);
  for (const [name, , , s] of rows) print(`| ${name} | ${fmt(s.decode)} | ${fmt(s.detect)} | ${fmt(s.detections)} | ${fmt(s.write)} | ${fmt(s.total)} |`);
}

/**
 * `detect --partner` (the two-network ensemble) and `detect --tta flip`: one network in one
 * thread, one network with the flip average's mirrored pass on a worker thread (what detect does
 * by default), two networks one after the other in this thread, and two with the partner on a
 * worker thread (what detect does), with and without the flip average; interleaved per photo,
 * the order rotating, so the ratios come from one run.
 */
async function ensembleTimes(photos: Photo[], print: (line: string) => void): Promise<void> {
  const dirs = [path.join("models", "photo", "student"), path.join("models", "pipeline", "student")];
  if (!dirs.every((d) => fs.existsSync(path.join(d, "teacher.model.json")))) {
    print(`ensemble: skipped (${dirs.join(" and ")} needed)`);
    return;
  }
  const [a, b] = await Promise.all(dirs.map(async (d) => teacherWireNet((await loadTeacher(d)).model, d, { frozen: true })));
  const thread = await WireNetThread.start(dirs[1]!);
  const mirror = await WireNetThread.start(dirs[0]!);
  // [name, what runs besides the first pass, flip settings measured]
  const variants: [string, DetectSecond | undefined, boolean[]][] = [
    ["one network, one thread (--threads 1)", undefined, [false, true]],
    ["one network, the mirrored pass on a worker thread (detect --tta flip)", { mirror }, [true]],
    ["two networks, one after the other (--partner --threads 1)", { partner: b! }, [false, true]],
    ["two networks, the partner on a worker thread (detect --partner)", { partner: thread }, [false, true]],
  ];
  const times = new Map<string, number[]>();
  try {
    for (const p of photos) for (const [, second, flips] of variants) for (const flip of flips) await detectWithSecond(a!, p.image, flip, second); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, p] of photos.entries()) {
        const k = (i + round) % variants.length;
        for (const [name, second, flips] of [...variants.slice(k), ...variants.slice(0, k)]) {
          for (const flip of flips) {
            const t0 = performance.now();
            await detectWithSecond(a!, p.image, flip, second);
            const key = `${name}${flip ? ", --tta flip" : ""}`;
            if (!times.has(key)) times.set(key, []);
            times.get(key)!.push(performance.now() - t0);
          }
        }
      }
    }
  } finally {
    await thread.close();
    await mirror.close();
    a!.dispose();
    b!.dispose();
  }
  const one = percentile(times.get(variants[0]![0])!, 50);
  const cell = (key: string): string => (times.has(key) ? `${fmt(times.get(key)!)} (${(percentile(times.get(key)!, 50) / one).toFixed(2)}x)` : "-");
  print(`| detect per photo, p50 / p90 ms (p50 over one network's) | plain | --tta flip |`);
  print(`|---|---|---|`);
  for (const [name] of variants) print(`| ${name} | ${cell(name)} | ${cell(`${name}, --tta flip`)} |`);
}

export async function run(print: (line: string) => void): Promise<void> {
  if (!fs.existsSync(DEV)) {
    print(`skipped: ${DEV} is absent (the dev photos of ../shared/fixtures/real/pld-dev)`);
    return;
  }
  const backend = await initBackend();
  const photos = pickPhotos();
  const shapes = new Set(photos.map((p) => `${p.image.width}x${p.image.height}`));
  print(`backend ${backend.name}${backend.simd ? " (simd)" : ""}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ${photos.length} photos (${[...shapes].join(", ")}), ${ROUNDS} rounds; p50 / p90 ms per photo`);
  await stageTable(photos, print);
  print("");
  await shapeSwitching(photos, print);
  print("");
  await wholePath(photos, print);
  print("");
  await ensembleTimes(photos, print);
  print(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}
