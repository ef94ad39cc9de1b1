/**
 * The models the shipped configuration flies (config/*.yaml, read by launch/nodes.launch.xml and the
 * main job) belong together: the main job's detector is the perception node's model_dir, the
 * spatial harness was trained on that student at that clip (its fit-harness.json), and the safety
 * node's runaway level sits at 1.2 x the clip (the seed's 0.6 : 0.5), so a correction held to its
 * clip never trips the hover and a broken clip does. Changing one of them alone fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configuredPair, PIPELINE_DETECTOR_SUBDIR } from "../../src/app/loadModels";

const ROOT = join(__dirname, "..", "..");

describe("the shipped configuration's models", () => {
  const { detectorDir: detector, harnessDir, regionClip: clip, runawayDelta } = configuredPair(join(ROOT, "config"));

  it("the main job's detector is the perception node's model_dir, and both model folders exist", () => {
    expect(detector).toBe(join("models", PIPELINE_DETECTOR_SUBDIR));
    expect(existsSync(join(ROOT, detector, "teacher.weights.bin"))).toBe(true);
    expect(existsSync(join(ROOT, harnessDir, "spatial_harness.weights.bin"))).toBe(true);
  });

  it("the spatial harness was trained for that detector and that clip", () => {
    const fit = JSON.parse(readFileSync(join(ROOT, harnessDir, "fit-harness.json"), "utf8")) as { command: string };
    const flag = (name: string): string | undefined => fit.command.match(new RegExp(`--${name} (\\S+)`))?.[1];
    expect(Number(flag("region-clip"))).toBe(clip);
    // The harness was trained on the student where fit wrote it (fit --out D writes D/student),
    // before it was copied into models/.
    const fitOut = (JSON.parse(readFileSync(join(ROOT, detector, "fit.json"), "utf8")) as { command: string }).command.match(/--out (\S+)/)?.[1];
    expect(flag("detector")).toBe(`${fitOut}/student`);
  });

  it("the safety node's runaway level is 1.2 x the region clip", () => {
    expect(runawayDelta).toBeCloseTo(1.2 * clip, 9);
  });
});
