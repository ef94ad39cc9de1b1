/** Argument helpers shared by the subcommands: every bad value is a UsageError naming the flag and the valid range. */
import { parseSplit, type Split } from "../harness/data/SeedSplit";
import { UsageError } from "./CliCommand";

/** `value` as an integer >= min. */
export function intArg(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) throw new UsageError(`${flag}=${value ?? "(missing)"}, expected an integer >= ${min}`);
  return n;
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
