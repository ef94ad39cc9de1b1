/**
 * The comparison of SPEC "How results are measured", in one run on the same test-split seeds:
 * teacher; BC student; BC student + harness (student frozen); co-evolved student + harness; plus
 * the privileged expert as a reference for the closed-loop columns. Columns: thin-obstacle AP
 * (wire, branch, wire+branch) on frames recorded from test seeds, closed-loop collision and
 * success rates over `flights` test seeds, the per-decision latency (p50/p99) and the harness
 * overhead per frame (mean decision time with the harness minus without, same flights), and
 * parameter counts. Nominal and perturbed (the scenario's perturbation block).
 *
 * Seed discipline: every seed comes from a SeedSource of the requested split, and "train" is
 * refused outright (test/harness/eval/evaluate.test.ts checks that no training seed is read).
 */
import type { EnvironmentFactory } from "../data/DroneEnvironment";
import { generateFrames } from "../data/generateFrames";
import { SeedSource, type Split, type SplitOf } from "../data/SeedSplit";
import type { HarnessNet } from "../models/HarnessNet";
import { buildImageInput } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import type { Teacher } from "../models/Teacher";
import { studentAp } from "./studentAp";
import { detectorAp } from "./detectorAp";
import { flightRates, type FlightOutcome, type FlightRates } from "./FlightMetrics";
import { flyClosedLoop, type Pilot } from "./flyClosedLoop";
import { ExpertReferencePilot, ModelPilot } from "./ModelPilot";
import { summarizeLatency, type LatencySummary } from "./Percentiles";
import type { ThinObstacleApReport } from "./ThinObstacleAp";

export type EvalModels = {
  teacher: Teacher;
  bcStudent: Student;
  bcHarness: HarnessNet;
  bcLambda: number;
  coStudent: Student;
  coHarness: HarnessNet;
  coLambda: number;
};

export type EvalOptions = {
  split: Split;
  splitOf: SplitOf;
  /** Factory for the split (the simulator adapter). */
  factory: EnvironmentFactory;
  /** Closed-loop flights per row and condition. Default 50. */
  flights: number;
  /** Seeds whose frames are recorded for the AP columns. Default 12. */
  apSeeds: number;
  /** First seed of the scan (the seed list is the first `flights` seeds of the split from here). Default 0. */
  firstSeed?: number;
  conditions?: readonly ("nominal" | "perturbed")[];
  /** Rows that fly (default all); the others get AP only. Lets a re-trained row be re-measured alone. */
  flyRows?: readonly RowName[];
  progress?: (line: string) => void;
};

export const ROWS = ["teacher", "bc_student", "bc_student_harness", "coevolved_student_harness", "expert_privileged"] as const;
export type RowName = (typeof ROWS)[number];

export type RowResult = {
  row: RowName;
  ap: ThinObstacleApReport | null;
  flights: FlightRates | null;
  /** Per-seed outcomes of the flights (same order as the condition's flightSeeds). */
  outcomes: FlightOutcome[] | null;
  latency: LatencySummary | null;
  /** Mean ms per decision added by the harness vs. the same student without it (harness rows only). */
  harnessOverhead_ms: number | null;
  parameters: { student: number | null; harness: number | null; teacher: number | null };
};

export type ConditionResult = { condition: "nominal" | "perturbed"; rows: RowResult[]; flightSeeds: number[]; apSeeds: number[]; apFrames: number };

export type EvalReport = { split: Split; conditions: ConditionResult[] };

function fly(factory: EnvironmentFactory, source: SeedSource, seeds: readonly number[], perturbed: boolean, pilot: Pilot): { rates: FlightRates; latency: LatencySummary; outcomes: FlightOutcome[] } {
  const outcomes: FlightOutcome[] = [];
  const ms: number[] = [];
  for (const s of seeds) {
    const env = factory(source.require(s), { perturbed });
    const r = flyClosedLoop(env, pilot, STATE_DIM);
    outcomes.push(r.outcome);
    for (const m of r.decisionMs) ms.push(m);
  }
  return { rates: flightRates(outcomes), latency: summarizeLatency(ms), outcomes };
}

export function evaluate(models: EvalModels, options: EvalOptions): EvalReport {
  if (options.split === "train") throw new RangeError('split="train": evaluation reads only held-out seeds ("test", or "val" while developing)');
  const log = options.progress ?? (() => undefined);
  const source = new SeedSource(options.split, options.splitOf);
  const start = options.firstSeed ?? 0;
  const flightSeeds = source.seeds(options.flights, start);
  const apSeeds = source.seeds(options.apSeeds, start);
  const conditions = options.conditions ?? ["nominal", "perturbed"];
  const report: EvalReport = { split: options.split, conditions: [] };
  const params = {
    teacher: models.teacher.parameterCount(),
    bc: models.bcStudent.parameterCount(),
    co: models.coStudent.parameterCount(),
    bcH: models.bcHarness.parameterCount(),
    coH: models.coHarness.parameterCount(),
  };
  for (const condition of conditions) {
    const perturbed = condition === "perturbed";
    const frames = generateFrames({
      seeds: apSeeds,
      source,
      factory: options.factory,
      stateDim: STATE_DIM,
      recordEvery: 8,
      maxFramesPerFlight: 8,
      explore: 0,
      rngSeed: 7,
      perturbed,
    });
    log(`eval [${condition}] AP on ${frames.frames.length} frames from ${apSeeds.length} ${options.split} seeds`);
    const apTeacher = detectorAp(frames, (rgb) => models.teacher.forward(buildImageInput(rgb)));
    const apBc = studentAp(models.bcStudent, undefined, 0, frames);
    const apBcH = studentAp(models.bcStudent, models.bcHarness, models.bcLambda, frames);
    const apCo = studentAp(models.coStudent, models.coHarness, models.coLambda, frames);
    const flies = (row: RowName): boolean => options.flyRows === undefined || options.flyRows.includes(row);
    const run = (name: string, pilot: Pilot): ReturnType<typeof fly> | null => {
      const t0 = performance.now();
      const r = fly(options.factory, source, flightSeeds, perturbed, pilot);
      log(
        `eval [${condition}] ${name}: ${flightSeeds.length} flights, collision ${(100 * r.rates.collisionRate).toFixed(1)} %, success ${(100 * r.rates.successRate).toFixed(1)} %, ` +
          `p50 ${r.latency.p50_ms.toFixed(1)} ms (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
      return r;
    };
    const fExpert = flies("expert_privileged") ? run("expert", new ExpertReferencePilot()) : null;
    // The BC student's flights are the reference of the harness overhead (null when not flown).
    const fBc = flies("bc_student") ? run("BC student", new ModelPilot(models.bcStudent, undefined, 0)) : null;
    const fBcH = flies("bc_student_harness") ? run("BC student + harness", new ModelPilot(models.bcStudent, models.bcHarness, models.bcLambda)) : null;
    const fCo = flies("coevolved_student_harness") ? run("co-evolved student + harness", new ModelPilot(models.coStudent, models.coHarness, models.coLambda)) : null;
    const overhead = (f: ReturnType<typeof fly> | null): number | null => (f === null || fBc === null ? null : f.latency.mean_ms - fBc.latency.mean_ms);
    const rows: RowResult[] = [
      { row: "teacher", ap: apTeacher, flights: null, outcomes: null, latency: null, harnessOverhead_ms: null, parameters: { student: null, harness: null, teacher: params.teacher } },
      { row: "bc_student", ap: apBc, flights: fBc?.rates ?? null, outcomes: fBc?.outcomes ?? null, latency: fBc?.latency ?? null, harnessOverhead_ms: null, parameters: { student: params.bc, harness: null, teacher: null } },
      {
        row: "bc_student_harness",
        ap: apBcH,
        flights: fBcH?.rates ?? null,
        outcomes: fBcH?.outcomes ?? null,
        latency: fBcH?.latency ?? null,
        harnessOverhead_ms: overhead(fBcH),
        parameters: { student: params.bc, harness: params.bcH, teacher: null },
      },
      {
        row: "coevolved_student_harness",
        ap: apCo,
        flights: fCo?.rates ?? null,
        outcomes: fCo?.outcomes ?? null,
        latency: fCo?.latency ?? null,
        harnessOverhead_ms: overhead(fCo),
        parameters: { student: params.co, harness: params.coH, teacher: null },
      },
      { row: "expert_privileged", ap: null, flights: fExpert?.rates ?? null, outcomes: fExpert?.outcomes ?? null, latency: null, harnessOverhead_ms: null, parameters: { student: null, harness: null, teacher: null } },
    ];
    report.conditions.push({ condition, rows, flightSeeds, apSeeds, apFrames: frames.frames.length });
  }
  return report;
}

const ROW_LABEL: Record<RowName, string> = {
  teacher: "teacher",
  bc_student: "BC student",
  bc_student_harness: "BC student + harness (student frozen)",
  coevolved_student_harness: "co-evolved student + harness",
  expert_privileged: "expert (privileged state, reference)",
};

/** Markdown table of one condition (NaN AP = no positive cell of that class in the frames). */
export function formatReport(report: EvalReport): string {
  const f = (x: number | null | undefined, digits = 3): string => (x === null || x === undefined ? "n/a" : Number.isNaN(x) ? "NaN" : x.toFixed(digits));
  const pct = (x: number | null | undefined): string => (x === null || x === undefined ? "n/a" : `${(100 * x).toFixed(1)} %`);
  const lines: string[] = [];
  for (const c of report.conditions) {
    lines.push(`${c.condition} (${report.split} split: AP on ${c.apFrames} frames of ${c.apSeeds.length} seeds; ${c.flightSeeds.length} closed-loop flights per row)`);
    lines.push("");
    lines.push("| model | wire AP | branch AP | wire+branch AP | collision rate (95 % CI) | success rate | decision p50 / p99 ms | harness overhead ms/frame | parameters (student / harness) |");
    lines.push("|---|---|---|---|---|---|---|---|---|");
    for (const r of c.rows) {
      const ci = r.flights === null ? "" : ` (${pct(r.flights.collisionRate95[0])}-${pct(r.flights.collisionRate95[1])})`;
      const lat = r.latency === null ? "n/a" : `${f(r.latency.p50_ms, 1)} / ${f(r.latency.p99_ms, 1)}`;
      const p = r.parameters;
      const pc = p.teacher !== null ? `${p.teacher} (teacher)` : p.student === null ? "n/a" : `${p.student} / ${p.harness ?? "-"}${p.harness !== null ? ` (${((100 * p.harness) / p.student).toFixed(2)} %)` : ""}`;
      lines.push(
        `| ${ROW_LABEL[r.row]} | ${f(r.ap?.wire)} | ${f(r.ap?.branch)} | ${f(r.ap?.wire_branch)} | ${pct(r.flights?.collisionRate)}${ci} | ${pct(r.flights?.successRate)} | ${lat} | ${f(r.harnessOverhead_ms, 1)} | ${pc} |`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
