/**
 * `drone-harness transfer --from <models dir> --scenario <yaml|name> --out <dir> [options]`
 * The transfer run of SPEC "Transfer" (seed 5.4; src/harness/transfer/transferRun.ts): moves the
 * State Encoder of <from>/harness unchanged (frozen), trains a fresh 16-unit adapter + Policy
 * Diagnostics on a few replay samples of the new scenario family flown by the frozen student
 * <from>/student, trains a from-scratch harness on the same samples, and compares both with no
 * harness on test-split seeds. Writes <out>/harness.* (transfer), <out>/scratch/harness.* and
 * <out>/transfer.json. The source models are only read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { simEnvironmentFactory } from "../../harness/data/simEnvironment";
import { checkModelJson, loadHarness, loadStudent, modelPaths, saveModel } from "../../harness/modelfile";
import { HarnessNet } from "../../harness/models/HarnessNet";
import { assertTransferSource } from "../../harness/transfer/transferSource";
import { runTransfer, type TransferReport, type TransferRunOptions } from "../../harness/transfer/transferRun";
import { intArg } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";
import { TRANSFER_REAL_USAGE, transferReal } from "./transferReal";

export const USAGE =
  "drone-harness transfer --from <models dir> --scenario <yaml|name> --out <dir> [--train-samples 300] [--test-samples 300] [--sample-every 2] " +
  "[--epochs 30] [--flights 20] [--lambda 0.3] [--seed 1]\n       " +
  TRANSFER_REAL_USAGE;

export type TransferArgs = { from: string; scenario: string; out: string; options: TransferRunOptions };


export function parseTransferArgs(args: string[]): TransferArgs {
  const a: TransferArgs = {
    from: "",
    scenario: "",
    out: "",
    options: {
      trainSamples: 300,
      testSamples: 300,
      trainSeeds: 30,
      testSeeds: 30,
      sampleEvery: 2,
      training: { epochs: 30, minibatch: 16, learningRate: 1e-3, riskLoss: "bce", rngSeed: 1 },
      flights: 20,
      lambda0: 0.3,
      seed: 1,
    },
  };
  const o = a.options;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? "";
    switch (flag) {
      case "--from":
        a.from = args[++i] ?? "";
        break;
      case "--scenario":
        a.scenario = args[++i] ?? "";
        break;
      case "--out":
        a.out = args[++i] ?? "";
        break;
      case "--train-samples":
        o.trainSamples = intArg(flag, args[++i], 1);
        break;
      case "--test-samples":
        o.testSamples = intArg(flag, args[++i], 1);
        break;
      case "--train-seeds":
        o.trainSeeds = intArg(flag, args[++i], 1);
        break;
      case "--test-seeds":
        o.testSeeds = intArg(flag, args[++i], 1);
        break;
      case "--sample-every":
        o.sampleEvery = intArg(flag, args[++i], 1);
        break;
      case "--epochs":
        o.training.epochs = intArg(flag, args[++i], 1);
        break;
      case "--flights":
        o.flights = intArg(flag, args[++i], 0);
        break;
      case "--lambda": {
        const v = args[++i];
        const x = Number(v);
        if (v === undefined || !(x >= 0 && x <= 1)) throw new UsageError(`--lambda=${v ?? "(missing)"}, expected a number in [0, 1]`);
        o.lambda0 = x;
        break;
      }
      case "--seed":
        o.seed = intArg(flag, args[++i], 0);
        o.training.rngSeed = o.seed;
        break;
      default:
        throw new UsageError(`unknown argument "${flag}"`);
    }
  }
  if (a.from === "") throw new UsageError("--from is required (the models directory holding harness.* and student.*)");
  if (a.scenario === "") throw new UsageError("--scenario is required (the second scenario family, e.g. trees_only)");
  if (a.out === "") throw new UsageError("--out is required (a new directory; the source models are never overwritten)");
  if (path.resolve(a.out) === path.resolve(a.from)) throw new UsageError(`--out ${a.out} is the --from directory; choose another so the source models stay unchanged`);
  return a;
}

/** Checks <dir>/harness.model.json's kind and encoder layout, then loads it. */
export async function loadTransferSource(dir: string): Promise<HarnessNet> {
  const file = modelPaths(dir, "harness").modelJson;
  const checked = checkModelJson(file, fs.readFileSync(file, "utf8"));
  const probe = new HarnessNet();
  try {
    assertTransferSource(file, checked.manifest.kind, checked.specs, probe);
  } finally {
    probe.dispose();
  }
  return (await loadHarness(dir)).model;
}

function fmt(x: number | undefined, digits = 3): string {
  return x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(digits);
}

export function reportTable(r: TransferReport): string {
  const lines = ["| harness | risk AUC | Brier | mean ‖S − S_gt‖ | mean r | collisions | goals | flights |", "| --- | --- | --- | --- | --- | --- | --- | --- |"];
  for (const row of r.rows) {
    const q = row.quality;
    const c = row.closedLoop;
    lines.push(`| ${row.name} | ${fmt(q.auc)} | ${fmt(q.brier)} | ${fmt(q.sError)} | ${fmt(q.meanRisk)} | ${c?.collisions ?? "-"} | ${c?.goals ?? "-"} | ${c?.flights ?? "-"} |`);
  }
  return `${lines.join("\n")}\n`;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    // `transfer --real <dir>`: few-shot adaptation of the detector to real photographs (issue 14).
    if (args.includes("--real")) return transferReal(args, io);
    const a = parseTransferArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const source = await loadTransferSource(a.from);
    const student = (await loadStudent(a.from)).model;
    const scenario = loadScenarioFile(a.scenario);
    const commandLine = `drone-harness transfer ${args.join(" ")}`;
    io.err(`transfer: encoder of ${path.join(a.from, "harness")} -> scenario ${scenario.name} (${a.scenario}), out ${path.resolve(a.out)}\n`);
    const { report, transfer, scratch } = runTransfer(
      student,
      source,
      { factory: (split) => simEnvironmentFactory(scenario, split, { controlPeriod_s: 0.25 }), splitOf: splitOfSeed, progress: (l) => io.err(`${l}\n`) },
      a.options,
    );
    const note = `${commandLine}`;
    fs.mkdirSync(path.join(a.out, "scratch"), { recursive: true });
    await saveModel(a.out, transfer, { scenario: a.scenario, seed: a.options.seed, notes: `transfer (encoder of ${a.from}/harness frozen); ${note}` });
    await saveModel(path.join(a.out, "scratch"), scratch, { scenario: a.scenario, seed: a.options.seed, notes: `from scratch on the same samples; ${note}` });
    fs.writeFileSync(path.join(a.out, "transfer.json"), `${JSON.stringify({ command: commandLine, options: a.options, ...report }, null, 2)}\n`);
    io.out(reportTable(report));
    io.out(`test samples ${report.test.samples} (${report.test.positives} positive); train samples ${report.train.samples} (${report.train.positives} positive)\n`);
    for (const [k, v] of Object.entries(report.timings_s)) io.out(`  time ${k.padEnd(14)} ${v.toFixed(1)} s\n`);
    transfer.dispose();
    scratch.dispose();
    source.dispose();
    student.dispose();
    return 0;
  },
};
