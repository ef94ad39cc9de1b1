import { RateStats } from "../../../nodes/common/ros/RateStats";
import { InputHealth } from "../../../nodes/common/ros/InputHealth";
import type { Logger, LogLevel } from "../../../src/ros/graph/types";

const MS = 1_000_000n;

describe("RateStats", () => {
  it("measures a 20 Hz stream and nearest-rank latency percentiles", () => {
    const r = new RateStats(64);
    // 21 events 50 ms apart = 20 intervals over 1 s: 20 Hz. Latencies 1..21 ms: p50 = 11, p99 = 21.
    for (let k = 0; k <= 20; k++) r.record(BigInt(k) * 50n * MS, k + 1);
    const s = r.summary(1000n * MS, 5);
    expect(s.rate_hz).toBeCloseTo(20, 9);
    expect(s.latencyP50_ms).toBe(11);
    expect(s.latencyP99_ms).toBe(21);
    expect(s.latencyMax_ms).toBe(21);
    expect(s.count).toBe(21);
  });
  it("only counts events inside the window and reports 0 Hz when the stream stopped", () => {
    const r = new RateStats(8);
    for (let k = 0; k < 20; k++) r.record(BigInt(k) * 100n * MS);
    expect(r.summary(1900n * MS, 0.35).rate_hz).toBeCloseTo(10, 9);
    expect(r.summary(60_000n * MS, 5).rate_hz).toBe(0);
    expect(Number.isNaN(r.summary(60_000n * MS).latencyP50_ms)).toBe(true);
  });
});

describe("InputHealth", () => {
  it("counts every drop and logs once per burst through Logger.throttle", () => {
    const calls: Array<[LogLevel, string, bigint, string]> = [];
    const logger = { throttle: (l: LogLevel, k: string, p: bigint, m: string) => calls.push([l, k, p, m]) } as unknown as Logger;
    const h = new InputHealth(logger, 5);
    for (let i = 0; i < 100; i++) h.drop("camera/image_raw", "bad_step", "data.length=1");
    h.drop("imu/data", "non_finite", "NaN");
    expect(h.count("camera/image_raw", "bad_step")).toBe(100);
    expect(h.total).toBe(101);
    // Each call goes through throttle with the same key, so the logger prints at most once per 5 s.
    expect(new Set(calls.map((c) => c[1]))).toEqual(new Set(["camera/image_raw:bad_step", "imu/data:non_finite"]));
    expect(calls[0]![2]).toBe(5_000_000_000n);
    expect(h.keyValues()).toContainEqual({ key: "drops/camera/image_raw:bad_step", value: "100" });
  });
});
