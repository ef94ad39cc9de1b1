/** File adapter: the `faults:` block of a scenario by name (sim/scenarios/NAME.yaml) or path. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { SCENARIO_DIR } from "../../io/loadScenarioFile";
import type { Fault } from "../FaultSpec";
import { parseScenarioFaults } from "../parseScenarioFaults";

export function loadScenarioFaults(nameOrPath: string): Fault[] {
  const file = /[/\\]|\.ya?ml$/.test(nameOrPath) ? nameOrPath : path.join(SCENARIO_DIR, `${nameOrPath}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    // The same wording as sim/io/loadScenarioFile.ts, which reads the rest of the scenario.
    throw new Error(`scenario file ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseScenarioFaults(text, file);
}
