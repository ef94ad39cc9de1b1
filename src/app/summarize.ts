/**
 * The figures of the main job per arm, from the flight records and the AP accumulators (pure).
 * Percentiles: nearest rank (the smallest value with at least q of the samples at or below it).
 */
import type { PrSummary } from "./CellScoreAccumulator";
import type { Arm, FlightRecord } from "./types";

export type Stats = { count: number; mean: number; p50: number; p95: number; p99: number; max: number };

export type ArmSummary = {
  arm: Arm;
  flights: number;
  collisions: number;
  /** Flights that reached the goal. */
  goals: number;
  /** Flights still flying when the job's duration ended, without a collision. */
  unfinished: number;
  cameraFrames: number;
  distance_m: number;
  /** Cell probabilities the controller used (harness/policy: corrected in the on arm). */
  ap: { wire: PrSummary; wireBranch: PrSummary };
  /** The student's own cell probabilities (harness/student_output) on the same frames. */
  apStudent: { wire: PrSummary; wireBranch: PrSummary };
  latencyMs: Stats;
  risk: Stats;
  maxAbsDelta: Stats;
  framesWithoutCommand: number;
  framesIncomplete: number;
  callbackErrors: number;
  /** Camera frames where the planner's manoeuvre on the corrected cells differs from the one on the student's cells. */
  decisionsChanged: number;
  /** Camera frames the safety node overrode with hover, by cause (FlightRecord.safetyOverrides). */
  safetyOverrides: { frames: number; byCause: Record<string, number> };
};

export function nearestRank(sorted: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`q=${q}, expected a quantile in [0, 1]`);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!;
}

/** Statistics of the finite values (NaN marks frames without a value and is skipped). */
export function stats(values: readonly number[]): Stats {
  const v = Float64Array.from(values.filter(Number.isFinite)).sort();
  if (v.length === 0) return { count: 0, mean: Number.NaN, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN };
  let sum = 0;
  for (const x of v) sum += x;
  return { count: v.length, mean: sum / v.length, p50: nearestRank(v, 0.5), p95: nearestRank(v, 0.95), p99: nearestRank(v, 0.99), max: v[v.length - 1]! };
}

export function summarizeArm(
  arm: Arm,
  flights: readonly FlightRecord[],
  ap: { wire: PrSummary; wireBranch: PrSummary },
  apStudent: { wire: PrSummary; wireBranch: PrSummary },
): ArmSummary {
  const mine = flights.filter((f) => f.arm === arm);
  return {
    arm,
    flights: mine.length,
    collisions: mine.filter((f) => f.status === "collided").length,
    goals: mine.filter((f) => f.status === "goal_reached").length,
    unfinished: mine.filter((f) => f.status === "flying").length,
    cameraFrames: mine.reduce((a, f) => a + f.cameraFrames, 0),
    distance_m: mine.reduce((a, f) => a + f.distance_m, 0),
    ap,
    apStudent,
    latencyMs: stats(mine.flatMap((f) => f.latencyMs)),
    risk: stats(mine.flatMap((f) => f.series.risk)),
    maxAbsDelta: stats(mine.flatMap((f) => f.series.maxAbsDelta)),
    framesWithoutCommand: mine.reduce((a, f) => a + f.framesWithoutCommand, 0),
    framesIncomplete: mine.reduce((a, f) => a + f.framesIncomplete, 0),
    callbackErrors: mine.reduce((a, f) => a + f.callbackErrors, 0),
    decisionsChanged: mine.reduce((a, f) => a + f.decisionsChanged, 0),
    safetyOverrides: mine.reduce<ArmSummary["safetyOverrides"]>(
      (acc, f) => {
        acc.frames += f.safetyOverrides.frames;
        for (const [cause, n] of Object.entries(f.safetyOverrides.byCause)) acc.byCause[cause] = (acc.byCause[cause] ?? 0) + n;
        return acc;
      },
      { frames: 0, byCause: {} },
    ),
  };
}
