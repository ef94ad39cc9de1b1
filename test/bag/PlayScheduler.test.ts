import { playMessages, type PlayClock } from "../../src/bag/PlayScheduler";
import type { RawBagMessage } from "../../src/bag/types";

const T0 = 1_700_000_000_000_000_000n;
const MS = 1_000_000n;

/** Simulated time: sleeping jumps the clock to the deadline plus an optional late wake-up. */
class SimClock implements PlayClock {
  now = 5_000n * MS;
  constructor(private readonly lateNs: () => bigint = () => 0n) {}
  nowNs(): bigint {
    return this.now;
  }
  async sleepUntilNs(t: bigint): Promise<void> {
    if (t > this.now) this.now = t;
    this.now += this.lateNs();
  }
}

/** 100 messages at irregular log times over ~5 s (i * 50 ms + (i % 7) ms). */
function messages(): RawBagMessage[] {
  return Array.from({ length: 100 }, (_, i) => {
    const t = T0 + BigInt(i) * 50n * MS + BigInt(i % 7) * MS;
    return { topic: i % 3 === 0 ? "/a" : "/b", logTimeNs: t, publishTimeNs: t, data: new Uint8Array([i]) };
  });
}

async function* iter<T>(xs: T[]): AsyncGenerator<T> {
  for (const x of xs) yield x;
}

describe("playMessages timing on simulated time", () => {
  it.each([0.5, 1, 2, 10])("at rate %s each message goes out at (log time - start) / rate (exact on sim time)", async (rate) => {
    const clock = new SimClock();
    const start = clock.now;
    const out: [bigint, bigint][] = [];
    const res = await playMessages(() => iter(messages()), clock, { publish: (m) => void out.push([clock.now - start, m.logTimeNs]) }, { rate });
    expect(res.published).toBe(100);
    for (const [wall, t] of out) {
      const ideal = Number(t - T0) / rate;
      // tolerance: 1 ns of bigint rounding
      expect(Math.abs(Number(wall) - ideal)).toBeLessThanOrEqual(1);
    }
  });

  it("late wake-ups (0..3 ms each) do not accumulate: every message within 3 ms of its deadline", async () => {
    let k = 0;
    const clock = new SimClock(() => BigInt((k++ * 7919) % 3_000_001));
    const start = clock.now;
    const errs: number[] = [];
    await playMessages(() => iter(messages()), clock, { publish: (m) => void errs.push(Number(clock.now - start) - Number(m.logTimeNs - T0) / 2) }, { rate: 2 });
    expect(errs).toHaveLength(100);
    for (const e of errs) {
      expect(e).toBeGreaterThanOrEqual(0);
      expect(e).toBeLessThanOrEqual(3_000_001);
    }
    // the last message is no later than the worst single wake-up (no drift over 100 messages)
    expect(errs[errs.length - 1]!).toBeLessThanOrEqual(3_000_001);
  });

  it("--start-offset skips the first part and shifts the schedule", async () => {
    const clock = new SimClock();
    const start = clock.now;
    const out: [bigint, bigint][] = [];
    await playMessages(() => iter(messages()), clock, { publish: (m) => void out.push([clock.now - start, m.logTimeNs]) }, { startOffsetNs: 1000n * MS });
    expect(out[0]![1]).toBeGreaterThanOrEqual(T0 + 1000n * MS);
    expect(out).toHaveLength(messages().filter((m) => m.logTimeNs >= T0 + 1000n * MS).length);
    for (const [wall, t] of out) expect(wall).toBe(t - T0 - 1000n * MS);
  });

  it("--clock publishes the bag time at the period and before each message, never going backwards", async () => {
    const clock = new SimClock();
    const ticks: bigint[] = [];
    const sent: bigint[] = [];
    const res = await playMessages(
      () => iter(messages()),
      clock,
      { publish: (m) => void sent.push(m.logTimeNs), publishClock: (t) => void ticks.push(t) },
      { rate: 2, clockPeriodNs: 25n * MS },
    );
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]! >= ticks[i - 1]!).toBe(true);
    // 25 ms of playback at rate 2 is 50 ms of bag time per periodic tick; ~5 s of bag -> ~100 periodic + 100 per-message
    const periodic = res.clockTicks - 100;
    expect(periodic).toBeGreaterThanOrEqual(99);
    expect(periodic).toBeLessThanOrEqual(101);
    expect(ticks[0]).toBe(T0);
    expect(sent).toHaveLength(100);
  });

  it("--loop replays the bag again until aborted", async () => {
    const clock = new SimClock();
    const ctrl = new AbortController();
    let n = 0;
    const res = await playMessages(
      () => iter(messages()),
      clock,
      {
        publish: () => {
          if (++n === 250) ctrl.abort();
        },
      },
      { loop: true, rate: 100, signal: ctrl.signal },
    );
    expect(res.loops).toBe(2);
    expect(n).toBe(250);
  });

  it("rejects a bad rate naming the value and the range", async () => {
    await expect(playMessages(() => iter(messages()), new SimClock(), { publish: () => undefined }, { rate: 0 })).rejects.toThrow(
      "rate=0, expected a finite number > 0",
    );
  });
});
