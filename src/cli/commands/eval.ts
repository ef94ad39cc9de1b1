/**
 * `drone-harness eval --models models/ --scenario <yaml> --split test [--flights 50] [--ap-seeds 12] [--json]`
 * Prints the comparison table of src/harness/eval/evaluate.ts (nominal and perturbed).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed, type Scenario } from "../../../sim";
import { evaluatePlanner, formatPlannerReport, PLANNER_ROWS, type PlannerRowName } from "../../harness/eval/plannerRows";
import type { Teacher } from "../../harness/models/Teacher";
import type { PlannerOptions } from "../../control/LocalPlanner";
import { initBackend } from "../../harness/backend";
import type { Split } from "../../harness/data/SeedSplit";
import { simEnvironmentFactory } from "../../harness/data/simEnvironment";
import { evaluate, formatReport, ROWS, type RowName } from "../../harness/eval/evaluate";
import { loadHarness, loadStudent, loadTeacher } from "../../harness/modelfile";
import { FULL_CONFIG, type TrainingState } from "../../harness/training/trainConfig";
import { LAMBDA_INITIAL } from "../../harness/correction/constants";
import { heldOutArg, intArg, plannerSetArg, requireScenario } from "../args";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";
import { runHarnessEval } from "./evalHarness";

export const USAGE =
  "drone-harness eval --models <dir> --scenario <yaml|name> [--split test] [--flights 50] [--ap-seeds 12] [--conditions nominal,perturbed] [--fly-rows row,...] [--json]\n" +
  "       drone-harness eval --planner [--detectors models/pipeline] --scenario <yaml|name> [--split test] [--flights 100] [--conditions ...] [--planner-rows row,...] [--planner-set key=value,...] [--ap-seeds N [--ap-only]] [--json]\n" +
  "       drone-harness eval --harness --scenario <yaml|name> [--split test] [--flights 100] [--first-seed N] [--conditions ...] [--bc <dir>] [--bc-harness <dir>] [--coevo <dir>] [--coevo-harness <dir>] [--rows row,...] [--region-clip X] [--runaway-level X|none] [--vertical-hold X] [--brake-on-reversal B] [--vertical-in-place L[,cells]] [--risk-hold P] [--risk-floor X] [--aim low,high] [--workers N] [--ap-every N] [--attribute-strikes] [--wire-crossings] [--json]";

export type EvalArgs = {
  models: string;
  scenario: string;
  split: Split;
  flights: number;
  apSeeds: number;
  json: boolean;
  conditions: ("nominal" | "perturbed")[];
  flyRows?: RowName[];
  /** `--planner`: the planner rows (oracle, teacher, student detectors) instead of the policy-head table. */
  planner: boolean;
  detectors: string;
  plannerRows?: PlannerRowName[];
  /** `--planner-set key=value,...`: numeric LocalPlanner options (tuned on val seeds, never on test). */
  plannerSet?: Record<string, number>;
  /** `--ap-only`: the detector AP block of `--planner` without flying any row. */
  apOnly?: boolean;
};


export function parseEvalArgs(args: string[]): EvalArgs {
  const out: EvalArgs = { models: "models", scenario: "", split: "test", flights: 50, apSeeds: 12, json: false, conditions: ["nominal", "perturbed"], planner: false, detectors: "models/pipeline" };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    switch (a) {
      case "--ap-seeds":
        out.apSeeds = intArg("--ap-seeds", args[++i], out.planner || args.includes("--planner") ? 0 : 1);
        break;
      case "--conditions": {
        const list = (args[++i] ?? "").split(",");
        if (list.some((c) => c !== "nominal" && c !== "perturbed") || list.length === 0) {
          throw new UsageError(`--conditions=${list.join(",")}, expected a comma list of nominal, perturbed`);
        }
        out.conditions = list as ("nominal" | "perturbed")[];
        break;
      }
      case "--planner":
        out.planner = true;
        break;
      case "--ap-only":
        out.apOnly = true;
        break;
      case "--detectors":
        out.detectors = args[++i] ?? "";
        break;
      case "--planner-rows": {
        const list = (args[++i] ?? "").split(",");
        const rows = list.map((r) => PLANNER_ROWS.find((x) => x === r));
        if (rows.some((r) => r === undefined)) throw new UsageError(`--planner-rows=${list.join(",")}, expected a comma list of ${PLANNER_ROWS.join(", ")}`);
        out.plannerRows = rows.filter((r): r is PlannerRowName => r !== undefined);
        break;
      }
      case "--planner-set": out.plannerSet = plannerSetArg(args[++i]); break;
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
  if (out.apOnly === true && (!out.planner || out.apSeeds < 1)) throw new UsageError("--ap-only measures the detectors' AP of eval --planner without flying: it needs --planner and --ap-seeds N >= 1");
  return out;
}

/** The planner rows: detectors from <detectors>/teacher and <detectors>/student where present. */
async function runPlannerEval(a: EvalArgs, scenario: Scenario, io: CliIO): Promise<number> {
  const load = async (size: "teacher" | "student"): Promise<Teacher | undefined> => {
    if (a.plannerRows !== undefined && !a.plannerRows.includes(`planner_${size}`)) return undefined;
    const dir = path.join(a.detectors, size);
    if (!fs.existsSync(path.join(dir, "teacher.model.json"))) {
      io.err(`eval --planner: no ${size} detector in ${dir} (train it with drone-harness fit); its row is left out\n`);
      return undefined;
    }
    return (await loadTeacher(dir)).model;
  };
  const teacher = await load("teacher");
  const student = await load("student");
  const report = evaluatePlanner(
    { ...(teacher === undefined ? {} : { teacher }), ...(student === undefined ? {} : { student }) },
    {
      split: a.split,
      splitOf: splitOfSeed,
      factory: simEnvironmentFactory(scenario, a.split, { controlPeriod_s: FULL_CONFIG.controlPeriod_s }),
      flights: a.flights,
      conditions: a.conditions,
      apSeeds: a.apSeeds,
      ...(a.plannerSet === undefined ? {} : { planner: a.plannerSet }),
      ...(a.apOnly === true ? { rows: [] } : a.plannerRows === undefined ? {} : { rows: a.plannerRows }),
      progress: (line) => io.err(`${line}\n`),
    },
  );
  if (a.json) io.out(`${JSON.stringify({ scenario: a.scenario, detectors: a.detectors, ...report }, null, 2)}\n`);
  else io.out(`${formatPlannerReport(report)}\n`);
  return 0;
}

function readTrainingState(dir: string): TrainingState | undefined {
  const file = path.join(dir, "training.json");
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")) as TrainingState;
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    if (args.includes("--harness")) {
      await initBackend({ warn: (m) => io.err(`${m}\n`) });
      return runHarnessEval(args, io);
    }
    const a = parseEvalArgs(args);
    await initBackend({ warn: (m) => io.err(`${m}\n`) });
    const scenario = loadScenarioFile(a.scenario);
    if (a.planner) return runPlannerEval(a, scenario, io);
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
      ...(a.plannerSet === undefined ? {} : { planner: a.plannerSet as Partial<PlannerOptions> }),
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
