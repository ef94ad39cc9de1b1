/** Argument helpers shared by the subcommands: every bad value is a UsageError naming the flag and the valid range. */
import { parseSplit, type Split } from "../harness/data/SeedSplit";
import { parseLineSupportSpec, type LineSupportSpec } from "../harness/eval/lineSupport";
import { DEFAULT_PLANNER_OPTIONS, type PlannerOptions } from "../control/LocalPlanner";
import { UsageError } from "./CliCommand";

/** `value` as an integer >= min. */
export function intArg(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) throw new UsageError(`${flag}=${value ?? "(missing)"}, expected an integer >= ${min}`);
  return n;
}

/** `--line-support F:geo|F:ls[,...]`: each spec checked (lineSupport.ts), the first bad one named. */
export function lineSupportArg(value: string | undefined): LineSupportSpec[] {
  if (value === undefined || value === "") throw new UsageError("--line-support needs F:geo or F:ls[,...]");
  try {
    return value.split(",").map(parseLineSupportSpec);
  } catch (e) {
    throw new UsageError(`--line-support: ${(e as Error).message}`);
  }
}

/** A split for a command that may only read held-out seeds ("test" or "val"); `what` names the command in the error. */
export function heldOutSplitArg(value: string | undefined, what: string): Split {
  let split: Split;
  try {
    split = parseSplit(value ?? "");
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (split === "train") throw new UsageError(`--split train: ${what} may only read held-out seeds ("test" or "val")`);
  return split;
}

/** The flags every held-out evaluation command (eval, bound) takes. */
export type HeldOutArgs = { models: string; scenario: string; split: Split; flights: number; json: boolean };

/**
 * Consumes `args[i]` (and its value) when it is one of the HeldOutArgs flags, writing into `out`;
 * returns the index of the last token used, or -1 when the flag is not one of them. `what` names
 * the command in a refused --split train.
 */
export function heldOutArg(args: readonly string[], i: number, out: HeldOutArgs, what: string): number {
  switch (args[i] ?? "") {
    case "--models":
      out.models = args[i + 1] ?? "";
      return i + 1;
    case "--scenario":
      out.scenario = args[i + 1] ?? "";
      return i + 1;
    case "--split":
      out.split = heldOutSplitArg(args[i + 1], what);
      return i + 1;
    case "--flights":
      out.flights = intArg("--flights", args[i + 1], 1);
      return i + 1;
    case "--json":
      out.json = true;
      return i;
    default:
      return -1;
  }
}

/** The checks after parsing that every held-out command shares. */
export function requireScenario(out: { scenario: string }): void {
  if (out.scenario === "") throw new UsageError("--scenario is required (a YAML file or a bundled name such as default)");
}

/** `value` as a number in [lo, hi]. */
export function numberArg(flag: string, value: string | undefined, lo: number, hi: number): number {
  const x = Number(value);
  if (value === undefined || value.trim() === "" || !(x >= lo && x <= hi)) throw new UsageError(`${flag}=${value ?? "(missing)"}, expected a number in [${lo}, ${hi}]`);
  return x;
}

/** True (after printing the usage to stdout) when `args` asks for help: the command then exits 0. */
export function printedHelp(args: readonly string[], usage: string, out: (text: string) => void): boolean {
  if (!args.includes("--help") && !args.includes("-h")) return false;
  out(`usage: ${usage}\n`);
  return true;
}

/** The value after flag `args[i]` (a missing value or another flag is a UsageError). */
export function valueArg(args: readonly string[], i: number): string {
  const x = args[i + 1];
  if (x === undefined || x.startsWith("--")) throw new UsageError(`${args[i] ?? "flag"} needs a value`);
  return x;
}

/** `--planner-set key=value,...`: numeric LocalPlanner options by name (tuned on val seeds, never on test). */
export function plannerSetArg(value: string | undefined): Record<string, number> {
  const set: Record<string, number> = {};
  for (const kv of (value ?? "").split(",")) {
    const [k, v] = kv.split("=");
    const x = Number(v);
    if (k === undefined || !Object.hasOwn(DEFAULT_PLANNER_OPTIONS, k) || typeof DEFAULT_PLANNER_OPTIONS[k as keyof PlannerOptions] !== "number" || v === undefined || v.trim() === "" || !Number.isFinite(x)) {
      throw new UsageError(`--planner-set ${kv}: expected key=number with a numeric LocalPlanner option as key (${Object.keys(DEFAULT_PLANNER_OPTIONS).filter((o) => typeof DEFAULT_PLANNER_OPTIONS[o as keyof PlannerOptions] === "number").join(", ")})`);
    }
    set[k] = x;
  }
  return set;
}
