/**
 * The models the shipped configuration flies (config/*.yaml, read by launch/nodes.launch.xml and the
 * main job) belong together: the main job's detector is the perception node's model_dir, the
 * spatial harness was trained on that student, and the harness's flight.json says how it flies:
 * the region clip chosen on validation seeds, the runtime's lambda alarm, and the safety node's
 * hover level, derived from the measured flights it names (1.5 x the largest max|delta| held for
 * runaway_count decisions in a row, rounded up to 0.1; docs/results/runaway-level-rule.txt).
 * Changing one of them alone fails here.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configuredPair, configuredPlanner, PIPELINE_DETECTOR_SUBDIR } from "../../src/app/loadModels";
import { DEFAULT_PLANNER_OPTIONS } from "../../src/control/LocalPlanner";
import { loadLaunchFile, resolveLaunchPath } from "../../src/ros/launch/loadLaunchFile";
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

describe("the controller's planner options as the pipeline bench reads them (configuredPlanner)", () => {
  it("are the parameters launch/sim.launch.xml gives the controller node", () => {
    const plan = loadLaunchFile(resolveLaunchPath(ROOT, "sim.launch.xml"), { packageRoot: ROOT, arguments: { harness: "true" } });
    const controller = plan.nodes.find((n) => n.executable === "controller");
    if (controller === undefined) throw new Error("launch/sim.launch.xml starts no controller");
    const param = (name: string): unknown => controller.parameters[name]?.value;
    const { options, commitSide } = configuredPlanner(join(ROOT, "config"));
    expect(options.verticalCommit).toBe(param("vertical_commit_level"));
    expect(options.verticalCommitWireCells).toBe(param("vertical_commit_wire_cells"));
    expect(options.verticalCommitStall_s).toBe(param("vertical_commit_stall_s") ?? 0);
    expect(options.arrivalRadius_m).toBe(param("arrival_radius_m"));
    expect(options.arrivalGuarded).toBe(true);
    expect(options.scanWhenStuck_s).toBe(param("scan_when_stuck_s") ?? 0);
    expect(options.stuckClimb_m).toBe(param("stuck_climb_m") ?? 0);
    expect(options.stuckClimbRelease_m).toBe(param("stuck_climb_release_m") ?? DEFAULT_PLANNER_OPTIONS.stuckClimbRelease_m);
    expect(commitSide ?? "held").toBe(param("vertical_commit_side"));
  });

  describe("a broken controller.yaml is refused with the entry named", () => {
    const base = readFileSync(join(ROOT, "config", "controller.yaml"), "utf8");
    const withText = (text: string): string => {
      const dir = mkdtempSync(join(tmpdir(), "dh-planner-config-"));
      writeFileSync(join(dir, "controller.yaml"), text);
      return dir;
    };
    it.each([
      ["no arrival radius", base.replace(/^\s*arrival_radius_m:.*$/m, ""), /controller\.yaml: no string or number parameter arrival_radius_m for \/controller/],
      ["an unknown side", base.replace(/vertical_commit_side: each/, "vertical_commit_side: sideways"), /vertical_commit_side="sideways", expected each or held/],
      ["a negative level", base.replace(/vertical_commit_level: [\d.]+/, "vertical_commit_level: -0.3"), /vertical_commit_level=-0.3, expected a non-negative number/],
    ])("%s", (_, text, message) => {
      expect(text).not.toBe(base);
      expect(() => configuredPlanner(withText(text))).toThrow(message);
    });
  });
});
