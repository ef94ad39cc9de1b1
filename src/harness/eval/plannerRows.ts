/**
 * The planner rows of `eval --planner` (issue 12 "What it must show"): the local planner flying
 * on near-threat cells from the simulator's ground truth (oracle), from the teacher-size detector
 * and from the student-size detector, with the privileged expert as the reference, on the same
 * held-out seeds, nominal and perturbed. Collision (wire or branch) and success rates with 95 %
 * Wilson intervals, any-collision rate, and the per-decision time (detector + planner) p50/p99.
 */
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import { generateFrames } from "../data/generateFrames";
import { AP_BOOTSTRAP_RESAMPLES, formatApWithInterval } from "./ClusteredAp";
import { evaluateDetector } from "./evaluateDetector";
import type { DetectorReport } from "./detectorReport";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import { STATE_DIM } from "../models/stateVector";
import type { Teacher } from "../models/Teacher";
import { flightRates, formatInterval, formatPercent, formatSeedRange, wilsonInterval, type FlightOutcome, type FlightRates } from "./FlightMetrics";
import { flyClosedLoop, type Pilot } from "./flyClosedLoop";
import { ExpertReferencePilot } from "./ModelPilot";
import { summarizeLatency, type LatencySummary } from "./Percentiles";
import { PlannerPilot } from "./PlannerPilot";
import type { PlannerOptions } from "../../control/LocalPlanner";

export const PLANNER_ROWS = ["planner_oracle", "planner_teacher", "planner_student", "expert_privileged"] as const;
export type PlannerRowName = (typeof PLANNER_ROWS)[number];

export type PlannerRow = {
  row: PlannerRowName;
  rates: FlightRates;
  success95: [number, number];
  latency: LatencySummary;
  outcomes: FlightOutcome[];
};

export type PlannerEvalOptions = {
  split: Split;
  splitOf: SplitOf;
  factory: EnvironmentFactory;
  flights: number;
  firstSeed?: number;
  conditions?: readonly ("nominal" | "perturbed")[];
  /** Seeds whose expert flights are recorded for the detector AP (the first of the split). Default 20; 0 skips AP. */
  apSeeds?: number;
  /** Seed-bootstrap resamples of the wire AP's 95 % intervals (default AP_BOOTSTRAP_RESAMPLES; 0: none). */
  apBootstrap?: number;
  /** Planner options of every row (default DEFAULT_PLANNER_OPTIONS). */
  planner?: Partial<PlannerOptions>;
  /** Rows to fly (default: every row whose detector is given). */
  rows?: readonly PlannerRowName[];
  progress?: (line: string) => void;
};

/** Detector measures on frames recorded from held-out seeds (detectorReport.ts). */
export type DetectorApRow = { detector: "teacher" | "student"; report: DetectorReport };

export type PlannerEvalReport = {
  split: Split;
  conditions: { condition: "nominal" | "perturbed"; seeds: number[]; rows: PlannerRow[]; apSeeds: number[]; apFrames: number; ap: DetectorApRow[] }[];
};

export function evaluatePlanner(detectors: { teacher?: Teacher; student?: Teacher }, options: PlannerEvalOptions): PlannerEvalReport {
  if (options.split === "train") throw new RangeError('split="train": evaluation reads only held-out seeds ("test", or "val" while developing)');
  const source = new SeedSource(options.split, options.splitOf);
  const pilots: [PlannerRowName, Pilot][] = [];
  const want = (r: PlannerRowName): boolean => options.rows === undefined || options.rows.includes(r);
  if (want("planner_oracle")) pilots.push(["planner_oracle", new PlannerPilot({ type: "oracle" }, options.planner)]);
  if (detectors.teacher !== undefined && want("planner_teacher")) pilots.push(["planner_teacher", new PlannerPilot({ type: "detector", detector: detectors.teacher }, options.planner)]);
  if (detectors.student !== undefined && want("planner_student")) pilots.push(["planner_student", new PlannerPilot({ type: "detector", detector: detectors.student }, options.planner)]);
  if (want("expert_privileged")) pilots.push(["expert_privileged", new ExpertReferencePilot()]);
  // No row to fly (rows: [], the AP alone): no flight seeds either.
  const seeds = pilots.length === 0 ? [] : source.seeds(options.flights, options.firstSeed ?? 0);
  const report: PlannerEvalReport = { split: options.split, conditions: [] };
  const apSeeds = source.seeds(options.apSeeds ?? 20, options.firstSeed ?? 0);
  for (const condition of options.conditions ?? ["nominal", "perturbed"]) {
    const ap: DetectorApRow[] = [];
    let apFrames = 0;
    if (apSeeds.length > 0 && (detectors.teacher !== undefined || detectors.student !== undefined)) {
      // Expert flights with 20 % random actions (as the training data), 3 s before collisions kept.
      const frames = generateFrames({ seeds: apSeeds, source, factory: options.factory, stateDim: STATE_DIM, recordEvery: 4, maxFramesPerFlight: 40, explore: 0.2, rngSeed: 11, perturbed: condition === "perturbed", preCollision_s: 3 });
      apFrames = frames.frames.length;
      for (const [name, d] of [["teacher", detectors.teacher], ["student", detectors.student]] as const) {
        if (d === undefined) continue;
        const report = evaluateDetector(d, frames, undefined, 4, { bootstrap: options.apBootstrap ?? AP_BOOTSTRAP_RESAMPLES });
        ap.push({ detector: name, report });
        options.progress?.(`eval --planner [${condition}] ${name} on ${apFrames} frames of ${apSeeds.length} ${options.split} seeds: wire AP visible ${report.visible.wire.toFixed(3)}, approach ${report.approach.wire.toFixed(3)}, all-pixels ${report.allPixels.wire.toFixed(3)}, threat AP ${report.threat.toFixed(3)}`);
      }
    }
    const rows: PlannerRow[] = [];
    for (const [row, pilot] of pilots) {
      const outcomes: FlightOutcome[] = [];
      const ms: number[] = [];
      for (const s of seeds) {
        const r = flyClosedLoop(options.factory(source.require(s), { perturbed: condition === "perturbed" }), pilot, STATE_DIM);
        outcomes.push(r.outcome);
        for (const m of r.decisionMs) ms.push(m);
      }
      const rates = flightRates(outcomes);
      const goals = outcomes.filter((o) => o.type === "goal").length;
      rows.push({ row, rates, success95: wilsonInterval(goals, outcomes.length), latency: summarizeLatency(ms), outcomes });
      options.progress?.(`eval --planner [${condition}] ${row}: collisions ${(100 * rates.collisionRate).toFixed(1)} %, success ${(100 * rates.successRate).toFixed(1)} % over ${seeds.length} ${options.split} seeds`);
    }
    report.conditions.push({ condition, seeds, rows, apSeeds, apFrames, ap });
  }
  return report;
}

const pct = formatPercent;
const ci = formatInterval;

export function formatPlannerReport(report: PlannerEvalReport): string {
  const lines: string[] = [];
  for (const c of report.conditions) {
    if (c.rows.length === 0) lines.push(`${c.condition}: no rows flown (the detector AP alone)`);
    else {
      lines.push(formatSeedRange(c.condition, c.seeds, report.split));
      lines.push("| row | wire/branch collisions (95 % CI) | any collision | success (95 % CI) | timeouts | decision p50 / p99 ms |");
      lines.push("|---|---|---|---|---|---|");
    }
    for (const r of c.rows) {
      lines.push(
        `| ${r.row} | ${pct(r.rates.collisionRate)} ${ci(r.rates.collisionRate95)} | ${pct(r.rates.anyCollisionRate)} | ${pct(r.rates.successRate)} ${ci(r.success95)} | ${pct(r.rates.timeoutRate)} | ${r.latency.p50_ms.toFixed(2)} / ${r.latency.p99_ms.toFixed(2)} |`,
      );
    }
    if (c.ap.length > 0) {
      lines.push("");
      const boot = c.ap.find((a) => a.report.wireInterval !== undefined)?.report.wireInterval?.visible.resamples;
      const intervals = boot === undefined ? "" : `; wire AP [95 % interval: the flight seeds resampled, ${boot} resamples]`;
      lines.push(`detector AP on ${c.apFrames} frames of ${c.apSeeds.length} ${report.split} seeds (visible labels; approach = the expert has an obstacle in its corridor; all-pixels = the old labels${intervals}):`);
      lines.push("| detector | wire AP all frames | wire AP approach | wire AP all-pixels labels | wire+branch AP | near-threat AP |");
      lines.push("|---|---|---|---|---|---|");
      const f = (x: number): string => (Number.isNaN(x) ? "NaN" : x.toFixed(3));
      for (const a of c.ap) {
        const iv = a.report.wireInterval;
        const visible = iv === undefined ? f(a.report.visible.wire) : formatApWithInterval(iv.visible);
        const approach = iv === undefined ? f(a.report.approach.wire) : formatApWithInterval(iv.approach);
        lines.push(`| ${a.detector} | ${visible} | ${approach} | ${f(a.report.allPixels.wire)} | ${f(a.report.visible.wire_branch)} | ${f(a.report.threat)} |`);
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}
