/**
 * `drone-harness fit-harness-ppo --detector <dir> --harness <dir> --scenario <yaml> --out <dir>
 *  [--iterations N] [--flights N] [--first-seed N] [--workers N] [--epochs N] [--batch N] [--lr X]
 *  [--gamma X] [--region-clip X] [--record-every N] [--seed N] [--control-period S]`
 * The PPO ablation of the harness phase (issue 13: "PPO remains an option for an ablation row"):
 * starting from `--harness`, each iteration the frozen student + the harness as a stochastic
 * policy (each region's correction drawn on with probability r, riskSampling.ts) + the planner fly
 * `--flights` new train-split seeds on worker threads; the harness is then updated by PPO on the
 * environment's own reward (ppoSpatialHarness.ts). Writes <out>/spatial_harness.* (the last
 * iteration's weights), <out>/iter-K/ (the weights each iteration flew) and
 * <out>/fit-harness-ppo.json (command, per-iteration outcomes and update statistics).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { flySpatialRolloutsParallel, type SpatialRolloutJob } from "../../harness/data/node/spatialRolloutsParallel";
import { SeedSource } from "../../harness/data/SeedSplit";
import { loadSpatialHarness, saveModel } from "../../harness/modelfile";
import { ppoHarnessUpdate, type PpoHarnessStats } from "../../harness/spatial/ppoSpatialHarness";
import { DETECTOR_CELL_PX } from "../../harness/runtime/DetectorRuntime";
import { intArg, numberArg, valueArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";
import { outcomeCounts } from "./fitHarness";

export const USAGE =
  "drone-harness fit-harness-ppo --detector <fit dir> --harness <dir> --scenario <yaml> --out <dir> [--iterations N] [--flights N] [--first-seed N] " +
  "[--workers N] [--epochs N] [--batch N] [--lr X] [--gamma X] [--region-clip X] [--record-every N] [--seed N] [--control-period S]";

type Args = {
  detector: string; harness: string; scenario: string; out: string; iterations: number; flights: number; firstSeed: number; workers: number;
  epochs: number; batch: number; lr: number; gamma: number; regionClip: number; recordEvery: number; seed: number; controlPeriod_s: number;
};

export function parseFitHarnessPpoArgs(args: readonly string[]): Args {
  const a: Args = { detector: "", harness: "", scenario: "", out: "", iterations: 8, flights: 40, firstSeed: 0, workers: 2, epochs: 4, batch: 16, lr: 1e-3, gamma: 0.9, regionClip: 0.5, recordEvery: 2, seed: 1, controlPeriod_s: 0.25 };
  for (let i = 0; i < args.length; i++) {
    const f = args[i] ?? "";
    const v = (): string => valueArg(args, i++);
    switch (f) {
      case "--detector": a.detector = v(); break;
      case "--harness": a.harness = v(); break;
      case "--scenario": a.scenario = v(); break;
      case "--out": a.out = v(); break;
      case "--iterations": a.iterations = intArg(f, args[++i], 1); break;
      case "--flights": a.flights = intArg(f, args[++i], 2); break;
      case "--first-seed": a.firstSeed = intArg(f, args[++i], 0); break;
      case "--workers": a.workers = intArg(f, args[++i], 1); break;
      case "--epochs": a.epochs = intArg(f, args[++i], 1); break;
      case "--batch": a.batch = intArg(f, args[++i], 1); break;
      case "--lr": a.lr = numberArg(f, args[++i], 1e-6, 1); break;
      case "--gamma": a.gamma = numberArg(f, args[++i], 0.01, 1); break;
      case "--region-clip": a.regionClip = numberArg(f, args[++i], 1e-3, 100); break;
      case "--record-every": a.recordEvery = intArg(f, args[++i], 1); break;
      case "--seed": a.seed = intArg(f, args[++i], 0); break;
      case "--control-period": a.controlPeriod_s = numberArg(f, args[++i], 0.01, 2); break;
      default: throw new UsageError(`unknown argument "${f}"`);
    }
  }
  if (a.detector === "" || a.harness === "" || a.scenario === "" || a.out === "") throw new UsageError("--detector, --harness, --scenario and --out are required (PPO starts from a harness)");
  return a;
}

type IterationRecord = { iteration: number; seeds: [number, number]; outcomes: Record<string, number>; samples: number; rollout_s: number; update?: PpoHarnessStats; update_s: number };

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseFitHarnessPpoArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    const rows = scenario.camera.height / DETECTOR_CELL_PX;
    const cols = scenario.camera.width / DETECTOR_CELL_PX;
    const harness = (await loadSpatialHarness(a.harness)).model;
    const allSeeds = new SeedSource("train", splitOfSeed).seeds(a.iterations * a.flights, a.firstSeed);
    const commandLine = `drone-harness fit-harness-ppo ${args.join(" ")}`;
    const records: IterationRecord[] = [];
    const t0 = performance.now();
    io.err(`fit-harness-ppo: ${a.iterations} iterations x ${a.flights} train flights of ${scenario.name} (seeds ${allSeeds[0]}..${allSeeds.at(-1)}), detector ${a.detector}, from harness ${a.harness}, region clip ${a.regionClip}, ${a.workers} worker(s)\n`);
    for (let it = 0; it < a.iterations; it++) {
      const iterDir = path.join(a.out, `iter-${it}`);
      await saveModel(iterDir, harness, { scenario: a.scenario, seed: a.seed, notes: `${commandLine} (iteration ${it}: the weights that flew it)` });
      const seeds = allSeeds.slice(it * a.flights, (it + 1) * a.flights);
      const job: SpatialRolloutJob = {
        scenario, split: "train", controlPeriod_s: a.controlPeriod_s, detectorDir: a.detector, harnessDir: iterDir, regionClip: a.regionClip,
        recordEvery: a.recordEvery, horizonSteps: 10, perturbed: false, policy: { seed: a.seed * 1000 + it, gamma: a.gamma },
      };
      const t1 = performance.now();
      const flights = await flySpatialRolloutsParallel(job, seeds, a.workers);
      const rollout_s = (performance.now() - t1) / 1000;
      const samples = flights.flatMap((f) => f.samples);
      const t2 = performance.now();
      const update = ppoHarnessUpdate(harness, samples, { rows, cols, epochs: a.epochs, batch: a.batch, learningRate: a.lr, seed: a.seed + it });
      const rec: IterationRecord = { iteration: it, seeds: [seeds[0]!, seeds.at(-1)!], outcomes: outcomeCounts(flights), samples: samples.length, rollout_s, ...(update === undefined ? {} : { update }), update_s: (performance.now() - t2) / 1000 };
      records.push(rec);
      const elapsed = (performance.now() - t0) / 1000;
      io.err(`fit-harness-ppo: iteration ${it + 1}/${a.iterations}: ${JSON.stringify(rec.outcomes)}, ${samples.length} decisions, ` +
        (update === undefined ? "no update (all returns equal)" : `mean return ${update.meanReturn.toFixed(4)}, surrogate ${update.surrogate.toFixed(4)}, clip fraction ${update.clipFraction.toFixed(3)}, S term ${update.sTerm.toFixed(3)}`) +
        `; ${elapsed.toFixed(0)} s, ETA ${((elapsed / (it + 1)) * (a.iterations - it - 1)).toFixed(0)} s\n`);
    }
    await saveModel(a.out, harness, { scenario: a.scenario, seed: a.seed, notes: commandLine });
    const meta = { command: commandLine, parameters: harness.parameterCount(), iterations: records, elapsed_s: (performance.now() - t0) / 1000 };
    fs.mkdirSync(a.out, { recursive: true });
    fs.writeFileSync(path.join(a.out, "fit-harness-ppo.json"), `${JSON.stringify(meta, null, 2)}\n`);
    const total = records.reduce((s, r) => s + (r.outcomes.collision ?? 0), 0);
    io.out(`fit-harness-ppo: ${records.length} iterations, ${records.length * a.flights} sampled flights, ${total} collisions in training; model: ${path.join(a.out, "spatial_harness.model.json")}\n`);
    return 0;
  },
};
