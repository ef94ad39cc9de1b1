/**
 * How much can a correction of the SPEC's form change this student's flights at all? Flies the
 * same held-out seeds with the student alone, with its trained harness, and with the two oracle
 * corrections of OracleCorrectionPilot.ts, and reports collision and success rates plus the frame
 * statistics under threat. If the oracle rows do not beat the student alone, no harness training
 * can: the limit is then the student's logit margins against the clip ||delta||_2 <= 0.5, or the
 * magnitude of S |ds/dt|, not the harness network. Seed discipline as in evaluate.ts ("train" is
 * refused; seeds come from a SeedSource of the split).
 */
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import type { HarnessNet } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { flightRates, type FlightOutcome, type FlightRates } from "./FlightMetrics";
import { flyClosedLoop, type Pilot } from "./flyClosedLoop";
import { ModelPilot } from "./ModelPilot";
import { newThreatFrameStats, OracleCorrectionPilot, type ThreatFrameStats } from "./OracleCorrectionPilot";
import { percentile } from "./Percentiles";

export const BOUND_ROWS = ["student", "student_harness", "spec_oracle_risk", "best_admissible"] as const;
export type BoundRowName = (typeof BOUND_ROWS)[number];

export type BoundRow = {
  row: BoundRowName;
  flights: FlightRates;
  outcomes: FlightOutcome[];
  /** Threat-frame statistics (null for the trained-harness row, which uses no oracle). */
  frames: ThreatFrameStats | null;
};

export type BoundReport = { split: Split; perturbed: boolean; seeds: number[]; rows: BoundRow[] };

export type BoundOptions = {
  split: Split;
  splitOf: SplitOf;
  factory: EnvironmentFactory;
  flights: number;
  firstSeed?: number;
  perturbed?: boolean;
  progress?: (line: string) => void;
};

export function correctionBound(student: Student, harness: HarnessNet, lambda: number, options: BoundOptions): BoundReport {
  if (options.split === "train") throw new RangeError('split="train": the bound is measured on held-out seeds only ("test", or "val" while developing)');
  if (!(Number.isInteger(options.flights) && options.flights >= 1)) throw new RangeError(`flights=${options.flights}, expected an integer >= 1`);
  const source = new SeedSource(options.split, options.splitOf);
  const seeds = source.seeds(options.flights, options.firstSeed ?? 0);
  const perturbed = options.perturbed ?? false;
  const log = options.progress ?? (() => undefined);
  const rows: BoundRow[] = [];
  for (const row of BOUND_ROWS) {
    const pilot: Pilot & { stats?: ThreatFrameStats } =
      row === "student_harness" ? new ModelPilot(student, harness, lambda) : new OracleCorrectionPilot(student, row === "student" ? "none" : row);
    const t0 = performance.now();
    const outcomes: FlightOutcome[] = [];
    for (const s of seeds) outcomes.push(flyClosedLoop(options.factory(source.require(s), { perturbed }), pilot, STATE_DIM).outcome);
    const rates = flightRates(outcomes);
    rows.push({ row, flights: rates, outcomes, frames: pilot.stats ?? null });
    log(`bound ${row}: ${seeds.length} flights, collision ${(100 * rates.collisionRate).toFixed(1)} %, success ${(100 * rates.successRate).toFixed(1)} % (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  return { split: options.split, perturbed, seeds, rows };
}

const LABEL: Record<BoundRowName, string> = {
  student: "student alone",
  student_harness: "student + trained harness",
  spec_oracle_risk: "SPEC delta, oracle r, S = S_gt, lambda = 1",
  best_admissible: "best delta within the clip (oracle)",
};

/** Markdown table of a bound report. */
export function formatBound(report: BoundReport): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
  const f2 = (x: number): string => (Number.isNaN(x) ? "n/a" : x.toFixed(2));
  const f3 = (x: number): string => (Number.isNaN(x) ? "n/a" : x.toFixed(3));
  const lines = [
    `${report.perturbed ? "perturbed" : "nominal"}, ${report.seeds.length} ${report.split} seeds`,
    "",
    "| correction | collision (95 % CI) | success | threat frames | student != expert | of those flippable within the clip | argmax changed | margin min / p50 / p90 | ||delta|| p50 / max under threat |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  const base = report.rows.find((r) => r.row === "student")?.frames ?? newThreatFrameStats();
  for (const r of report.rows) {
    const fr = r.frames;
    const m = fr ?? base;
    const norms = fr === null ? "n/a" : fr.deltaNorms.length === 0 ? "n/a" : `${f3(percentile(fr.deltaNorms, 50))} / ${f3(Math.max(...fr.deltaNorms))}`;
    lines.push(
      `| ${LABEL[r.row]} | ${pct(r.flights.collisionRate)} (${pct(r.flights.collisionRate95[0])}-${pct(r.flights.collisionRate95[1])}) | ${pct(r.flights.successRate)} | ` +
        (fr === null
          ? "n/a | n/a | n/a | n/a | n/a | n/a |"
          : `${m.threatFrames} | ${m.disagreeFrames} | ${m.reachableFrames} | ${fr.flippedFrames} | ${m.margins.length === 0 ? "n/a" : `${f2(Math.min(...m.margins))} / ${f2(percentile(m.margins, 50))} / ${f2(percentile(m.margins, 90))}`} | ${norms} |`),
    );
  }
  lines.push("");
  return lines.join("\n");
}
