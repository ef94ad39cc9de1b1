/** File adapter for scenarios: reads a YAML file and parses it (the parser itself does no I/O). */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseScenario } from "../parseScenario";
import type { Scenario } from "../Scenario";

/** Directory of the bundled scenarios (sim/scenarios, also after `tsc` since YAML is read from the source tree). */
export const SCENARIO_DIR = __dirname.split(path.sep).includes("dist")
  ? path.resolve(__dirname, "..", "..", "..", "sim", "scenarios")
  : path.resolve(__dirname, "..", "scenarios");

/**
 * Loads a scenario by path, or by bare name ("default", "trees_only") from sim/scenarios/.
 */
export function loadScenarioFile(nameOrPath: string): Scenario {
  const file = /[/\\]|\.ya?ml$/.test(nameOrPath) ? nameOrPath : path.join(SCENARIO_DIR, `${nameOrPath}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`scenario file ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseScenario(text, file);
}
