import { formatTable } from "../../src/app/formatTable";
import { safetyCause } from "../../src/app/flyFlight";
import { nearestRank, stats, summarizeArm } from "../../src/app/summarize";
import type { FlightRecord } from "../../src/app/types";
import type { PrSummary } from "../../src/app/CellScoreAccumulator";

function flight(arm: "on" | "off", status: FlightRecord["status"], latency: number[], risk: number[]): FlightRecord {
  return {
    arm, seed: 1, status, simTime_s: 2, cameraFrames: risk.length, distance_m: 5, collision: undefined, latencyMs: latency,
    framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0, series: { time_s: [], x: [], y: [], z: [], risk, maxAbsDelta: risk.map((r) => r / 2), cmdVx: [], cmdVz: [], cmdYawRate: [] },
    samples: [], minClearance: { clearance_m: 2, time_s: 1 }, wallTime_ms: 1, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
  };
}
const pr: PrSummary = { ap: 0.5, positives: 1, cells: 2, recall: [1], precision: [0.5] };

describe("summaries", () => {
  it("nearest-rank percentiles of known samples", () => {
    const v = Float64Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    expect(nearestRank(v, 0.5)).toBe(50);
    expect(nearestRank(v, 0.99)).toBe(99);
    expect(nearestRank(v, 1)).toBe(100);
    expect(nearestRank(new Float64Array(0), 0.5)).toBeNaN();
    expect(() => nearestRank(v, 1.5)).toThrow("q=1.5, expected a quantile in [0, 1]");
  });

  it("stats skip NaN (frames without a value)", () => {
    const s = stats([1, Number.NaN, 3, 2]);
    expect(s).toEqual({ count: 3, mean: 2, p50: 2, p95: 3, p99: 3, max: 3 });
    expect(stats([Number.NaN]).count).toBe(0);
  });

  it("per-arm counts and a table with both arms", () => {
    const flights = [flight("on", "goal_reached", [10, 20], [0.2, 0.4]), flight("on", "collided", [30], [0.6]), flight("off", "flying", [5, 6, 7], [0.1, 0.1, 0.1])];
    const on = summarizeArm("on", flights, { wire: pr, wireBranch: pr }, { wire: pr, wireBranch: pr });
    const off = summarizeArm("off", flights, { wire: pr, wireBranch: pr }, { wire: pr, wireBranch: pr });
    expect(on).toMatchObject({ flights: 2, collisions: 1, goals: 1, unfinished: 0, cameraFrames: 3 });
    expect(on.latencyMs.p50).toBe(20);
    expect(on.risk.mean).toBeCloseTo(0.4, 12);
    expect(off).toMatchObject({ flights: 1, collisions: 0, goals: 0, unfinished: 1 });
    const t = formatTable([on, off]);
    expect(t.split("\n")[0]).toMatch(/harness ON\s+harness OFF$/);
    expect(t).toMatch(/collisions\s+1\/2\s+0\/1/);
    expect(t).toMatch(/latency camera->cmd_vel p50, ms\s+20\.00\s+6\.00/);
  });

  it("sums the safety node's overrides per cause over an arm's flights and shows them in the table", () => {
    const a = { ...flight("on", "goal_reached", [10], [0.2]), safetyOverrides: { frames: 3, byCause: { "waiting for first gps/fix": 1, harness: 2 } } };
    const b = { ...flight("on", "goal_reached", [10], [0.2]), safetyOverrides: { frames: 4, byCause: { harness: 4 } } };
    const off = flight("off", "goal_reached", [10], [0.2]);
    const on = summarizeArm("on", [a, b, off], { wire: pr, wireBranch: pr }, { wire: pr, wireBranch: pr });
    expect(on.safetyOverrides).toEqual({ frames: 7, byCause: { harness: 6, "waiting for first gps/fix": 1 } });
    // Summing does not touch the flights' own records.
    expect(a.safetyOverrides.byCause.harness).toBe(2);
    const t = formatTable([on, summarizeArm("off", [a, b, off], { wire: pr, wireBranch: pr }, { wire: pr, wireBranch: pr })]);
    expect(t).toMatch(/frames overridden by the safety node \(hover\)\s+7 \(harness 6, waiting for first gps\/fix 1\)\s+0\n/);
  });

  it("names an override's cause by the safety node's reason up to the first ':'", () => {
    expect(safetyCause("harness: max|delta|=5.100 > 4.7 for >= 5 updates")).toBe("harness");
    expect(safetyCause("gps: last message 180.0 ms ago, stale_timeout_s=0.15")).toBe("gps");
    expect(safetyCause("waiting for first gps/fix")).toBe("waiting for first gps/fix");
    expect(safetyCause(undefined)).toBe("unknown");
  });
});
