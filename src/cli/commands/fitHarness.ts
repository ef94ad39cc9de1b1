/**
 * `drone-harness fit-harness --detector <dir> --scenario <yaml> --flights N --val-flights N --out <dir>
 *  [--harness <dir>] [--init <dir>] [--first-seed N] [--val-first-seed N] [--workers N] [--steps N]
 *  [--batch N] [--lr X] [--record-every N] [--horizon N] [--risk-target collision|contact|wire-contact|wire-gap] [--region-clip X]
 *  [--hidden1 N --hidden2 N] [--rollout-cache <dir>]`
 * The harness phase of one co-evolution round (issue 13 item 3): the student detector (frozen)
 * + the planner (+ the harness of the previous round, `--harness`, applied) fly train-split
 * seeds on worker threads; the visited frames give the harness's inputs, S_gt by finite
 * differences and the region risk targets from the 10-step (2.5 s) rollouts; the spatial harness
 * is trained on them (from `--init` or `--harness` weights when given, else fresh; fresh with the
 * widths `--hidden1` / `--hidden2` when those are given) and validated
 * on rollouts of val-split seeds. Writes <out>/spatial_harness.{model.json,weights.bin} and
 * <out>/fit-harness.json (command, flight outcomes, sample counts, curve, final validation).
 * With `--rollout-cache <dir>` every flown rollout is kept there (data/node/RolloutCacheDir.ts) and
 * a later run with the same detector, applied harness, scenario and recording settings reads it
 * instead of flying it again: same samples bit for bit, so the same harness.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { flySpatialRolloutsParallel, type SpatialRolloutJob } from "../../harness/data/node/spatialRolloutsParallel";
import { fileDigest, modelDirDigest, RolloutCacheDir, type RolloutCacheManifest } from "../../harness/data/node/RolloutCacheDir";
import { SeedSource } from "../../harness/data/SeedSplit";
import { splitOfSeed } from "../../../sim";
import { loadSpatialHarness, saveModel } from "../../harness/modelfile";
import { SpatialHarness } from "../../harness/spatial/SpatialHarness";
import type { RiskTarget, SpatialFlight } from "../../harness/spatial/spatialRollouts";
import { predictSensitivities, trainSpatialHarness, validateSpatialHarness } from "../../harness/spatial/trainSpatialHarness";
import { targetShare, type TargetShare } from "../../harness/spatial/targetShare";
import { DETECTOR_CELL_PX } from "../../harness/runtime/DetectorRuntime";
import { intArg, numberArg, valueArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE =
  "drone-harness fit-harness --detector <fit dir> --scenario <yaml> --flights N --val-flights N --out <dir> [--harness <dir>] [--init <dir>] " +
  "[--first-seed N] [--val-first-seed N] [--workers N] [--steps N] [--batch N] [--lr X] [--record-every N] [--horizon N] [--risk-target collision|contact|wire-contact|wire-gap] [--region-clip X] [--control-period S] " +
  "[--hidden1 N] [--hidden2 N] [--rollout-cache <dir>]";

type Args = {
  detector: string; scenario: string; flights: number; valFlights: number; out: string; harness?: string; init?: string;
  firstSeed: number; valFirstSeed: number; workers: number; steps: number; batch: number; lr: number; recordEvery: number; horizon: number; riskTarget: RiskTarget; controlPeriod_s: number; regionClip?: number;
  /** Widths of a fresh harness (SpatialHarnessConfig hidden1 / hidden2); with them the harness does not start from --init or --harness. */
  hidden1?: number; hidden2?: number;
  /** Where flown rollouts are kept and read back (RolloutCacheDir). */
  rolloutCache?: string;
};

export function parseFitHarnessArgs(args: readonly string[]): Args {
  const a: Args = { detector: "", scenario: "", flights: 0, valFlights: 0, out: "", firstSeed: 0, valFirstSeed: 0, workers: 2, steps: 1500, batch: 16, lr: 0.01, recordEvery: 2, horizon: 10, riskTarget: "collision", controlPeriod_s: 0.25 };
  for (let i = 0; i < args.length; i++) {
    const f = args[i] ?? "";
    const v = (): string => valueArg(args, i++);
    switch (f) {
      case "--detector": a.detector = v(); break;
      case "--scenario": a.scenario = v(); break;
      case "--flights": a.flights = intArg(f, args[++i], 1); break;
      case "--val-flights": a.valFlights = intArg(f, args[++i], 0); break;
      case "--out": a.out = v(); break;
      case "--harness": a.harness = v(); break;
      case "--init": a.init = v(); break;
      case "--first-seed": a.firstSeed = intArg(f, args[++i], 0); break;
      case "--val-first-seed": a.valFirstSeed = intArg(f, args[++i], 0); break;
      case "--workers": a.workers = intArg(f, args[++i], 1); break;
      case "--steps": a.steps = intArg(f, args[++i], 1); break;
      case "--batch": a.batch = intArg(f, args[++i], 1); break;
      case "--lr": a.lr = numberArg(f, args[++i], 1e-6, 1); break;
      case "--record-every": a.recordEvery = intArg(f, args[++i], 1); break;
      case "--horizon": a.horizon = intArg(f, args[++i], 1); break;
      case "--risk-target": {
        const t = v();
        if (t !== "collision" && t !== "contact" && t !== "wire-contact" && t !== "wire-gap") throw new UsageError(`--risk-target ${t}: expected collision, contact, wire-contact or wire-gap`);
        a.riskTarget = t;
        break;
      }
      case "--control-period": a.controlPeriod_s = numberArg(f, args[++i], 0.01, 2); break;
      case "--region-clip": a.regionClip = numberArg(f, args[++i], 1e-3, 100); break;
      case "--hidden1": a.hidden1 = intArg(f, args[++i], 1); break;
      case "--hidden2": a.hidden2 = intArg(f, args[++i], 1); break;
      case "--rollout-cache": a.rolloutCache = v(); break;
      default: throw new UsageError(`unknown argument "${f}"`);
    }
  }
  if (a.detector === "" || a.scenario === "" || a.out === "" || a.flights === 0) throw new UsageError("--detector, --scenario, --flights and --out are required");
  if (a.regionClip !== undefined && a.harness === undefined) throw new UsageError("--region-clip is the clip of the applied harness: give --harness too");
  for (const [flag, v] of [["--hidden1", a.hidden1], ["--hidden2", a.hidden2]] as const) {
    if (v !== undefined && v > 256) throw new UsageError(`${flag} ${v}: expected an integer in [1, 256]`);
  }
  if ((a.hidden1 !== undefined || a.hidden2 !== undefined) && a.init !== undefined) throw new UsageError("--hidden1/--hidden2 start a fresh harness of those widths: they cannot be combined with --init (whose widths are its own)");
  return a;
}

/** One line of targetShare's figures. */
export function formatTargetShare(t: TargetShare, what: string): string {
  return `push on the target's cells with a perfect risk and ${what}: ${(100 * t.meanShare).toFixed(1)} % of ||delta_region||^2 (an even spread: ${(100 * t.meanUniform).toFixed(1)} %) over ${t.regions} risky val regions, ${t.silentRegions} with no push`;
}

/** What the rollouts of a run are flown with: a cache written for other settings is refused. */
export function rolloutManifest(a: Args, job: SpatialRolloutJob): RolloutCacheManifest {
  return {
    version: 1,
    rollouts: {
      detector: modelDirDigest(a.detector),
      harness: a.harness === undefined ? null : modelDirDigest(a.harness),
      regionClip: job.regionClip ?? null,
      scenario: fileDigest(a.scenario),
      riskTarget: job.riskTarget ?? "collision",
      recordEvery: job.recordEvery,
      horizonSteps: job.horizonSteps,
      controlPeriod_s: job.controlPeriod_s,
      perturbed: job.perturbed,
    },
  };
}

/** Flights per outcome type (goal, collision, timeout). */
export function outcomeCounts(flights: readonly SpatialFlight[]): Record<string, number> {
  const c: Record<string, number> = { goal: 0, collision: 0, timeout: 0 };
  for (const f of flights) c[f.outcome.type] = (c[f.outcome.type] ?? 0) + 1;
  return c;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseFitHarnessArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    const rows = scenario.camera.height / DETECTOR_CELL_PX;
    const cols = scenario.camera.width / DETECTOR_CELL_PX;
    const job: SpatialRolloutJob = { scenario, split: "train", controlPeriod_s: a.controlPeriod_s, detectorDir: a.detector, recordEvery: a.recordEvery, horizonSteps: a.horizon, perturbed: false, riskTarget: a.riskTarget,
      ...(a.harness === undefined ? {} : { harnessDir: a.harness }), ...(a.regionClip === undefined ? {} : { regionClip: a.regionClip }) };
    const t0 = performance.now();
    const cache = a.rolloutCache === undefined ? undefined : new RolloutCacheDir(a.rolloutCache);
    cache?.open(rolloutManifest(a, job));
    const fly = async (split: "train" | "val", n: number, first: number): Promise<SpatialFlight[]> => {
      const seeds = new SeedSource(split, splitOfSeed).seeds(n, first);
      const onDisk = new Set(cache === undefined ? [] : seeds.filter((s) => cache.has(split, s)));
      const missing = seeds.filter((s) => !onDisk.has(s));
      if (cache !== undefined) io.err(`fit-harness: rollout cache ${cache.dir}: ${onDisk.size} of ${seeds.length} ${split} flights on disk, flying ${missing.length}\n`);
      let last = 0;
      const flown =
        missing.length === 0
          ? []
          : await flySpatialRolloutsParallel(
              { ...job, split },
              missing,
              a.workers,
              (p) => {
                if (p.done === p.total || performance.now() - last > 10000) {
                  last = performance.now();
                  io.err(`fit-harness: ${split} rollouts ${p.done}/${p.total}, ${p.samples} samples, ${p.collisions} collisions, ${p.elapsed_s.toFixed(0)} s, ETA ${p.eta_s.toFixed(0)} s\n`);
                }
              },
              cache === undefined ? undefined : (f) => cache.write(split, f, rows, cols),
            );
      const bySeed = new Map(flown.map((f) => [f.seed, f]));
      return seeds.map((s) => bySeed.get(s) ?? (cache as RolloutCacheDir).read(split, s, rows, cols));
    };
    io.err(`fit-harness: ${a.flights} train + ${a.valFlights} val rollouts of ${scenario.name}, detector ${a.detector}${a.harness === undefined ? "" : `, harness ${a.harness} applied (region clip ${a.regionClip ?? 0.5})`}, ${a.workers} worker(s)\n`);
    const train = await fly("train", a.flights, a.firstSeed);
    const val = a.valFlights > 0 ? await fly("val", a.valFlights, a.valFirstSeed) : [];
    const rolloutS = (performance.now() - t0) / 1000;
    const initDir = a.init ?? a.harness;
    const widths = { ...(a.hidden1 === undefined ? {} : { hidden1: a.hidden1 }), ...(a.hidden2 === undefined ? {} : { hidden2: a.hidden2 }) };
    const fresh = Object.keys(widths).length > 0;
    const harness = initDir === undefined || fresh ? new SpatialHarness(widths) : (await loadSpatialHarness(initDir)).model;
    const trainSamples = train.flatMap((f) => f.samples);
    const valSamples = val.flatMap((f) => f.samples);
    const before = valSamples.length > 0 ? validateSpatialHarness(harness, valSamples, rows, cols) : undefined;
    const r = trainSpatialHarness(harness, trainSamples, valSamples, { rows, cols, steps: a.steps, batch: a.batch, learningRate: a.lr, seed: 1, reportEvery: 250, progress: (l) => io.err(`${l}\n`) });
    const final = valSamples.length > 0 ? validateSpatialHarness(harness, valSamples, rows, cols) : undefined;
    // Where a perfect risk's push would land in the risky regions: S_gt against the trained S (targetShare.ts).
    const predicted = valSamples.length > 0 && a.riskTarget !== "collision" ? predictSensitivities(harness, valSamples, rows, cols) : undefined;
    const share = predicted === undefined ? undefined : { sgt: targetShare(valSamples, rows, cols), predicted: targetShare(valSamples, rows, cols, (i) => predicted[i]!) };
    const commandLine = `drone-harness fit-harness ${args.join(" ")}`;
    await saveModel(a.out, harness, { scenario: a.scenario, seed: 1, notes: commandLine });
    const positives = (fs: readonly SpatialFlight[]): number => fs.reduce((s, f) => s + f.samples.reduce((t, x) => t + x.riskTarget.reduce((u, v) => u + v, 0), 0), 0);
    const meta = {
      command: commandLine,
      parameters: harness.parameterCount(),
      rollouts: {
        train: { flights: train.length, outcomes: outcomeCounts(train), samples: trainSamples.length, positiveRegions: positives(train) },
        val: { flights: val.length, outcomes: outcomeCounts(val), samples: valSamples.length, positiveRegions: positives(val) },
        elapsed_s: rolloutS,
        ...(a.rolloutCache === undefined ? {} : { cache: a.rolloutCache }),
      },
      training: { steps: r.steps, finalLoss: r.finalLoss, curve: r.curve, elapsed_s: (performance.now() - t0) / 1000 - rolloutS },
      validationBefore: before,
      validation: final,
      targetShare: share,
    };
    fs.mkdirSync(a.out, { recursive: true });
    fs.writeFileSync(path.join(a.out, "fit-harness.json"), `${JSON.stringify(meta, null, 2)}\n`);
    io.out(`fit-harness: ${harness.parameterCount()} parameters; rollouts ${JSON.stringify(meta.rollouts.train.outcomes)} train, ${JSON.stringify(meta.rollouts.val.outcomes)} val in ${rolloutS.toFixed(0)} s\n`);
    if (final !== undefined) io.out(`  validation: risk AP ${final.riskAp.toFixed(3)} (${before?.riskAp.toFixed(3) ?? "NaN"} before), ${final.positiveRegions} positive regions of ${final.samples} samples; S mse ${final.sMse.toFixed(4)} (${before?.sMse.toFixed(4) ?? "NaN"} before)\n`);
    if (share !== undefined) io.out(`  ${formatTargetShare(share.sgt, "S_gt")}\n  ${formatTargetShare(share.predicted, "trained S")}\n`);
    io.out(`  model: ${path.join(a.out, "spatial_harness.model.json")}\n`);
    return 0;
  },
};
