/**
 * The main job counts the camera frames whose /cmd_vel the safety node overrode (hover instead of
 * the controller's /cmd_vel_raw of the same stamp) and names the cause from its /diagnostics. One
 * short lock-step flight of launch/sim.launch.xml with the shipped config (no override: the hover
 * level 4.7 is above what the harness holds in normal flight), and the same flight with a copy of
 * config/ whose safety hover level is 0.01 (the harness trips it once it corrects: cause "harness").
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CellScoreAccumulator } from "../../src/app/CellScoreAccumulator";
import { flyFlight } from "../../src/app/flyFlight";
import { loadModels, type LoadedModels } from "../../src/app/loadModels";
import { loadLaunchFile, resolveLaunchPath } from "../../src/ros/launch/loadLaunchFile";
import { findPackageRoot } from "../../src/ros/launch/packageRoot";
import { seedsOfSplit } from "../../sim/splits";

// Model loading and two 1.2-s lock-step flights: about 15 s idle; far from the limit when loaded.
jest.setTimeout(240_000);

const ROOT = findPackageRoot();
const SEED = seedsOfSplit("test", 1, 0)[0]!;

async function fly(models: LoadedModels, configDir?: string) {
  const plan = loadLaunchFile(resolveLaunchPath(ROOT, "sim.launch.xml"), {
    packageRoot: ROOT,
    arguments: { scenario: "default", seed: String(SEED), harness: "true", ...(configDir === undefined ? {} : { config_dir: configDir }) },
  });
  const { record } = await flyFlight({
    arm: "on", seed: SEED, plan, registry: models.registry, duration_s: 1.2,
    policyScores: new CellScoreAccumulator(), studentScores: new CellScoreAccumulator(), keepSamples: 0,
  });
  return record;
}

describe("the main job's safety-override count", () => {
  let models: LoadedModels;
  const dir = mkdtempSync(path.join(tmpdir(), "dh-safety-"));
  beforeAll(async () => {
    models = await loadModels(path.join(ROOT, "models"));
  });
  afterAll(() => {
    models?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is 0 with the shipped config and counts the harness's runaway hovers with a hover level of 0.01", async () => {
    const shipped = await fly(models);
    expect(shipped.cameraFrames).toBeGreaterThan(20);
    expect(shipped.safetyOverrides).toEqual({ frames: 0, byCause: {} });

    const config = path.join(dir, "config");
    cpSync(path.join(ROOT, "config"), config, { recursive: true });
    const safety = path.join(config, "safety.yaml");
    const text = readFileSync(safety, "utf8");
    expect(text).toMatch(/runaway_delta: [\d.]+/);
    writeFileSync(safety, text.replace(/runaway_delta: [\d.]+/, "runaway_delta: 0.01"));
    const tripped = await fly(models, config);
    expect(tripped.safetyOverrides.frames).toBeGreaterThan(0);
    expect(tripped.safetyOverrides.frames).toBeLessThan(tripped.cameraFrames);
    expect(tripped.safetyOverrides.byCause.harness).toBeGreaterThan(0);
  });
});
