/**
 * The planner rows of `eval --planner` (issue 12 "What it must show"): the local planner flying
 * on near-threat cells from the simulator's ground truth (oracle), from the teacher-size detector
 * and from the student-size detector, with the privileged expert as the reference, on the same
 * held-out seeds, nominal and perturbed. Collision (wire or branch) and success rates with 95 %
 * Wilson intervals, any-collision rate, and the per-decision time (detector + planner) p50/p99.
 */
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import { STATE_DIM } from "../models/stateVector";
import type { Teacher } from "../models/Teacher";
import { flightRates, wilsonInterval, type FlightOutcome, type FlightRates } from "./FlightMetrics";
import { flyClosedLoop, type Pilot } from "./flyClosedLoop";
import { ExpertReferencePilot } from "./ModelPilot";
import { summarizeLatency, type LatencySummary } from "./Percentiles";
import { PlannerPilot } from "./PlannerPilot";

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
  /** Rows to fly (default: every row whose detector is given). */
  rows?: readonly PlannerRowName[];
  progress?: (line: string) => void;
};

export type PlannerEvalReport = { split: Split; conditions: { condition: "nominal" | "perturbed"; seeds: number[]; rows: PlannerRow[] }[] };

export function evaluatePlanner(detectors: { teacher?: Teacher; student?: Teacher }, options: PlannerEvalOptions): PlannerEvalReport {
  if (options.split === "train") throw new RangeError('split="train": evaluation reads only held-out seeds ("test", or "val" while developing)');
  const source = new SeedSource(options.split, options.splitOf);
  const seeds = source.seeds(options.flights, options.firstSeed ?? 0);
  const pilots: [PlannerRowName, Pilot][] = [];
  const want = (r: PlannerRowName): boolean => options.rows === undefined || options.rows.includes(r);
  if (want("planner_oracle")) pilots.push(["planner_oracle", new PlannerPilot({ type: "oracle" })]);
  if (detectors.teacher !== undefined && want("planner_teacher")) pilots.push(["planner_teacher", new PlannerPilot({ type: "detector", detector: detectors.teacher })]);
  if (detectors.student !== undefined && want("planner_student")) pilots.push(["planner_student", new PlannerPilot({ type: "detector", detector: detectors.student })]);
  if (want("expert_privileged")) pilots.push(["expert_privileged", new ExpertReferencePilot()]);
  const report: PlannerEvalReport = { split: options.split, conditions: [] };
  for (const condition of options.conditions ?? ["nominal", "perturbed"]) {
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
    report.conditions.push({ condition, seeds, rows });
  }
  return report;
}

const pct = (x: number): string => (Number.isNaN(x) ? "NaN" : `${(100 * x).toFixed(1)} %`);
const ci = (c: [number, number]): string => `[${(100 * c[0]).toFixed(1)}, ${(100 * c[1]).toFixed(1)}]`;

export function formatPlannerReport(report: PlannerEvalReport): string {
  const lines: string[] = [];
  for (const c of report.conditions) {
    lines.push(`${c.condition}: ${c.seeds.length} ${report.split} seeds (${c.seeds[0] ?? "-"}..${c.seeds[c.seeds.length - 1] ?? "-"})`);
    lines.push("| row | wire/branch collisions (95 % CI) | any collision | success (95 % CI) | timeouts | decision p50 / p99 ms |");
    lines.push("|---|---|---|---|---|---|");
    for (const r of c.rows) {
      lines.push(
        `| ${r.row} | ${pct(r.rates.collisionRate)} ${ci(r.rates.collisionRate95)} | ${pct(r.rates.anyCollisionRate)} | ${pct(r.rates.successRate)} ${ci(r.success95)} | ${pct(r.rates.timeoutRate)} | ${r.latency.p50_ms.toFixed(2)} / ${r.latency.p99_ms.toFixed(2)} |`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
