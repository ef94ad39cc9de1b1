import { formatTable } from "../../src/app/formatTable";
import { nearestRank, stats, summarizeArm } from "../../src/app/summarize";
import type { FlightRecord } from "../../src/app/types";
import type { PrSummary } from "../../src/app/CellScoreAccumulator";

function flight(arm: "on" | "off", status: FlightRecord["status"], latency: number[], risk: number[]): FlightRecord {
  return {
    arm, seed: 1, status, simTime_s: 2, cameraFrames: risk.length, distance_m: 5, collision: undefined, latencyMs: latency,
    framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0, series: { time_s: [], x: [], y: [], z: [], risk, maxAbsDelta: risk.map((r) => r / 2), cmdVx: [], cmdVz: [], cmdYawRate: [] },
    samples: [], minClearance: { clearance_m: 2, time_s: 1 }, wallTime_ms: 1, callbackErrors: 0, decisionsChanged: 0, recorded: false,
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
});
