/**
 * `drone-harness eval-real --real <dir> [--model student,teacher,...] [--models <root>] [--json]`
 * Issue 14 item 5: cell AP (32x32 grid at the photo's aspect) and F1 (5 px tolerance) per set of
 * real photographs, for the Sobel magnitude baseline computed in the same run and each detector
 * at the photo's native size (src/harness/eval/realPhotoMetrics.ts, detectNative.ts), with the
 * median detector time per photo.
 */
import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { encodeRgbPng, type RgbImage } from "../../harness/data/imageCodec";
import { averagePrecision } from "../../harness/eval/AveragePrecision";
import { realFigure, type FigureRow } from "../../harness/eval/realFigure";
import { initBackend } from "../../harness/backend";
import { detectAtScale, detectNative, withLineSupport } from "../../harness/eval/detectNative";
import { applyGate, COHERENCE_RADIUS, coherenceGateEdges, gateEdgesOf, sobelWithCoherence } from "../../harness/eval/edgeGate";
import { formatLineSupportSpec, type LineSupportSpec } from "../../harness/eval/lineSupport";
import type { WireNet } from "../../harness/eval/WireNet";
import { RealSetScore, nearWire, photoSamples, sobelMagnitudeMap } from "../../harness/eval/realPhotoMetrics";
import { textTable } from "../textTable";
import { lineSupportArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";
import { MODEL_CHOICES, loadWireNet } from "../loadWireNet";
import { listRealPhotos, loadRealPhoto } from "../realPhotoSet";

export const USAGE = `drone-harness eval-real --real <dir> [--model ${MODEL_CHOICES.join(",")}|<dir>,...] [--models <root>] [--line-support F:geo|F:ls,...] [--half-scale] [--edge-gate] [--coherence-gate [--coherence-radius R]] [--per-photo] [--json] [--figure <png>]

  --real    folder of NAME.jpg + NAME.mask.png (sub-folders are sets, e.g. PLDU, PLDM)
  --model   comma-separated detectors (default photo,student,teacher,corrected,old-teacher); Sobel is always scored.
            adapted was fine-tuned on the 85 dev photos: scored on them it is a training score, not a held-out one
  --models  models root (default models)
  --line-support  also score each detector's map rewritten by the line-support operator, one row per spec
            (src/harness/eval/lineSupport.ts: mean wire probability along the best straight segment of
            half-length F x the longer side of the cell grid; geo = sqrt(p x support), ls = support)
  --half-scale  also score each detector on the photo box-averaged to half its size (map interpolated
            back: row "<model> @1/2") and the per-pixel maximum of both scales (row "<model> max(1, 1/2)")
  --edge-gate  also score each detector's map gated by the photo's own edges: sqrt(p x min(1, Sobel / its 99th
            percentile)), row "<model> + edge gate" (src/harness/eval/edgeGate.ts; no training)
  --coherence-gate  also score each detector's map gated by the photo's coherent edges: the edge gate with
            Sobel replaced by Sobel x the structure tensor's coherence over 7x7 (1 on a straight edge or
            line, near 0 in foliage), row "<model> + coherence gate" (edgeGate.ts; no training)
  --coherence-radius  the structure tensor's window radius for --coherence-gate (default 3, the 7x7 of the
            rule in docs/results/coherence-gate-decision-rule.txt; other values are a sensitivity check)
  --per-photo  also print every photo's cell AP per method and each set's mean of them (the set rows
            pool all cells of a set, so a photo whose map is bright everywhere weighs on the others)
  --json    print the results as JSON
  --figure  write photo | ground truth | map of the first model's best and worst photo (per-photo cell AP) as a PNG;
            with --coherence-gate the map is the first model's coherence-gated one, else with --edge-gate its
            edge-gated one`;

export type RealEvalRow = { method: string; set: string; photos: number; ap: number; f1: number; precision: number; recall: number; chance: number; msPerPhoto: number };

/** One photo's cell AP per method (NaN where the photo has no wire cell). */
export type RealPhotoRow = { set: string; photo: string; wireCells: number; cells: number; ap: Record<string, number> };

type Args = { real: string; models: string; model: string[]; json: boolean; figure: string; lineSupport: LineSupportSpec[]; halfScale: boolean; perPhoto: boolean; edgeGate: boolean; coherenceGate: boolean; coherenceRadius: number };

function parseArgs(args: string[]): Args {
  const a: Args = { real: "", models: "models", model: ["photo", "student", "teacher", "corrected", "old-teacher"], json: false, figure: "", lineSupport: [], halfScale: false, perPhoto: false, edgeGate: false, coherenceGate: false, coherenceRadius: COHERENCE_RADIUS };
  for (let i = 0; i < args.length; i++) {
    const k = args[i] ?? "";
    switch (k) {
      case "--real":
        a.real = args[++i] ?? "";
        break;
      case "--models":
        a.models = args[++i] ?? "";
        break;
      case "--model":
        a.model = (args[++i] ?? "").split(",").filter((s) => s !== "");
        break;
      case "--json":
        a.json = true;
        break;
      case "--line-support":
        a.lineSupport = lineSupportArg(args[++i]);
        break;
      case "--half-scale":
        a.halfScale = true;
        break;
      case "--per-photo":
        a.perPhoto = true;
        break;
      case "--edge-gate":
        a.edgeGate = true;
        break;
      case "--coherence-gate":
        a.coherenceGate = true;
        break;
      case "--coherence-radius": {
        const v = args[++i] ?? "";
        a.coherenceRadius = Number(v);
        if (!/^[1-9][0-9]*$/.test(v) || a.coherenceRadius > 50) throw new UsageError(`--coherence-radius=${v || "(missing)"}, expected an integer from 1 to 50 (pixels)`);
        break;
      }
      case "--figure":
        a.figure = args[++i] ?? "";
        break;
      default:
        throw new UsageError(`unknown argument "${k}"`);
    }
  }
  if (a.real === "") throw new UsageError("--real <dir> is required");
  if (a.coherenceRadius !== COHERENCE_RADIUS && !a.coherenceGate) throw new UsageError("--coherence-radius needs --coherence-gate");
  return a;
}

/** The row name of a detector's coherence-gated map (its window radius named where it is not the rule's). */
function coherenceName(net: string, a: Args): string {
  return `${net} + coherence gate${a.coherenceRadius === COHERENCE_RADIUS ? "" : ` r=${a.coherenceRadius}`}`;
}

/** The row name of a detector's map with the line-support operator. */
function lineSupportName(net: string, spec: LineSupportSpec): string {
  return `${net} + line support ${formatLineSupportSpec(spec)}`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((x, y) => x - y);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]!;
}

/** Every method's wire map of one photo with its time in ms: Sobel, then per detector its native map and the --line-support and --half-scale rows. */
function photoMaps(nets: WireNet[], image: RgbImage, a: Args): [string, Float32Array, number][] {
  const { width: W, height: H } = image;
  const maps: [string, Float32Array, number][] = [];
  let t0 = performance.now();
  const sobel = sobelMagnitudeMap(image.rgb, W, H);
  const sobelMs = performance.now() - t0;
  maps.push(["sobel", sobel, sobelMs]);
  // The gates' edges and scales depend on the photo only: computed once, applied to every detector's map.
  t0 = performance.now();
  const edgeGated = a.edgeGate ? gateEdgesOf(sobel) : undefined;
  const edgeMs = performance.now() - t0;
  t0 = performance.now();
  // Its own gradient pass, as in detect: the row's time is what the coherence gate costs alone.
  const withCoherence = a.coherenceGate ? sobelWithCoherence(image.rgb, W, H, a.coherenceRadius) : undefined;
  const coherent = withCoherence === undefined ? undefined : coherenceGateEdges(withCoherence.sobel, withCoherence.coherence);
  const coherenceMs = performance.now() - t0;
  for (const net of nets) {
    t0 = performance.now();
    const r = detectNative(net, image);
    const detectorMs = performance.now() - t0;
    maps.push([net.name, r.map, detectorMs]);
    if (edgeGated !== undefined) {
      const t1 = performance.now();
      const gated = applyGate(r.map, edgeGated);
      maps.push([`${net.name} + edge gate`, gated, detectorMs + sobelMs + edgeMs + performance.now() - t1]);
    }
    if (coherent !== undefined) {
      const t1 = performance.now();
      const gated = applyGate(r.map, coherent);
      maps.push([coherenceName(net.name, a), gated, detectorMs + coherenceMs + performance.now() - t1]);
    }
    for (const spec of a.lineSupport) {
      // Timed as the detector plus the operator: what detect --line-support costs per photo.
      const t1 = performance.now();
      const ls = withLineSupport(r, spec);
      maps.push([lineSupportName(net.name, spec), ls.map, detectorMs + performance.now() - t1]);
    }
    if (a.halfScale) {
      const t1 = performance.now();
      const half = detectAtScale(net, image, 2);
      const halfMs = performance.now() - t1;
      const both = new Float32Array(half.length);
      for (let j = 0; j < both.length; j++) both[j] = Math.max(r.map[j]!, half[j]!);
      maps.push([`${net.name} @1/2`, half, halfMs], [`${net.name} max(1, 1/2)`, both, detectorMs + halfMs]);
    }
  }
  return maps;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseArgs(args);
    const refs = listRealPhotos(a.real);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const nets = [];
    for (const m of a.model) nets.push(await loadWireNet(m, a.models));
    const scaleRows = (net: string): string[] => (a.halfScale ? [`${net} @1/2`, `${net} max(1, 1/2)`] : []);
    const methods = ["sobel", ...nets.flatMap((n) => [n.name, ...(a.edgeGate ? [`${n.name} + edge gate`] : []), ...(a.coherenceGate ? [coherenceName(n.name, a)] : []), ...a.lineSupport.map((s) => lineSupportName(n.name, s)), ...scaleRows(n.name)])];
    const scores = new Map<string, RealSetScore>();
    const times = new Map<string, number[]>();
    const key = (method: string, set: string): string => `${method}\u0000${set}`;
    const sets = [...new Set(refs.map((r) => r.set))];
    type Row = { ap: number; name: string } & FigureRow;
    let best: Row | undefined;
    let worst: Row | undefined;
    const first = nets[0]?.name ?? "";
    const figureMethod = a.coherenceGate ? coherenceName(first, a) : a.edgeGate ? `${first} + edge gate` : first;
    const photoRows: RealPhotoRow[] = [];
    for (const [i, ref] of refs.entries()) {
      const p = loadRealPhoto(ref);
      const { width: W, height: H } = p.image;
      const maps = photoMaps(nets, p.image, a);
      const near = nearWire(p.wire, W, H);
      const photoRow: RealPhotoRow = { set: ref.set, photo: ref.name, wireCells: 0, cells: 0, ap: {} };
      for (const [m, [method, map, ms]] of maps.entries()) {
        const samples = photoSamples(map, p.wire, W, H, { near });
        const ap = m === 1 || a.perPhoto || method === figureMethod ? averagePrecision({ scores: samples.cellScores, labels: samples.cellLabels }) : Number.NaN;
        photoRow.ap[method] = ap;
        if (m === 0) {
          // The cell labels are the photo's, the same for every method.
          photoRow.cells = samples.cellLabels.length;
          photoRow.wireCells = samples.cellLabels.reduce((s, l) => s + l, 0);
        }
        if (method === figureMethod) {
          // The first model's best and worst photo by its own cell AP (its gated map's with a gate), for --figure.
          const row = { ap, name: `${ref.set}/${ref.name}`, image: p.image, wire: p.wire, map };
          if (Number.isFinite(ap) && (best === undefined || ap > best.ap)) best = row;
          if (Number.isFinite(ap) && (worst === undefined || ap < worst.ap)) worst = row;
        }
        for (const set of [ref.set, "all"]) {
          const k = key(method, set);
          if (!scores.has(k)) scores.set(k, new RealSetScore());
          scores.get(k)?.addSamples(samples);
        }
        times.set(method, [...(times.get(method) ?? []), ms]);
      }
      if (a.perPhoto) photoRows.push(photoRow);
      if (!a.json) io.err(`\r${i + 1}/${refs.length} photos`);
    }
    if (!a.json) io.err("\n");
    for (const n of nets) n.dispose();
    const rows: RealEvalRow[] = [];
    for (const method of methods) {
      for (const set of [...sets, "all"]) {
        const r = scores.get(key(method, set))?.result();
        if (r !== undefined) rows.push({ method, set, photos: r.photos, ap: r.ap, f1: r.f1, precision: r.precision, recall: r.recall, chance: r.chance, msPerPhoto: median(times.get(method) ?? []) });
      }
    }
    if (a.figure !== "" && best !== undefined && worst !== undefined) {
      fs.writeFileSync(a.figure, encodeRgbPng(realFigure([best, worst])));
      io.err(`${a.figure}: ${figureMethod}: best ${best.name} (cell AP ${best.ap.toFixed(3)}), worst ${worst.name} (cell AP ${worst.ap.toFixed(3)})\n`);
    }
    if (a.json) {
      io.out(`${JSON.stringify({ real: a.real, grid: 32, tolerancePx: 5, rows, ...(a.perPhoto ? { photos: photoRows } : {}) }, null, 2)}\n`);
      return 0;
    }
    io.out(`real photographs: ${a.real} (${refs.length} photos; cell AP on a 32x32 grid at the photo's aspect, F1 at the best threshold with 5 px tolerance)\n`);
    io.out(
      textTable(
        ["method", "set", "photos", "cell AP", "F1", "P", "R", "chance AP", "median ms/photo"],
        rows.map((r) => [r.method, r.set, String(r.photos), r.ap.toFixed(3), r.f1.toFixed(3), r.precision.toFixed(3), r.recall.toFixed(3), r.chance.toFixed(3), r.msPerPhoto.toFixed(1)]),
      ),
    );
    if (a.perPhoto) io.out(perPhotoTables(photoRows, methods, sets));
    return 0;
  },
};

/**
 * The --per-photo text: one table of cell AP per photo (methods as columns, numbered in a legend,
 * as their names are paths), then each set's mean of the per-photo APs over its photos with a wire cell.
 */
export function perPhotoTables(photoRows: readonly RealPhotoRow[], methods: readonly string[], sets: readonly string[]): string {
  const fmt = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? "-" : v.toFixed(3));
  const legend = methods.map((m, k) => `  [${k + 1}] ${m}\n`).join("");
  const cols = methods.map((_, k) => `[${k + 1}]`);
  const perPhoto = textTable(
    ["set", "photo", "wire cells", ...cols],
    photoRows.map((r) => [r.set, r.photo, `${r.wireCells}/${r.cells}`, ...methods.map((m) => fmt(r.ap[m]))]),
  );
  const means = textTable(
    ["set", "photos", ...cols],
    sets.map((set) => {
      const rows = photoRows.filter((r) => r.set === set);
      const mean = (m: string): number => {
        const v = rows.map((r) => r.ap[m] ?? Number.NaN).filter(Number.isFinite);
        return v.length === 0 ? Number.NaN : v.reduce((x, y) => x + y, 0) / v.length;
      };
      return [set, String(rows.length), ...methods.map((m) => fmt(mean(m)))];
    }),
  );
  return `\nper-photo cell AP (same grid; methods:)\n${legend}${perPhoto}\nmean of the per-photo cell APs\n${means}`;
}
