/**
 * The trained networks of the main job, loaded once and shared by every flight (the perception
 * and harness nodes of each launch wrap them without owning them). Untrained weights would make
 * the A/B comparison meaningless, so missing model files are an error that says how to train,
 * never a silent fallback to random weights.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { HarnessCorrector } from "../../nodes/common/models/HarnessCorrector";
import { StudentDetector } from "../../nodes/common/models/StudentDetector";
import { createNodeRegistry } from "../../nodes";
import { initBackend } from "../harness/backend";
import { ThreatDetector } from "../../nodes/common/models/ThreatDetector";
import { loadHarness, loadStudent, loadTeacher, modelPaths } from "../harness/modelfile";
import type { Teacher } from "../harness/models/Teacher";
import type { HarnessNet } from "../harness/models/HarnessNet";
import type { Student } from "../harness/models/Student";
import type { NodeRegistry } from "../ros/launch/NodeFactory";
import { DEFAULT_PLANNER_OPTIONS, type PlannerOptions } from "../control/LocalPlanner";
import type { CommitSide } from "../control/VerticalCommitment";
import { parametersForNode, parseParameterFile, toOverrides } from "../ros/params";

export class MissingModelsError extends Error {}

export type LoadedModels = { student: Student; harness: HarnessNet; detector: Teacher; backend: string; registry: NodeRegistry; trainingCommand: string | undefined; dispose(): void };

/** How long the committed training took, from training.json's timings (when present). */
function trainingHint(dir: string): string {
  const info = path.join(dir, "training.json");
  if (existsSync(info)) {
    try {
      const t = JSON.parse(readFileSync(info, "utf8")) as { timings_s?: Record<string, number> };
      const total = Object.values(t.timings_s ?? {}).reduce((a, b) => a + b, 0);
      if (total > 0) return ` (the run recorded in ${info} took ${(total / 60).toFixed(0)} min of training on its machine)`;
    } catch {
      // An unreadable training.json only loses the duration hint.
    }
  }
  return "";
}

/** The pipeline detector the main job's perception nodes run (detector:=pipeline), under the model folder: the second co-evolution round's student (issue 13), as config/perception.yaml names it. */
export const PIPELINE_DETECTOR_SUBDIR = path.join("coevo", "student-r2");

export type ConfiguredPair = { detectorDir: string; harnessDir: string; regionClip: number; lambdaAlarmDelta: number; runawayDelta: number; runawayCount: number };

/**
 * What `configDir` (config/, read by launch/nodes.launch.xml) gives the perception, harness and
 * safety nodes: the detector and spatial harness the nodes and `npm start` fly, the region clip, the
 * harness runtime's lambda alarm and the safety node's hover rule. A missing or mistyped entry is an error naming it.
 */
/** The string or number parameter `name` of `/node` in `configDir`/`node`.yaml; an error naming it when missing (or undefined when `optional`). */
function configValue(configDir: string, node: string, name: string, optional?: "optional"): string | number | undefined {
  const file = path.join(configDir, `${node}.yaml`);
  const v = toOverrides(parametersForNode(parseParameterFile(readFileSync(file, "utf8"), file), `/${node}`))[name];
  if (v === undefined && optional !== undefined) return undefined;
  if (typeof v !== "string" && typeof v !== "number") throw new Error(`${file}: no string or number parameter ${name} for /${node}`);
  return v;
}

export function configuredPair(configDir: string): ConfiguredPair {
  const value = (node: string, name: string): string | number => configValue(configDir, node, name) as string | number;
  return {
    detectorDir: String(value("perception", "model_dir")),
    harnessDir: String(value("harness", "spatial_harness_dir")),
    regionClip: Number(value("harness", "region_clip")),
    lambdaAlarmDelta: Number(value("harness", "lambda_alarm_delta")),
    runawayDelta: Number(value("safety", "runaway_delta")),
    runawayCount: Number(value("safety", "runaway_count")),
  };
}

export async function loadModels(modelDir: string): Promise<LoadedModels> {
  const detectorDir = path.join(modelDir, PIPELINE_DETECTOR_SUBDIR);
  const missing = [
    ...(["student", "harness"] as const).flatMap((k) => [modelPaths(modelDir, k).modelJson, modelPaths(modelDir, k).weightsBin]),
    modelPaths(detectorDir, "teacher").modelJson,
    modelPaths(detectorDir, "teacher").weightsBin,
  ].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new MissingModelsError(
      `no trained models in ${path.resolve(modelDir)} (missing: ${missing.map((f) => path.basename(f)).join(", ")}).\n` +
        `Train them first: \`npx drone-harness train --scenario default --out ${modelDir} --seed 1\`, about 20-25 min on a 2-core machine${trainingHint(modelDir)}, ` +
        `or add \`--quick\` for small smoke-test models (shorter training, lower quality). The main job does not fly untrained (random) weights.`,
    );
  }
  const backend = await initBackend();
  const student = (await loadStudent(modelDir)).model;
  const harness = (await loadHarness(modelDir)).model;
  const detector = (await loadTeacher(detectorDir)).model;
  let trainingCommand: string | undefined;
  try {
    trainingCommand = (JSON.parse(readFileSync(path.join(modelDir, "training.json"), "utf8")) as { command?: string }).command;
  } catch {
    trainingCommand = undefined;
  }
  const registry = createNodeRegistry({
    detector: ({ kind, width, height }) =>
      kind === "pipeline" ? new ThreatDetector(detector, width, height, { ownsModel: false }) : new StudentDetector(student, width, height, { ownsModel: false }),
    corrector: () => new HarnessCorrector(harness, { ownsModel: false }),
  });
  return {
    student,
    harness,
    detector,
    backend: backend.name,
    registry,
    trainingCommand,
    dispose: () => {
      student.dispose();
      harness.dispose();
      detector.dispose();
    },
  };
}

/** The local planner's decision options the controller node flies (config/controller.yaml), as PlannerPilot takes them. */
export type ConfiguredPlanner = {
  options: Pick<PlannerOptions, "verticalCommit" | "verticalCommitWireCells" | "verticalCommitStall_s" | "arrivalRadius_m" | "arrivalGuarded" | "scanWhenStuck_s" | "stuckClimb_m" | "stuckClimbRelease_m">;
  /** vertical_commit_side each (every such decision reads the wire cells' side) as PlannerPilot's detector source takes it; undefined for held. */
  commitSide: Extract<CommitSide, "each"> | undefined;
};

/**
 * What `configDir`/controller.yaml gives the controller node's planner beyond its defaults: the vertical
 * commitment (vertical_commit_level, _wire_cells, _side, and _stall_s when set; nodes/controller.ts's
 * default 0 otherwise), the final approach (arrival_radius_m; the node's approach is always guarded), and the
 * scan and climb when stuck (scan_when_stuck_s, stuck_climb_m, stuck_climb_release_m; the node's defaults, off, when unset).
 * The pipeline bench flies its pilots with them, so the latency it reports is that of the nodes' planner.
 */
export function configuredPlanner(configDir: string): ConfiguredPlanner {
  const file = path.join(configDir, "controller.yaml");
  const num = (name: string, optional?: "optional"): number | undefined => {
    const v = configValue(configDir, "controller", name, optional);
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) throw new Error(`${file}: ${name}=${String(v)}, expected a non-negative number`);
    return v;
  };
  const side = String(configValue(configDir, "controller", "vertical_commit_side"));
  if (side !== "each" && side !== "held") throw new Error(`${file}: vertical_commit_side="${side}", expected each or held`);
  return {
    options: {
      verticalCommit: num("vertical_commit_level") as number,
      verticalCommitWireCells: num("vertical_commit_wire_cells") as number,
      verticalCommitStall_s: num("vertical_commit_stall_s", "optional") ?? 0,
      arrivalRadius_m: num("arrival_radius_m") as number,
      arrivalGuarded: true,
      scanWhenStuck_s: num("scan_when_stuck_s", "optional") ?? 0,
      stuckClimb_m: num("stuck_climb_m", "optional") ?? 0,
      stuckClimbRelease_m: num("stuck_climb_release_m", "optional") ?? DEFAULT_PLANNER_OPTIONS.stuckClimbRelease_m,
    },
    commitSide: side === "each" ? side : undefined,
  };
}
