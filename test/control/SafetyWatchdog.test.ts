import fc from "fast-check";
import { SafetyWatchdog, WATCHDOG_INPUTS } from "../../src/control/SafetyWatchdog";

const MS = 1_000_000n;

function feedAll(w: SafetyWatchdog, t: bigint): void {
  for (const i of WATCHDOG_INPUTS) w.noteReceived(i, t);
}

describe("SafetyWatchdog", () => {
  it("hovers until every input has been received, then reports ok", () => {
    const w = new SafetyWatchdog();
    const v = w.evaluate(0n);
    expect(v).toEqual({ type: "hover", cause: "never_received", input: "camera", reason: "waiting for first camera/image_raw" });
    w.noteReceived("camera", 0n);
    w.noteReceived("imu", 0n);
    expect(w.evaluate(1n)).toEqual({ type: "hover", cause: "never_received", input: "gps", reason: "waiting for first gps/fix" });
    w.noteReceived("gps", 1n);
    expect(w.evaluate(2n)).toEqual({ type: "hover", cause: "never_received", input: "command", reason: "waiting for first cmd_vel_raw" });
    w.noteReceived("command", 2n);
    expect(w.evaluate(3n)).toEqual({ type: "ok" });
  });

  it("is stale strictly after stale_timeout_s and names the input", () => {
    const w = new SafetyWatchdog({ staleTimeout_s: 0.15 });
    feedAll(w, 0n);
    expect(w.evaluate(150n * MS).type).toBe("ok");
    w.noteReceived("imu", 151n * MS);
    w.noteReceived("gps", 151n * MS);
    w.noteReceived("command", 151n * MS);
    const v = w.evaluate(151n * MS);
    expect(v.type).toBe("hover");
    if (v.type === "hover") {
      expect(v.cause).toBe("stale");
      expect(v.input).toBe("camera");
      expect(v.reason).toBe("camera: last message 151.0 ms ago, stale_timeout_s=0.15");
    }
  });

  it("camera stopped -> hover within 200 ms of sim time with a 50 ms timer, for any phase (fast-check)", () => {
    // Inputs arrive every 33 ms (camera, 30 Hz) / 10 ms (IMU) / 100 ms (GPS); the camera stops after
    // its last frame at t_last; the watchdog timer ticks every 50 ms from `phase`. The bound is
    // stale_timeout (150 ms) + timer period (50 ms) = 200 ms (SafetyWatchdog.ts header).
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 49_999_999 }), fc.integer({ min: 5, max: 40 }), (phaseNs, framesBeforeStop) => {
        const w = new SafetyWatchdog();
        const tLast = BigInt(framesBeforeStop) * 33n * MS;
        const end = tLast + 400n * MS;
        const events: Array<[bigint, "camera" | "imu" | "gps" | "command" | "tick"]> = [];
        for (let t = 0n; t <= tLast; t += 33n * MS) events.push([t, "camera"]);
        for (let t = 0n; t <= end; t += 10n * MS) events.push([t, "imu"]);
        for (let t = 0n; t <= end; t += 100n * MS) events.push([t, "gps"]);
        for (let t = 0n; t <= end; t += 50n * MS) events.push([t, "command"]);
        for (let t = BigInt(phaseNs); t <= end; t += 50n * MS) events.push([t, "tick"]);
        events.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        let hoverAt: bigint | undefined;
        for (const [t, e] of events) {
          if (e === "tick") {
            if (t > tLast && hoverAt === undefined && w.evaluate(t).type === "hover") hoverAt = t;
          } else {
            w.noteReceived(e, t);
          }
        }
        expect(hoverAt).toBeDefined();
        expect(hoverAt! - tLast).toBeLessThanOrEqual(200n * MS);
        expect(hoverAt! - tLast).toBeGreaterThan(150n * MS);
      }),
      { numRuns: 200 },
    );
  });

  it("recovers when the input returns", () => {
    const w = new SafetyWatchdog();
    feedAll(w, 0n);
    expect(w.evaluate(300n * MS).type).toBe("hover");
    feedAll(w, 310n * MS);
    expect(w.evaluate(320n * MS).type).toBe("ok");
  });
});

describe("SafetyWatchdog: runaway delta, clock resets and options", () => {
  it("trips on sustained runaway delta (> 0.6 for N updates) and clears with hysteresis", () => {
    const w = new SafetyWatchdog({ runawayCount: 3 });
    feedAll(w, 0n);
    w.noteDelta(0.9, 0n);
    w.noteDelta(0.9, 0n);
    expect(w.evaluate(0n).type).toBe("ok"); // 2 < 3: a burst is not sustained
    w.noteDelta(0.9, 0n);
    const v = w.evaluate(0n);
    expect(v).toEqual({ type: "hover", cause: "runaway_delta", reason: "harness: max|delta|=0.900 > 0.6 for >= 3 updates" });
    w.noteDelta(0.2, 0n);
    w.noteDelta(0.2, 0n);
    expect(w.evaluate(0n).type).toBe("hover");
    w.noteDelta(0.2, 0n);
    expect(w.evaluate(0n).type).toBe("ok");
    for (let i = 0; i < 3; i++) w.noteDelta(Number.NaN, 0n);
    expect(w.evaluate(0n).type).toBe("hover");
  });

  it("clears history when the clock jumps backward (sim reset)", () => {
    const w = new SafetyWatchdog();
    feedAll(w, 10_000n * MS);
    expect(w.evaluate(10_010n * MS).type).toBe("ok");
    const v = w.evaluate(5n * MS);
    expect(v.type === "hover" && v.cause).toBe("never_received");
    expect(w.clockResets).toBe(1);
  });

  it("rejects bad options with the value and range", () => {
    expect(() => new SafetyWatchdog({ staleTimeout_s: 0 })).toThrow("staleTimeout_s=0, expected a finite number > 0");
    expect(() => new SafetyWatchdog({ runawayCount: 0.5 })).toThrow("runawayCount=0.5, expected an integer >= 1");
  });
});
