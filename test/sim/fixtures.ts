/** Shared test scenarios: the bundled ones with a small ground tile so world builds stay fast. */
import { loadScenarioFile, type Scenario } from "../../sim";

export function fastScenario(name = "default", textureSize = 256): Scenario {
  const s = loadScenarioFile(name);
  s.ground.textureSize = textureSize;
  return s;
}
