/**
 * `drone-harness bound --models models --scenario default [--split test] [--flights 30] [--student coevolved|bc] [--perturbed] [--json]`
 * The oracle upper bound of the Harness's effect on flight (src/harness/eval/correctionBound.ts):
 * the student alone, with its trained harness, with the SPEC correction fed an oracle risk and
 * exact S_gt, and with the best delta the clip allows, on the same held-out seeds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import { LAMBDA_INITIAL } from "../../harness/correction/constants";
import type { Split } from "../../harness/data/SeedSplit";
import { simEnvironmentFactory } from "../../harness/data/simEnvironment";
import { correctionBound, formatBound } from "../../harness/eval/correctionBound";
import { loadHarness, loadStudent } from "../../harness/modelfile";
import { FULL_CONFIG, type TrainingState } from "../../harness/training/trainConfig";
import { heldOutArg, intArg, requireScenario } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE = "drone-harness bound --models <dir> --scenario <yaml|name> [--split test] [--flights 30] [--first-seed 0] [--student coevolved|bc] [--perturbed] [--json]";

export type BoundArgs = { models: string; scenario: string; split: Split; flights: number; firstSeed: number; student: "coevolved" | "bc"; perturbed: boolean; json: boolean };


export function parseBoundArgs(args: string[]): BoundArgs {
  const out: BoundArgs = { models: "models", scenario: "", split: "test", flights: 30, firstSeed: 0, student: "coevolved", perturbed: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--first-seed":
        out.firstSeed = intArg("--first-seed", args[++i], 0);
        break;
      case "--student": {
        const v = args[++i];
        if (v !== "coevolved" && v !== "bc") throw new UsageError(`--student=${v ?? "(missing)"}, expected coevolved or bc`);
        out.student = v;
        break;
      }
      case "--perturbed":
        out.perturbed = true;
        break;
      default: {
        const last = heldOutArg(args, i, out, "the bound");
        if (last < 0) throw new UsageError(`unknown argument "${a}"`);
        i = last;
      }
    }
  }
  requireScenario(out);
  return out;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseBoundArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    const info = path.join(a.models, "training.json");
    const state = fs.existsSync(info) ? (JSON.parse(fs.readFileSync(info, "utf8")) as TrainingState) : undefined;
    const dir = a.student === "bc" ? path.join(a.models, "bc") : a.models;
    const [student, harness] = await Promise.all([loadStudent(dir), loadHarness(dir)]);
    const lambda = (a.student === "bc" ? state?.lambda.bc_harness : state?.lambda.coevo) ?? LAMBDA_INITIAL;
    try {
      const report = correctionBound(student.model, harness.model, lambda, {
        split: a.split,
        splitOf: splitOfSeed,
        factory: simEnvironmentFactory(scenario, a.split, { controlPeriod_s: state?.config.controlPeriod_s ?? FULL_CONFIG.controlPeriod_s }),
        flights: a.flights,
        firstSeed: a.firstSeed,
        perturbed: a.perturbed,
        progress: (line) => io.err(`${line}\n`),
      });
      if (a.json) io.out(`${JSON.stringify({ scenario: a.scenario, models: dir, lambda, ...report }, null, 2)}\n`);
      else io.out(`student: ${dir} (lambda ${lambda.toFixed(3)})\n\n${formatBound(report)}`);
    } finally {
      student.model.dispose();
      harness.model.dispose();
    }
    return 0;
  },
};
