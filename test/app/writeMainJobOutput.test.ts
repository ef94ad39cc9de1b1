import { summaryJson } from "../../src/app/writeMainJobOutput";
import type { MainJobResult } from "../../src/app/runMainJob";
import { stats } from "../../src/app/summarize";

describe("summary.json", () => {
  it("writes NaN (no value) as null and keeps the command and per-flight series", () => {
    const pr = { ap: Number.NaN, positives: 0, cells: 4, recall: [], precision: [] };
    const result: MainJobResult = {
      options: { scenario: "default", flights: 1, seedStart: 0, duration_s: 1, outDir: "/tmp/x", modelDir: "models", bagFlights: 0, bagSeconds: 10, samplesPerFlight: 0 },
      seeds: [1],
      backend: "wasm",
      trainingCommand: undefined,
      flights: [
        {
          arm: "on", seed: 1, status: "flying", simTime_s: 1, cameraFrames: 2, distance_m: 3, collision: undefined, latencyMs: [10, 12],
          framesWithoutCommand: 0, framesWithoutCommandAt_s: [], framesIncomplete: 0,
          series: { time_s: [0.03, 0.07], x: [0, 0], y: [0, 0.1], z: [8, 8], risk: [0.5, Number.NaN], maxAbsDelta: [0.2, Number.NaN], cmdVx: [4, Number.NaN], cmdVz: [0, Number.NaN], cmdYawRate: [0, Number.NaN] },
          samples: [], minClearance: { clearance_m: 1.25, time_s: 0.07 }, wallTime_ms: 5, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} }, recorded: false,
        },
      ],
      worlds: [],
      arms: [
        {
          arm: "on", flights: 1, collisions: 0, goals: 0, unfinished: 1, cameraFrames: 2, distance_m: 3, ap: { wire: pr, wireBranch: pr }, apStudent: { wire: pr, wireBranch: pr },
          latencyMs: stats([10, 12]), risk: stats([0.5]), maxAbsDelta: stats([]), framesWithoutCommand: 0, framesIncomplete: 0, callbackErrors: 0, decisionsChanged: 0, safetyOverrides: { frames: 0, byCause: {} },
        },
      ],
      bags: [],
      wallTime_s: 2,
      peakRss_mb: 100,
    };
    const parsed = JSON.parse(summaryJson(result, "drone-harness sim --flights 1")) as {
      command: string;
      trainingCommand: null;
      arms: Array<{ ap: { wire: { ap: null } }; maxAbsDelta: { mean: null; count: number } }>;
      flights: Array<{ series: { risk: Array<number | null> }; collision: null }>;
    };
    expect(parsed.command).toBe("drone-harness sim --flights 1");
    expect(parsed.trainingCommand).toBeNull();
    expect(parsed.arms[0]!.ap.wire.ap).toBeNull();
    expect(parsed.arms[0]!.maxAbsDelta).toMatchObject({ mean: null, count: 0 });
    expect(parsed.flights[0]!.series.risk).toEqual([0.5, null]);
    expect(parsed.flights[0]!.collision).toBeNull();
  });
});
