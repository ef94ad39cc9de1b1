/**
 * `drone-harness eval --harness --scenario <yaml|name> [--split test] [--flights 100] [--first-seed N]
 *  [--conditions nominal,perturbed] [--bc <dir>] [--bc-harness <dir>] [--coevo <dir>] [--coevo-harness <dir>]
 *  [--rows name,...] [--region-clip X] [--runaway-level X|none] [--lambda-initial X] [--wire-gate level,cells,window_s] [--vertical-hold X] [--brake-on-reversal B] [--vertical-in-place L[,cells]] [--vertical-commit L,cells[,each|truth|truth-each]] [--commit-stall S] [--arrival R[,guarded]] [--scan-when-stuck S [--stuck-climb M[,R]]] [--planner-set key=value,...] [--risk-hold P] [--risk-floor X] [--aim low,high] [--workers N] [--ap-every N] [--attribute-strikes] [--wire-crossings] [--json]`
 * The rows of issue 13 on the same held-out seeds (src/harness/eval/harnessRows.ts), flown on
 * worker threads, with the paired ON/OFF comparisons (McNemar) and the trace of the first
 * differing decision of every flight whose outcome differs. Defaults: the BC student
 * models/pipeline/student, its harness models/coevo/bc-harness, the co-evolved student
 * models/coevo/student and harness models/coevo/harness.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadScenarioFile, splitOfSeed } from "../../../sim";
import { LAMBDA_MAX, LAMBDA_MIN } from "../../harness/correction/constants";
import { runHarnessRowJobs, type ArmFiles, type HarnessRowJob } from "../../harness/data/node/harnessRowsParallel";
import type { Split } from "../../harness/data/SeedSplit";
import type { WireGate } from "../../harness/runtime/SpatialHarnessRuntime";
import type { CorrectionAim } from "../../harness/spatial/spatialCorrection";
import { formatHarnessReport, harnessEvalSeeds, harnessReport, rowProgress } from "../../harness/eval/harnessRows";
import { COMMIT_SIDES, isCommitSide, type CommitSide } from "../../harness/eval/PlannerPilot";
import { FULL_CONFIG } from "../../harness/training/trainConfig";
import type { PlannerOptions } from "../../control/LocalPlanner";
import { intArg, numberArg, plannerSetArg, valueArg } from "../args";
import { UsageError, type CliIO } from "../CliCommand";

export const HARNESS_ROWS = ["bc_student", "bc_student_harness", "coevo_student_harness", "coevo_student_off", "coevo_student_action_formula", "bc_student_oracle", "coevo_student_oracle", "coevo_student_fill", "coevo_student_fill_wire", "coevo_student_clean", "coevo_student_linefill", "coevo_student_linefill2", "coevo_student_linegate", "coevo_student_wiregate", "coevo_student_gap_oracle"] as const;
/** Rows flown unless --rows names them (the literal action formula costs 3 extra detector passes per decision). */
export const DEFAULT_HARNESS_ROWS: readonly HarnessRowName[] = ["bc_student", "bc_student_harness", "coevo_student_harness", "coevo_student_off"];
export type HarnessRowName = (typeof HARNESS_ROWS)[number];

/** The ON/OFF pairs compared when both rows are flown. */
export const HARNESS_PAIRS: readonly [HarnessRowName, HarnessRowName][] = [
  ["bc_student_harness", "bc_student"],
  ["coevo_student_harness", "coevo_student_off"],
  ["coevo_student_action_formula", "coevo_student_off"],
  ["bc_student_oracle", "bc_student"],
  ["coevo_student_oracle", "coevo_student_off"],
  ["coevo_student_fill", "coevo_student_off"],
  ["coevo_student_fill_wire", "coevo_student_off"],
  ["coevo_student_clean", "coevo_student_off"],
  ["coevo_student_linefill", "coevo_student_off"],
  ["coevo_student_linefill2", "coevo_student_off"],
  ["coevo_student_linegate", "coevo_student_off"],
  ["coevo_student_wiregate", "coevo_student_off"],
  ["coevo_student_gap_oracle", "coevo_student_off"],
];

export type EvalHarnessArgs = {
  scenario: string;
  split: Split;
  flights: number;
  firstSeed: number;
  conditions: ("nominal" | "perturbed")[];
  bc: string;
  bcHarness: string;
  coevo: string;
  coevoHarness: string;
  rows: HarnessRowName[];
  regionClip?: number;
  /** The harness runtime's runaway alarm level (SpatialHarnessOptions.runawayDelta); "none" = Infinity. */
  runawayDelta?: number;
  /**
   * Where the runtime's lambda schedule starts each flight (LambdaScheduleOptions.initial; default SPEC's 0.3,
   * within the schedule's bounds [LAMBDA_MIN, LAMBDA_MAX]). Twenty-seventh session: at clip 8 the start value puts
   * the first decisions at the clip until the runaway alarm has halved lambda down to its floor.
   */
  lambdaInitial?: number;
  /**
   * The runtime's wire gate (SpatialHarnessOptions.wireGate; twenty-eighth session): the correction applied only within
   * window_s seconds of a frame with at least `cells` cells whose uncorrected wire probability reached level. Default off.
   */
  wireGate?: WireGate;
  /** The planner's decision hysteresis on climb/descend (PlannerOptions.wVerticalHold); default 0 = off. */
  verticalHold?: number;
  /** Climb/descend with no forward speed while blocked_cruise >= L (PlannerOptions.verticalInPlace); default 0 = off. */
  verticalInPlace?: number;
  /** With it: only within 2 s of a frame with at least this many cells at uncorrected wire probability >= 0.9 (PlannerOptions.verticalInPlaceWireCells). */
  verticalInPlaceWireCells?: number;
  /** Hold one side of a seen wire (>= cells at uncorrected wire probability >= 0.9 within 2 s) for every climb/descend at blocked_cruise >= L, the side by the wire cells' height (PlannerOptions.verticalCommit, verticalCommitWireCells); default off. */
  verticalCommit?: { level: number; cells: number; side?: CommitSide };
  /** With verticalCommit: its stall bound in seconds (PlannerOptions.verticalCommitStall_s); default off. */
  commitStall?: number;
  /** The final approach's horizontal radius, m, and whether it is guarded (PlannerOptions.arrivalRadius_m, arrivalGuarded; src/control/arrival.ts); default off. */
  arrival?: { radius_m: number; guarded: boolean };
  /** Scan when stuck after S seconds without 1 m of progress (PlannerOptions.scanWhenStuck_s; src/control/stuckScan.ts); default off. */
  scanWhenStuck?: number;
  /** With --scan-when-stuck: once stuck, the goal's altitude raised by climb_m until within release_m of the goal (PlannerOptions.stuckClimb_m, stuckClimbRelease_m); default off. */
  stuckClimb?: { climb_m: number; release_m?: number };
  /** `--planner-set key=value,...`: numeric LocalPlanner options, applied before the flags above (development on val seeds). */
  plannerSet?: Record<string, number>;
  /** The planner's braking on a vertical reversal (PlannerOptions.brakeOnReversal, a blocked_cruise level); default 0 = off. */
  brakeOnReversal?: number;
  /** Each region's risk held at P x its last held value when it drops (PlannerPilot riskHold; eval only); default off. */
  riskHold?: number;
  /** The runtime's riskFloor (SpatialHarnessOptions; twenty-fifth session): regions under it lose their push. Default 0. */
  riskFloor?: number;
  /** The aimed correction's window of uncorrected near-threat probability (SpatialHarnessOptions.aim); default off. */
  aim?: CorrectionAim;
  workers: number;
  apEvery: number;
  attributeStrikes: boolean;
  wireCrossings: boolean;
  json: boolean;
};

export function parseEvalHarnessArgs(args: readonly string[]): EvalHarnessArgs {
  const a: EvalHarnessArgs = {
    scenario: "", split: "test", flights: 100, firstSeed: 0, conditions: ["nominal", "perturbed"],
    bc: "models/pipeline/student", bcHarness: "models/coevo/bc-harness", coevo: "models/coevo/student", coevoHarness: "models/coevo/harness",
    rows: [...DEFAULT_HARNESS_ROWS], workers: 2, apEvery: 4, attributeStrikes: false, wireCrossings: false, json: false,
  };
  for (let i = 0; i < args.length; i++) {
    const f = args[i] ?? "";
    const v = (): string => valueArg(args, i++);
    switch (f) {
      case "--harness": break;
      case "--scenario": a.scenario = v(); break;
      case "--split": a.split = heldOutSplit(v()); break;
      case "--flights": a.flights = intArg(f, args[++i], 1); break;
      case "--first-seed": a.firstSeed = intArg(f, args[++i], 0); break;
      case "--conditions": {
        const list = v().split(",");
        if (list.length === 0 || !list.every((c) => c === "nominal" || c === "perturbed")) throw new UsageError(`--conditions=${list.join(",")}, expected nominal and/or perturbed`);
        a.conditions = list;
        break;
      }
      case "--bc": a.bc = v(); break;
      case "--bc-harness": a.bcHarness = v(); break;
      case "--coevo": a.coevo = v(); break;
      case "--coevo-harness": a.coevoHarness = v(); break;
      case "--rows": {
        const list = v().split(",");
        const bad = list.filter((r) => !(HARNESS_ROWS as readonly string[]).includes(r));
        if (bad.length > 0) throw new UsageError(`--rows: unknown row ${bad.join(", ")}; expected a comma list of ${HARNESS_ROWS.join(", ")}`);
        a.rows = list as HarnessRowName[];
        break;
      }
      case "--region-clip": a.regionClip = numberArg(f, args[++i], 1e-3, 100); break;
      case "--runaway-level": {
        const x = v();
        a.runawayDelta = x === "none" ? Infinity : numberArg(f, x, 1e-3, 100);
        break;
      }
      case "--lambda-initial": a.lambdaInitial = numberArg(f, args[++i], LAMBDA_MIN, LAMBDA_MAX); break;
      case "--wire-gate": a.wireGate = wireGateArg(f, v()); break;
      case "--vertical-hold": a.verticalHold = numberArg(f, args[++i], 0, 100); break;
      case "--vertical-in-place": {
        const value = v();
        const [level, cells, ...rest] = value.split(",");
        if (rest.length > 0) throw new UsageError(`${f}=${value}, expected L or L,cells: a blocked_cruise level in [0, 1] and optionally a count of wire cells >= 1`);
        a.verticalInPlace = numberArg(f, level, 0, 1);
        if (cells !== undefined) a.verticalInPlaceWireCells = intArg(f, cells, 1);
        break;
      }
      case "--vertical-commit": {
        const value = v();
        const [level, cells, side, ...rest] = value.split(",");
        if (cells === undefined || rest.length > 0 || (side !== undefined && !isCommitSide(side))) {
          throw new UsageError(`${f}=${value}, expected L,cells or L,cells,${COMMIT_SIDES.join("|")}: a blocked_cruise level in (0, 1], a count of wire cells >= 1, and optionally the wire cells' side at every decision (each) or a bound with the side from the world's wires`);
        }
        a.verticalCommit = { level: numberArg(f, level, 1e-3, 1), cells: intArg(f, cells, 1), ...(side === undefined ? {} : { side }) };
        break;
      }
      case "--commit-stall": a.commitStall = numberArg(f, args[++i], 0.01, 600); break;
      case "--arrival": a.arrival = arrivalArg(f, v()); break;
      case "--scan-when-stuck": a.scanWhenStuck = numberArg(f, v(), 0.5, 600); break;
      case "--stuck-climb": a.stuckClimb = stuckClimbArg(f, v()); break;
      case "--planner-set": a.plannerSet = plannerSetArg(v()); break;
      case "--brake-on-reversal": a.brakeOnReversal = numberArg(f, args[++i], 0, 1); break;
      case "--risk-hold": a.riskHold = numberArg(f, args[++i], 0, 1); break;
      case "--risk-floor": a.riskFloor = numberArg(f, args[++i], 0, 0.99); break;
      case "--aim": a.aim = aimArg(f, v()); break;
      case "--workers": a.workers = intArg(f, args[++i], 1); break;
      case "--ap-every": a.apEvery = intArg(f, args[++i], 1); break;
      case "--attribute-strikes": a.attributeStrikes = true; break;
      case "--wire-crossings": a.wireCrossings = true; break;
      case "--json": a.json = true; break;
      default: throw new UsageError(`unknown argument "${f}"`);
    }
  }
  checkEvalHarnessArgs(a);
  return a;
}

/** What the flags cannot say alone: a scenario, and a stall bound only with the commitment it bounds. */
function checkEvalHarnessArgs(a: EvalHarnessArgs): void {
  if (a.scenario === "") throw new UsageError("--scenario is required");
  if (a.commitStall !== undefined && a.verticalCommit === undefined) throw new UsageError("--commit-stall bounds the vertical commitment: give --vertical-commit L,cells[,side] with it");
  if (a.stuckClimb !== undefined && a.scanWhenStuck === undefined) throw new UsageError("--stuck-climb climbs once the drone is stuck, as the scan when stuck reads it: give --scan-when-stuck S with it");
}

/** The planner options the flags set (none: the planner's defaults). */
function plannerOptions(a: EvalHarnessArgs): { planner?: Partial<PlannerOptions> } {
  const planner: Partial<PlannerOptions> = {
    ...(a.plannerSet as Partial<PlannerOptions> | undefined),
    ...(a.verticalHold === undefined ? {} : { wVerticalHold: a.verticalHold }),
    ...(a.verticalInPlace === undefined ? {} : { verticalInPlace: a.verticalInPlace }),
    ...(a.verticalInPlaceWireCells === undefined ? {} : { verticalInPlaceWireCells: a.verticalInPlaceWireCells }),
    ...(a.brakeOnReversal === undefined ? {} : { brakeOnReversal: a.brakeOnReversal }),
    ...(a.verticalCommit === undefined ? {} : { verticalCommit: a.verticalCommit.level, verticalCommitWireCells: a.verticalCommit.cells }),
    ...(a.commitStall === undefined ? {} : { verticalCommitStall_s: a.commitStall }),
    ...(a.arrival === undefined ? {} : { arrivalRadius_m: a.arrival.radius_m, arrivalGuarded: a.arrival.guarded }),
    ...(a.scanWhenStuck === undefined ? {} : { scanWhenStuck_s: a.scanWhenStuck }),
    ...(a.stuckClimb === undefined ? {} : { stuckClimb_m: a.stuckClimb.climb_m, ...(a.stuckClimb.release_m === undefined ? {} : { stuckClimbRelease_m: a.stuckClimb.release_m }) }),
  };
  return Object.keys(planner).length === 0 ? {} : { planner };
}

/** "--split val|test": evaluation reads only held-out seeds. */
function heldOutSplit(sp: string): "val" | "test" {
  if (sp !== "test" && sp !== "val") throw new UsageError(`--split=${sp}: evaluation reads only held-out seeds (test, or val while developing)`);
  return sp;
}

/** "--stuck-climb M[,R]": the climb over the goal's altitude (m) and, optionally, the goal distance that ends it (m). */
function stuckClimbArg(f: string, value: string): { climb_m: number; release_m?: number } {
  const [climb, release, ...rest] = value.split(",");
  if (rest.length > 0) throw new UsageError(`${f}=${value}, expected M or M,R: the climb over the goal's altitude (m) and the goal distance that ends it (m)`);
  return { climb_m: numberArg(f, climb, 0.5, 50), ...(release === undefined ? {} : { release_m: numberArg(f, release, 0, 1000) }) };
}

/** "--arrival R" or "--arrival R,guarded": a radius in [0.1, 1000] m, optionally guarded. */
function arrivalArg(flag: string, value: string): { radius_m: number; guarded: boolean } {
  const [radius, guard, ...rest] = value.split(",");
  if (rest.length > 0 || (guard !== undefined && guard !== "guarded")) throw new UsageError(`${flag}=${value}, expected R or R,guarded (a radius in metres)`);
  return { radius_m: numberArg(flag, radius, 0.1, 1000), guarded: guard === "guarded" };
}

/** "--aim low,high": two probabilities with 0 <= low < high <= 1. */
function aimArg(flag: string, value: string): CorrectionAim {
  const parts = value.split(",");
  const [low, high] = parts.map((x) => numberArg(flag, x, 0, 1));
  if (parts.length !== 2 || low === undefined || high === undefined || !(low < high)) throw new UsageError(`${flag}=${value}, expected low,high with 0 <= low < high <= 1 (e.g. 0.1,0.5)`);
  return { low, high };
}

/** "--wire-gate level,cells,window_s": a probability in [0, 1], a count of cells >= 1 and a window of seconds >= 0. */
function wireGateArg(flag: string, value: string): WireGate {
  const parts = value.split(",");
  if (parts.length !== 3) throw new UsageError(`${flag}=${value}, expected level,cells,window_s: a cell's wire probability in [0, 1], a count of cells >= 1 and seconds >= 0 (e.g. 0.5,8,2)`);
  return { level: numberArg(flag, parts[0], 0, 1), cells: intArg(flag, parts[1], 1), window_s: numberArg(flag, parts[2], 0, 3600) };
}

export function armFiles(a: EvalHarnessArgs, row: HarnessRowName): ArmFiles {
  // The runtime options the flags set; an option left unset keeps the runtime's default.
  const runtime = {
    ...(a.regionClip === undefined ? {} : { regionClip: a.regionClip }),
    ...(a.runawayDelta === undefined ? {} : { runawayDelta: a.runawayDelta }),
    ...(a.aim === undefined ? {} : { aim: a.aim }),
    ...(a.riskFloor === undefined ? {} : { riskFloor: a.riskFloor }),
    ...(a.lambdaInitial === undefined ? {} : { lambda: { initial: a.lambdaInitial } }),
    ...(a.wireGate === undefined ? {} : { wireGate: a.wireGate }),
  };
  const options = { ...(Object.keys(runtime).length === 0 ? {} : { options: runtime }), ...(a.riskHold === undefined ? {} : { riskHold: a.riskHold }) };
  const bc = { name: row, detectorDir: a.bc, harnessDir: a.bcHarness, ...options };
  const coevo = { name: row, detectorDir: a.coevo, harnessDir: a.coevoHarness, ...options };
  switch (row) {
    case "bc_student": return { name: row, detectorDir: a.bc, apply: false };
    case "bc_student_harness": return { ...bc, apply: true };
    case "coevo_student_harness": return { ...coevo, apply: true };
    // The OFF arm runs the same harness without applying it: identical inputs, its risk traced.
    case "coevo_student_off": return { ...coevo, apply: false };
    // The seed's literal formula on the planner's action logits (S by finite differences, r and lambda from the harness).
    case "coevo_student_action_formula": return { ...coevo, apply: true, target: "actions" };
    // Upper bounds of the spatial correction's form (not harnesses): r from the simulator's near-threat cells, the whole region clip on them.
    case "bc_student_oracle": return { ...bc, apply: true, target: "oracle" };
    case "coevo_student_oracle": return { ...coevo, apply: true, target: "oracle" };
    // Error decomposition (PlannerPilot TruthMix; not harnesses): the OFF arm's grid with its gaps filled or its false alarms removed from the truth.
    case "coevo_student_fill": return { ...coevo, apply: false, truthMix: "fill" };
    case "coevo_student_fill_wire": return { ...coevo, apply: false, truthMix: "fill-wire" };
    case "coevo_student_clean": return { ...coevo, apply: false, truthMix: "clean" };
    // Gap filling along lines, no truth (PlannerPilot LineFill): segment half-length 0.2 of the grid, gain 1 or 2.
    case "coevo_student_linefill": return { ...coevo, apply: false, lineFill: { fraction: 0.2, gain: 1 } };
    case "coevo_student_linefill2": return { ...coevo, apply: false, lineFill: { fraction: 0.2, gain: 2 } };
    // Gain 2 only where the segment mean reaches 0.3 (the background and one-cell blobs stay under it).
    case "coevo_student_linegate": return { ...coevo, apply: false, lineFill: { fraction: 0.2, gain: 2, floor: 0.3 } };
    // The same gate with the segment means taken on the wire-class probabilities: only wires are completed.
    case "coevo_student_wiregate": return { ...coevo, apply: false, lineFill: { fraction: 0.2, gain: 2, floor: 0.3, wireOnly: true } };
    // The harness's own correction with a perfect risk: r from the truth's wire-gap regions, S, lambda and clip the harness's (not a harness).
    case "coevo_student_gap_oracle": return { ...coevo, apply: true, target: "gap-risk" };
  }
}

export async function runHarnessEval(args: readonly string[], io: CliIO): Promise<number> {
  const a = parseEvalHarnessArgs(args);
  const scenario = loadScenarioFile(a.scenario);
  // --vertical-commit L,cells,each|truth|truth-each: every row's commitment takes its side at every decision or from the world's wires.
  const side = a.verticalCommit?.side;
  const arms = a.rows.map((r) => (side === undefined ? armFiles(a, r) : { ...armFiles(a, r), commitSide: side }));
  for (const arm of arms) {
    for (const [what, dir, file] of [["detector", arm.detectorDir, "teacher.model.json"], ["harness", arm.harnessDir, "spatial_harness.model.json"]] as const) {
      if (dir !== undefined && !fs.existsSync(path.join(dir, file))) throw new UsageError(`row ${arm.name}: no ${what} in ${dir} (${file} missing)`);
    }
  }
  const seeds = harnessEvalSeeds({ split: a.split, splitOf: splitOfSeed, flights: a.flights, firstSeed: a.firstSeed });
  const jobs: HarnessRowJob[] = a.conditions.flatMap((condition) => arms.map((arm) => ({ scenario, split: a.split, controlPeriod_s: FULL_CONFIG.controlPeriod_s, seeds, condition, arm, apEvery: a.apEvery, ...plannerOptions(a), ...(a.attributeStrikes ? { attributeStrikes: true } : {}), ...(a.wireCrossings ? { wireCrossings: true } : {}) })));
  io.err(`eval --harness: ${arms.length} rows x ${a.conditions.length} conditions on ${seeds.length} ${a.split} seeds, ${a.workers} worker(s)\n`);
  const t0 = performance.now();
  const elapsed = (): number => (performance.now() - t0) / 1000;
  const rows = await runHarnessRowJobs(
    jobs,
    a.workers,
    (job, row) => io.err(`${rowProgress(job.condition, row, seeds.length, a.split)} (${elapsed().toFixed(0)} s)\n`),
    ({ job, part, flightsDone, flightsTotal }) => {
      const collisions = part.flights.filter((f) => f.outcome.type === "collision").length;
      const eta = flightsDone > 0 ? (elapsed() * (flightsTotal - flightsDone)) / flightsDone : 0;
      io.err(`eval --harness: ${flightsDone}/${flightsTotal} flights, ${elapsed().toFixed(0)} s, ETA ${eta.toFixed(0)} s (part [${job.condition}] ${job.arm.name}: ${part.flights.length} seeds, ${collisions} collisions)\n`);
    },
  );
  const byCondition = a.conditions.map((condition) => ({ condition, rows: rows.filter((_, i) => jobs[i]?.condition === condition) }));
  const report = harnessReport(a.split, seeds, byCondition, HARNESS_PAIRS);
  if (a.json) io.out(`${JSON.stringify({ scenario: a.scenario, rows: arms, ...report }, null, 2)}\n`);
  else io.out(`${formatHarnessReport(report, a.runawayDelta)}\n`);
  return 0;
}
