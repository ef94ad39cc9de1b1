/**
 * `dataset --pilot-detector D --pilot-harness H`: the student phase of a later co-evolution round
 * records the frames the student + harness pair visits. The pilot applies the harness's correction
 * (it flies differently from the detector alone), starts every flight afresh (the harness's rates,
 * lambda schedule and texture gain do not leak from one flight into the next), and the flags are
 * refused where they mean nothing.
 */
import * as path from "node:path";
import { seedsOfSplit, splitOfSeed } from "../../../sim";
import { parseDatasetArgs } from "../../../src/cli/commands/dataset";
import { parseFitHarnessArgs } from "../../../src/cli/commands/fitHarness";
import { UsageError } from "../../../src/cli/CliCommand";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { generateFrames, type FramePilot } from "../../../src/harness/data/generateFrames";
import { detectorPilot } from "../../../src/harness/data/node/generateFramesParallel";
import { SeedSource } from "../../../src/harness/data/SeedSplit";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { simEnvironmentFactory } from "../../../src/harness/data/simEnvironment";
import { WIRE_ACROSS } from "../eval/wireAcross";

jest.setTimeout(120_000);

const MODELS = path.join(__dirname, "..", "..", "..", "models", "coevo");
const STUDENT = path.join(MODELS, "student");
const HARNESS = path.join(MODELS, "harness-contact");
const factory = simEnvironmentFactory(WIRE_ACROSS, "train", { controlPeriod_s: 0.25 });
const [seedA, seedB] = seedsOfSplit("train", 2) as [number, number];

/** The pilot's actions over `steps` control steps of a fresh flight of `seed` (stops at its end). */
function fly(pilot: FramePilot, seed: number, steps: number): number[] {
  const env = factory(seed, { perturbed: false });
  const rgb = new Uint8Array(env.width * env.height * 3);
  const actions: number[] = [];
  pilot.reset();
  for (let i = 0; i < steps; i++) {
    env.render(rgb);
    const a = pilot.act(env, rgb);
    actions.push(a);
    if (env.step(a).type !== "running") break;
  }
  return actions;
}

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("the detector pilot with a harness applied", () => {
  it("flies the corrected cells: a strong clip changes its decisions on a wire crossing", async () => {
    const plain = fly(await detectorPilot(STUDENT), seedA, 120);
    const corrected = fly(await detectorPilot(STUDENT, { dir: HARNESS, regionClip: 20 }), seedA, 120);
    expect(corrected).not.toEqual(plain);
  });

  it("starts each recorded flight afresh: a second flight flies as it would from a new pilot", async () => {
    const harness = { dir: HARNESS, regionClip: 20 };
    const record = async (seeds: number[]): Promise<number[][]> =>
      generateFrames({ seeds, source: new SeedSource("train", splitOfSeed), factory, stateDim: STATE_DIM, recordEvery: 4, maxFramesPerFlight: 30, explore: 0, rngSeed: 1, pilot: await detectorPilot(STUDENT, harness) })
        .frames.filter((f) => f.seed === seedB)
        .map((f) => Array.from(f.state));
    const second = await record([seedA, seedB]);
    expect(second.length).toBeGreaterThan(5);
    expect(second).toEqual(await record([seedB]));
  });
});

describe("dataset --pilot-harness and fit-harness --region-clip", () => {
  const base = ["--scenario", "default", "--flights", "4", "--cache", "/tmp/x"];
  it("takes the harness and its clip next to a pilot detector", () => {
    expect(parseDatasetArgs([...base, "--pilot-detector", "d", "--pilot-harness", "h", "--region-clip", "2"])).toMatchObject({ pilotDetector: "d", pilotHarness: "h", regionClip: 2 });
  });
  it("refuses a harness without a pilot detector and a clip without a harness", () => {
    expect(() => parseDatasetArgs([...base, "--pilot-harness", "h"])).toThrow(/--pilot-harness .*--pilot-detector/);
    expect(() => parseDatasetArgs([...base, "--pilot-detector", "d", "--region-clip", "2"])).toThrow(UsageError);
    const fit = ["--detector", "d", "--scenario", "default", "--flights", "2", "--out", "/tmp/h"];
    expect(parseFitHarnessArgs([...fit, "--harness", "h", "--region-clip", "2"]).regionClip).toBe(2);
    expect(() => parseFitHarnessArgs([...fit, "--region-clip", "2"])).toThrow(/--region-clip .*--harness/);
  });
});
