import { flightRates, wilsonInterval } from "../../../src/harness/eval/FlightMetrics";
import { percentile, summarizeLatency } from "../../../src/harness/eval/Percentiles";

describe("flightRates", () => {
  it("counts thin-obstacle collisions, any collisions, successes and timeouts", () => {
    const r = flightRates([
      { type: "goal", seed: 1, time_s: 10 },
      { type: "collision", seed: 2, time_s: 3, obstacle: "wire" },
      { type: "collision", seed: 3, time_s: 4, obstacle: "pole_trunk" },
      { type: "timeout", seed: 4, time_s: 60 },
    ]);
    expect(r).toMatchObject({ flights: 4, collisionRate: 0.25, anyCollisionRate: 0.5, successRate: 0.25, timeoutRate: 0.25 });
    expect(flightRates([]).collisionRate).toBeNaN();
  });

  it("Wilson interval matches the closed form", () => {
    // k = 0: upper bound = z^2 / (n + z^2) = 3.8415 / 53.8415 for n = 50.
    const [lo, hi] = wilsonInterval(0, 50);
    expect(lo).toBe(0);
    expect(hi).toBeCloseTo(3.841459 / 53.841459, 5);
    // k = n/2: symmetric around 0.5.
    const [a, b] = wilsonInterval(25, 50);
    expect(a + b).toBeCloseTo(1, 12);
  });
});

describe("percentile", () => {
  it("interpolates linearly between closest ranks (numpy default)", () => {
    // numpy.percentile([1,2,3,4], 50) = 2.5; 99 -> 1 + 2.97 = 3.97.
    expect(percentile([4, 1, 3, 2], 50)).toBeCloseTo(2.5, 12);
    expect(percentile([4, 1, 3, 2], 99)).toBeCloseTo(3.97, 12);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(/p=101, expected a percentile in \[0, 100\]/);
    expect(summarizeLatency([1, 2, 3])).toEqual({ n: 3, p50_ms: 2, p99_ms: expect.closeTo(2.98, 12), mean_ms: 2 });
  });
});
