/** File adapter: the `faults:` block of a scenario by name (sim/scenarios/NAME.yaml) or path. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { SCENARIO_DIR } from "../../io/loadScenarioFile";
import type { Fault } from "../FaultSpec";
import { parseScenarioFaults } from "../parseScenarioFaults";

export function loadScenarioFaults(nameOrPath: string): Fault[] {
  const file = /[/\\]|\.ya?ml$/.test(nameOrPath) ? nameOrPath : path.join(SCENARIO_DIR, `${nameOrPath}.yaml`);
  return parseScenarioFaults(readFileSync(file, "utf8"), file);
}
