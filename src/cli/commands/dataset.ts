/**
 * `drone-harness dataset --scenario <yaml|name> --split train|val --flights N --cache <dir>
 *  [--workers N] [--record-every N] [--frames-per-flight N] [--explore X] [--pre-collision S] [--rng-seed N]`
 * The data stage of the staged training (issue 12 item 5): expert flights on the first N seeds of
 * a split, recorded with the visible-only masks and near-threat cells into a frame cache on disk,
 * on worker threads (both cores by default). A rerun resumes: flights already cached are skipped.
 * `--perturbed` (val only) flies the scenario's perturbation block, the shift of the perturbed rows.
 * `--views overhead` renders camera poses above each seed's wires looking down at them instead of
 * flying (src/harness/data/generateViews.ts; issue 14 item 2), for detector training only.
 * `--views composite --textures <dir>` draws wires over the photographed ground textures of <dir>
 * instead (datasetComposite.ts, src/harness/data/textureComposites.ts); no scenario is flown.
 * `--composite-thick-share S` draws that share of the conductors 4-10 px wide and
 * `--composite-paving P` lays a paving lattice under a frame with probability P (both 0 by default).
 */
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { generateFramesParallel } from "../../harness/data/node/generateFramesParallel";
import { SeedSource, type Split } from "../../harness/data/SeedSplit";
import { DEFAULT_VIEWS } from "../../harness/data/simViews";
import { STATE_DIM } from "../../harness/models/stateVector";
import { intArg, numberArg } from "../args";
import { compositeOptions, writeComposites } from "./datasetComposite";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE =
  "drone-harness dataset --scenario <yaml|name> --split train|val --flights N --cache <dir> [--workers N] [--record-every N] " +
  "[--frames-per-flight N] [--explore X] [--pre-collision S] [--rng-seed N] [--control-period S] [--pilot-detector <fit model dir> [--pilot-harness <spatial harness dir> [--region-clip X]]] [--first-seed N] [--perturbed] " +
  "[--views overhead [--views-per-world N] [--views-wire-scale MIN,MAX]] | --views composite --textures <dir> [--textures-max-side PX] [--composite-thick-share S] [--composite-paving P] --flights N --cache <dir> [--views-per-world N] [--rng-seed N] [--first-seed N]";

export type DatasetArgs = {
  scenario: string;
  split: Split;
  flights: number;
  cache: string;
  workers: number;
  recordEvery: number;
  framesPerFlight: number;
  explore: number;
  preCollision_s: number;
  rngSeed: number;
  controlPeriod_s: number;
  pilotDetector?: string;
  /** A spatial harness applied to the pilot detector's cells while it flies (co-evolution rounds). */
  pilotHarness?: string;
  regionClip?: number;
  firstSeed: number;
  /** Overhead views per world instead of flights (generateViews.ts); 0 = flights. */
  viewsPerWorld: number;
  /** Fly the scenario's perturbation block (the robustness shift of the perturbed rows); val only. */
  perturbed: boolean;
  /** Conductor radius multiplier range of the views (ViewOptions.wireRadiusScale). */
  viewsWireScale: [number, number];
  /** `--views composite`: the directory of ground texture images (no scenario is flown). */
  textures?: string;
  /** Longer side the textures are scaled down to. */
  texturesMaxSide: number;
  /** `--views composite`: share of thick (4-10 px) conductors and probability of a paving lattice per frame. */
  compositeThickShare: number;
  compositePaving: number;
};

export function parseDatasetArgs(args: string[]): DatasetArgs {
  const out: DatasetArgs = { scenario: "", split: "train", flights: 0, cache: "", workers: 2, recordEvery: 4, framesPerFlight: 40, explore: 0.2, preCollision_s: 3, rngSeed: 1, controlPeriod_s: 0.25, firstSeed: 0, viewsPerWorld: 0, perturbed: false, viewsWireScale: [...DEFAULT_VIEWS.wireRadiusScale], texturesMaxSide: 1024, compositeThickShare: 0, compositePaving: 0 };
  let compositeOnly = false;
  let views = false;
  let composite = false;
  let wireScale = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--scenario": out.scenario = args[++i] ?? ""; break;
      case "--cache": out.cache = args[++i] ?? ""; break;
      case "--split": {
        const v = args[++i];
        if (v !== "train" && v !== "val") throw new UsageError(`--split=${v ?? "(missing)"}, expected train or val (test seeds are for evaluation only)`);
        out.split = v;
        break;
      }
      case "--flights": out.flights = intArg(a, args[++i], 1); break;
      case "--workers": out.workers = intArg(a, args[++i], 1); break;
      case "--record-every": out.recordEvery = intArg(a, args[++i], 1); break;
      case "--frames-per-flight": out.framesPerFlight = intArg(a, args[++i], 1); break;
      case "--rng-seed": out.rngSeed = intArg(a, args[++i], 0); break;
      case "--explore": out.explore = numberArg(a, args[++i], 0, 1); break;
      case "--pre-collision": out.preCollision_s = numberArg(a, args[++i], 0, 10); break;
      case "--control-period": out.controlPeriod_s = numberArg(a, args[++i], 0.01, 1); break;
      case "--pilot-detector": out.pilotDetector = args[++i] ?? ""; break;
      case "--pilot-harness": out.pilotHarness = args[++i] ?? ""; break;
      case "--region-clip": out.regionClip = numberArg(a, args[++i], 1e-3, 100); break;
      case "--first-seed": out.firstSeed = intArg(a, args[++i], 0); break;
      case "--perturbed": out.perturbed = true; break;
      case "--views": {
        const v = args[++i];
        if (v !== "overhead" && v !== "composite") throw new UsageError(`--views=${v ?? "(missing)"}, expected overhead or composite`);
        views = true;
        composite = v === "composite";
        break;
      }
      case "--views-per-world": out.viewsPerWorld = intArg(a, args[++i], 1); break;
      case "--views-wire-scale": out.viewsWireScale = scaleRange(args[++i]); wireScale = true; break;
      case "--textures": out.textures = args[++i] ?? ""; break;
      case "--textures-max-side": out.texturesMaxSide = intArg(a, args[++i], 16); break;
      case "--composite-thick-share": out.compositeThickShare = numberArg(a, args[++i], 0, 1); compositeOnly = true; break;
      case "--composite-paving": out.compositePaving = numberArg(a, args[++i], 0, 1); compositeOnly = true; break;
      default: throw new UsageError(`unknown argument "${a}"`);
    }
  }
  if (composite) return compositeArgs(out, wireScale);
  if (out.textures !== undefined) throw new UsageError("--textures is the background of --views composite: give --views composite too");
  if (compositeOnly) throw new UsageError("--composite-thick-share and --composite-paving shape the frames of --views composite: give --views composite --textures <dir> too");
  if (out.scenario === "") throw new UsageError("--scenario is required");
  if (out.cache === "") throw new UsageError("--cache is required");
  if (out.flights === 0) throw new UsageError("--flights is required");
  if ((out.viewsPerWorld > 0 || wireScale) && !views) throw new UsageError("--views-per-world and --views-wire-scale need --views overhead");
  if (views && out.pilotDetector !== undefined) throw new UsageError("--views overhead renders views, it flies no pilot: drop --pilot-detector");
  if (out.pilotHarness !== undefined && out.pilotDetector === undefined) throw new UsageError("--pilot-harness corrects the pilot detector's cells: give --pilot-detector too");
  if (out.regionClip !== undefined && out.pilotHarness === undefined) throw new UsageError("--region-clip is the clip of the applied harness: give --pilot-harness too");
  if (out.perturbed && out.split !== "val") throw new UsageError("--perturbed records the robustness shift of the perturbed evaluation rows: validation only (--split val), so training never sees it");
  if (out.perturbed && views) throw new UsageError("--perturbed flies the perturbed scenario: drop --views overhead");
  if (views && out.viewsPerWorld === 0) out.viewsPerWorld = DEFAULT_VIEWS.perWorld;
  return out;
}

/** The checks of `--views composite` (no scenario, no pilot, train split). */
function compositeArgs(out: DatasetArgs, wireScale: boolean): DatasetArgs {
  if (out.textures === undefined || out.textures === "") throw new UsageError("--views composite needs --textures <dir of ground texture images>");
  if (out.scenario !== "") throw new UsageError("--views composite flies no scenario: drop --scenario");
  if (out.cache === "") throw new UsageError("--cache is required");
  if (out.flights === 0) throw new UsageError("--flights is required (groups of --views-per-world composite frames)");
  if (out.split !== "train") throw new UsageError("--views composite is training data: --split train only");
  if (wireScale || out.pilotDetector !== undefined || out.perturbed) throw new UsageError("--views composite draws its own wires: drop --views-wire-scale, --pilot-detector and --perturbed");
  if (out.viewsPerWorld === 0) out.viewsPerWorld = DEFAULT_VIEWS.perWorld;
  return out;
}

/** "MIN,MAX" with 0 < MIN <= MAX <= 10. */
function scaleRange(text: string | undefined): [number, number] {
  const parts = (text ?? "").split(",").map(Number);
  const [lo = NaN, hi = NaN] = parts;
  if (parts.length !== 2 || !(lo > 0 && lo <= hi && hi <= 10)) throw new UsageError(`--views-wire-scale=${text ?? "(missing)"}, expected MIN,MAX with 0 < MIN <= MAX <= 10`);
  return [lo, hi];
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseDatasetArgs(args);
    if (a.textures !== undefined) {
      const seeds = new SeedSource("train", splitOfSeed).seeds(a.flights, a.firstSeed);
      const options = compositeOptions(a.compositeThickShare, a.compositePaving);
      const r = writeComposites({ textures: a.textures, maxSide: a.texturesMaxSide, seeds, perGroup: a.viewsPerWorld, cache: a.cache, rngSeed: a.rngSeed, options }, io);
      io.out(`dataset: wrote ${r.frames} composite frames (${r.skipped} groups already cached); cache ${a.cache}\n`);
      return 0;
    }
    const scenario = loadScenarioFile(a.scenario);
    const seeds = new SeedSource(a.split, splitOfSeed).seeds(a.flights, a.firstSeed);
    io.err(`dataset: ${a.flights} ${a.split} flights of ${scenario.name} (${a.viewsPerWorld > 0 ? `${a.viewsPerWorld} overhead views per world` : a.pilotDetector === undefined ? "expert pilot" : `planner on ${a.pilotDetector}${a.pilotHarness === undefined ? "" : ` + harness ${a.pilotHarness}`}`}) -> ${a.cache}, ${a.workers} worker(s)\n`);
    let last = 0;
    const r = await generateFramesParallel({
      scenario,
      split: a.split,
      seeds,
      controlPeriod_s: a.controlPeriod_s,
      stateDim: STATE_DIM,
      cacheDir: a.cache,
      workers: a.workers,
      ...(a.pilotDetector === undefined ? {} : { pilotDetector: a.pilotDetector }),
      ...(a.pilotHarness === undefined ? {} : { pilotHarness: { dir: a.pilotHarness, ...(a.regionClip === undefined ? {} : { regionClip: a.regionClip }) } }),
      ...(a.viewsPerWorld === 0 ? {} : { views: { ...DEFAULT_VIEWS, perWorld: a.viewsPerWorld, wireRadiusScale: a.viewsWireScale } }),
      recording: { recordEvery: a.recordEvery, maxFramesPerFlight: a.framesPerFlight, explore: a.explore, rngSeed: a.rngSeed, preCollision_s: a.preCollision_s, ...(a.perturbed ? { perturbed: true } : {}) },
      onProgress: (p) => {
        const now = performance.now();
        if (now - last < 2000 && p.done < p.total) return;
        last = now;
        io.err(`dataset: ${p.done}/${p.total} flights, ${p.frames} frames, ${p.elapsed_s.toFixed(0)} s, ETA ${Number.isFinite(p.eta_s) ? p.eta_s.toFixed(0) : "?"} s\n`);
      },
    });
    io.out(`dataset: flew ${r.flown} flights (${r.skipped} already cached), ${r.frames} frames in ${r.elapsed_s.toFixed(1)} s on ${r.workers} worker(s); cache ${a.cache}\n`);
    return 0;
  },
};
