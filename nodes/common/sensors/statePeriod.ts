/**
 * The state period the nodes sample the IMU window at (SensorState): the models' control period,
 * read from <model_dir>/training.json (`config.controlPeriod_s`, written by `drone-harness train`,
 * src/harness/training/trainPipeline.ts) when the folder records it, else DEFAULT_STATE_PERIOD_S.
 * Reading never executes anything from the file (JSON.parse of a plain number field).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { DEFAULT_STATE_PERIOD_S } from "./SensorState";

export type StatePeriod = { period_s: number; source: string };

/** `configured` > 0 wins; 0 means "from the model folder". */
export function resolveStatePeriod(configured: number, modelDir: string): StatePeriod {
  if (configured > 0) return { period_s: configured, source: "parameter state_period_s" };
  const file = join(modelDir, "training.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { period_s: DEFAULT_STATE_PERIOD_S, source: `default (no ${file})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const config = typeof parsed === "object" && parsed !== null ? (parsed as { config?: unknown }).config : undefined;
  const value = typeof config === "object" && config !== null ? (config as { controlPeriod_s?: unknown }).controlPeriod_s : undefined;
  if (value === undefined) return { period_s: DEFAULT_STATE_PERIOD_S, source: `default (${file} records no config.controlPeriod_s)` };
  if (typeof value !== "number" || !(value > 0 && value <= 10)) {
    throw new RangeError(`${file}: config.controlPeriod_s=${JSON.stringify(value)}, expected a number in (0, 10] s`);
  }
  return { period_s: value, source: file };
}
