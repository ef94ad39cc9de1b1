/**
 * `drone-harness train --scenario <yaml> --out models/ --seed N [--quick] [--resume] [--checkpoint-every N]`
 * Runs the training pipeline (src/harness/training/trainPipeline.ts) on the embedded simulator;
 * progress lines go to stderr, the summary to stdout.
 */
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { simEnvironmentFactory } from "../../harness/data/simEnvironment";
import { modelStore } from "../../harness/training/node/modelStore";
import { FULL_CONFIG, PHASES, QUICK_CONFIG, type BcVariant, type Phase } from "../../harness/training/trainConfig";
import { runTraining } from "../../harness/training/trainPipeline";
import { intArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE =
  "drone-harness train --scenario <yaml|name> [--out models/] [--seed N] [--quick] [--resume] [--redo-from teacher|bc|bc_harness|coevo] [--checkpoint-every N] " +
  "[--threat-record-every N] [--bc-threat-fraction X] [--policy-reads-detections]";

export type TrainArgs = { scenario: string; out: string; seed: number; quick: boolean; resume: boolean; checkpointEvery: number; redoFrom?: Phase; bcVariant?: BcVariant };


export function parseTrainArgs(args: string[]): TrainArgs {
  const out: TrainArgs = { scenario: "", out: "models", seed: 1, quick: false, resume: false, checkpointEvery: 100 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--scenario":
        out.scenario = args[++i] ?? "";
        break;
      case "--out":
        out.out = args[++i] ?? "";
        break;
      case "--seed":
        out.seed = intArg("--seed", args[++i], 0);
        break;
      case "--checkpoint-every":
        out.checkpointEvery = intArg("--checkpoint-every", args[++i], 0);
        break;
      case "--quick":
        out.quick = true;
        break;
      case "--resume":
        out.resume = true;
        break;
      case "--redo-from": {
        const v = args[++i] ?? "";
        const phase = PHASES.find((p) => p === v && p !== "data");
        if (phase === undefined) throw new UsageError(`--redo-from=${v}, expected one of teacher, bc, bc_harness, coevo`);
        out.redoFrom = phase;
        out.resume = true;
        break;
      }
      case "--threat-record-every":
        out.bcVariant = { ...out.bcVariant, threatRecordEvery: intArg(a, args[++i], 1) };
        break;
      case "--bc-threat-fraction": {
        const v = args[++i];
        const x = Number(v);
        if (v === undefined || v.trim() === "" || !(x >= 0 && x <= 1)) throw new UsageError(`--bc-threat-fraction=${v ?? "(missing)"}, expected a number in [0, 1]`);
        out.bcVariant = { ...out.bcVariant, threatFraction: x };
        break;
      }
      case "--policy-reads-detections":
        out.bcVariant = { ...out.bcVariant, policyReadsDetections: true };
        break;
      default:
        throw new UsageError(`unknown argument "${a}"`);
    }
  }
  if (out.scenario === "") throw new UsageError("--scenario is required (a YAML file or a bundled name such as default)");
  if (out.out === "") throw new UsageError("--out needs a directory");
  if (out.bcVariant !== undefined && out.resume && out.redoFrom === undefined) {
    throw new UsageError("--threat-record-every, --bc-threat-fraction and --policy-reads-detections change the configuration: with --resume they need --redo-from bc (or earlier), since a resumed run continues with the configuration stored in training.json");
  }
  return out;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseTrainArgs(args);
    const backend = await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    const commandLine = `drone-harness train ${args.join(" ")}`;
    io.err(`train: backend ${backend.name}${backend.simd ? " (simd)" : ""}, scenario ${scenario.name} (${a.scenario}), seed ${a.seed}${a.quick ? ", quick" : ""}, out ${path.resolve(a.out)}\n`);
    const store = modelStore(a.out, { scenario: a.scenario, seed: a.seed });
    const controlPeriod_s = (a.quick ? QUICK_CONFIG : FULL_CONFIG).controlPeriod_s;
    const t0 = performance.now();
    const state = await runTraining(
      {
        factory: (split) => simEnvironmentFactory(scenario, split, { controlPeriod_s }),
        splitOf: splitOfSeed,
        progress: (line) => io.err(`${line}\n`),
        ...store,
      },
      { scenario: a.scenario, seed: a.seed, quick: a.quick, resume: a.resume, checkpointEvery: a.checkpointEvery, command: commandLine, redoFrom: a.redoFrom, bcVariant: a.bcVariant },
    );
    const f = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? "NaN" : x.toFixed(3));
    io.out(`trained in ${((performance.now() - t0) / 1000).toFixed(1)} s: phases ${state.completed.join(", ")}; models in ${a.out}\n`);
    for (const [phase, ap] of Object.entries(state.validation)) {
      io.out(`  validation AP ${phase.padEnd(10)} wire ${f(ap?.wire)} branch ${f(ap?.branch)} wire+branch ${f(ap?.wire_branch)}\n`);
    }
    for (const [phase, t] of Object.entries(state.timings_s)) io.out(`  time ${phase.padEnd(10)} ${(t ?? 0).toFixed(1)} s\n`);
    return 0;
  },
};
