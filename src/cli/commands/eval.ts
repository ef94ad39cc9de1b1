/**
 * `drone-harness eval --models models/ --scenario <yaml> --split test [--flights 50] [--ap-seeds 12] [--json]`
 * Prints the comparison table of src/harness/eval/evaluate.ts (nominal and perturbed).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { initBackend } from "../../harness/backend";
import type { Split } from "../../harness/data/SeedSplit";
import { simEnvironmentFactory } from "../../harness/data/simEnvironment";
import { evaluate, formatReport, ROWS, type RowName } from "../../harness/eval/evaluate";
import { loadHarness, loadStudent, loadTeacher } from "../../harness/modelfile";
import { FULL_CONFIG, type TrainingState } from "../../harness/training/trainPipeline";
import { LAMBDA_INITIAL } from "../../harness/correction/constants";
import { heldOutArg, intArg, requireScenario } from "../args";
import { UsageError, type CliCommand } from "../CliCommand";

export const USAGE = "drone-harness eval --models <dir> --scenario <yaml|name> [--split test] [--flights 50] [--ap-seeds 12] [--conditions nominal,perturbed] [--fly-rows row,...] [--json]";

export type EvalArgs = {
  models: string;
  scenario: string;
  split: Split;
  flights: number;
  apSeeds: number;
  json: boolean;
  conditions: ("nominal" | "perturbed")[];
  flyRows?: RowName[];
};


export function parseEvalArgs(args: string[]): EvalArgs {
  const out: EvalArgs = { models: "models", scenario: "", split: "test", flights: 50, apSeeds: 12, json: false, conditions: ["nominal", "perturbed"] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--ap-seeds":
        out.apSeeds = intArg("--ap-seeds", args[++i], 1);
        break;
      case "--conditions": {
        const list = (args[++i] ?? "").split(",");
        if (list.some((c) => c !== "nominal" && c !== "perturbed") || list.length === 0) {
          throw new UsageError(`--conditions=${list.join(",")}, expected a comma list of nominal, perturbed`);
        }
        out.conditions = list as ("nominal" | "perturbed")[];
        break;
      }
      case "--fly-rows": {
        const list = (args[++i] ?? "").split(",");
        const rows = list.map((r) => ROWS.find((x) => x === r));
        if (list.length === 0 || rows.some((r) => r === undefined || r === "teacher")) {
          throw new UsageError(`--fly-rows=${list.join(",")}, expected a comma list of ${ROWS.filter((r) => r !== "teacher").join(", ")}`);
        }
        out.flyRows = rows.filter((r): r is RowName => r !== undefined);
        break;
      }
      default: {
        const last = heldOutArg(args, i, out, "evaluation");
        if (last < 0) throw new UsageError(`unknown argument "${a}"`);
        i = last;
      }
    }
  }
  requireScenario(out);
  return out;
}

function readTrainingState(dir: string): TrainingState | undefined {
  const file = path.join(dir, "training.json");
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")) as TrainingState;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const a = parseEvalArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    const state = readTrainingState(a.models);
    const [teacher, bcStudent, bcHarness, coStudent, coHarness] = await Promise.all([
      loadTeacher(a.models),
      loadStudent(path.join(a.models, "bc")),
      loadHarness(path.join(a.models, "bc")),
      loadStudent(a.models),
      loadHarness(a.models),
    ]);
    const controlPeriod_s = state?.config.controlPeriod_s ?? FULL_CONFIG.controlPeriod_s;
    const report = evaluate(
      {
        teacher: teacher.model,
        bcStudent: bcStudent.model,
        bcHarness: bcHarness.model,
        bcLambda: state?.lambda.bc_harness ?? LAMBDA_INITIAL,
        coStudent: coStudent.model,
        coHarness: coHarness.model,
        coLambda: state?.lambda.coevo ?? LAMBDA_INITIAL,
      },
      {
        split: a.split,
        splitOf: splitOfSeed,
        factory: simEnvironmentFactory(scenario, a.split, { controlPeriod_s }),
        flights: a.flights,
        apSeeds: a.apSeeds,
        conditions: a.conditions,
        ...(a.flyRows === undefined ? {} : { flyRows: a.flyRows }),
        progress: (line) => io.err(`${line}\n`),
      },
    );
    if (a.json) io.out(`${JSON.stringify({ scenario: a.scenario, models: a.models, ...report }, null, 2)}\n`);
    else io.out(`${formatReport(report)}\n`);
    return 0;
  },
};
