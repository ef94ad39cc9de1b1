/**
 * The models the shipped configuration flies (config/*.yaml, read by launch/nodes.launch.xml and the
 * main job) belong together: the main job's detector is the perception node's model_dir, the
 * spatial harness was trained on that student, and the harness's flight.json says how it flies:
 * the region clip chosen on validation seeds, the runtime's lambda alarm, and the safety node's
 * hover level, derived from the measured flights it names (1.5 x the largest max|delta| held for
 * runaway_count decisions in a row, rounded up to 0.1; docs/results/runaway-level-rule.txt).
 * Changing one of them alone fails here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configuredPair, PIPELINE_DETECTOR_SUBDIR } from "../../src/app/loadModels";
import { SUSTAINED_DECISIONS } from "../../src/harness/eval/harnessRows";

const ROOT = join(__dirname, "..", "..");

type FlightRecord = { regionClip: number; lambdaAlarmDelta: number; safetyRunawayDelta: number; safetyRunawayCount: number; measured: string[] };

/** The largest "held for N decisions in a row up to X" of an `eval --harness` output (correctionSummary's line). */
function heldMaximum(text: string): number {
  const held = [...text.matchAll(/held for (\d+) decisions in a row up to ([\d.]+)/g)];
  if (held.length === 0) throw new Error("no 'held for N decisions in a row' line in the measured output");
  for (const m of held) expect(Number(m[1])).toBe(SUSTAINED_DECISIONS);
  return Math.max(...held.map((m) => Number(m[2])));
}

/** The safety rule of docs/results/runaway-level-rule.txt. */
const safetyLevel = (held: number): number => Math.ceil(Math.round(1.5 * held * 1e6) / 1e5) / 10;

describe("the shipped configuration's models", () => {
  const pair = configuredPair(join(ROOT, "config"));
  const { detectorDir: detector, harnessDir, regionClip: clip } = pair;
  const flight = JSON.parse(readFileSync(join(ROOT, harnessDir, "flight.json"), "utf8")) as FlightRecord;

  it("the main job's detector is the perception node's model_dir, and both model folders exist", () => {
    expect(detector).toBe(join("models", PIPELINE_DETECTOR_SUBDIR));
    expect(existsSync(join(ROOT, detector, "teacher.weights.bin"))).toBe(true);
    expect(existsSync(join(ROOT, harnessDir, "spatial_harness.weights.bin"))).toBe(true);
  });

  it("the spatial harness was trained on that detector", () => {
    const fit = JSON.parse(readFileSync(join(ROOT, harnessDir, "fit-harness.json"), "utf8")) as { command: string };
    const trainedOn = fit.command.match(/--detector (\S+)/)?.[1];
    // Either the committed folder itself, or where fit wrote the student (fit --out D writes
    // D/student) before it was copied into models/.
    const fitOut = (JSON.parse(readFileSync(join(ROOT, detector, "fit.json"), "utf8")) as { command: string }).command.match(/--out (\S+)/)?.[1];
    expect([detector, `${fitOut}/student`]).toContain(trainedOn);
  });

  it("the clip, the lambda alarm and the safety node's hover rule are the harness's flight.json", () => {
    expect(clip).toBe(flight.regionClip);
    expect(pair.lambdaAlarmDelta).toBe(flight.lambdaAlarmDelta);
    expect(pair.runawayDelta).toBe(flight.safetyRunawayDelta);
    expect(pair.runawayCount).toBe(flight.safetyRunawayCount);
    expect(flight.safetyRunawayCount).toBe(SUSTAINED_DECISIONS);
  });

  it("the hover level follows from the measured flights, above what normal flight held and below the clip", () => {
    const held = Math.max(...flight.measured.map((f) => heldMaximum(readFileSync(join(ROOT, f), "utf8"))));
    expect(flight.safetyRunawayDelta).toBe(safetyLevel(held));
    expect(flight.safetyRunawayDelta).toBeGreaterThan(held);
    expect(flight.safetyRunawayDelta).toBeLessThan(clip);
  });

  it("safetyLevel rounds 1.5 x up to 0.1", () => {
    expect(safetyLevel(3.13)).toBe(4.7);
    expect(safetyLevel(2.0)).toBe(3.0);
    expect(safetyLevel(2.01)).toBe(3.1);
  });
});
