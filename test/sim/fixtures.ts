/** Shared test scenarios: the bundled ones with a small ground tile so world builds stay fast. */
import { buildWorld, loadScenarioFile, type Scenario, type World } from "../../sim";

export function fastScenario(name = "default", textureSize = 256): Scenario {
  const s = loadScenarioFile(name);
  s.ground.textureSize = textureSize;
  return s;
}

/**
 * An empty world of the default scenario (seed 3, 64-texel ground): no wires, no trees, no clouds,
 * exposure 1, sky brightness 0.9, for renderer tests that add their own structures.
 */
export function emptyWorld(): World {
  const s = fastScenario("default", 64);
  s.wires.lines = { min: 0, max: 0 };
  s.trees.count = { min: 0, max: 0 };
  s.lighting.cloudCover = { min: 0, max: 0 };
  s.lighting.exposure = { min: 1, max: 1 };
  s.lighting.skyBrightness = { min: 0.9, max: 0.9 };
  return buildWorld(s, 3);
}
