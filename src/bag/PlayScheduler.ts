/**
 * The timing core of `bag play` (rosbag2_transport Player): each message goes out when the
 * playback clock reaches start + (log time - bag start - start offset) / rate. Deadlines are
 * absolute, so a late wake-up never accumulates drift. With `clockPeriodNs`, the current bag
 * time is also published periodically (rosbag2 `--clock [Hz]`), and before every message so
 * /clock never lags the data. The clock is injected: wall time in production, a simulated clock
 * in tests.
 */
import type { RawBagMessage } from "./types";

/** The time source playback sleeps on. */
export interface PlayClock {
  nowNs(): bigint;
  /** Resolves at or after `timeNs`. */
  sleepUntilNs(timeNs: bigint): Promise<void>;
}

export type PlaySink<M extends RawBagMessage> = {
  publish(message: M): void | Promise<void>;
  /** Called with the bag time to publish on /clock (rosgraph_msgs/msg/Clock). */
  publishClock?(bagTimeNs: bigint): void | Promise<void>;
};

export type PlayOptions = {
  /** Playback speed factor, > 0; default 1. */
  rate?: number;
  /** Skip this much bag time from the bag start; default 0. */
  startOffsetNs?: bigint;
  /** Restart from the beginning when the bag ends; default false. */
  loop?: boolean;
  /** Publish the bag time every this many playback-clock nanoseconds; undefined = no /clock. */
  clockPeriodNs?: bigint;
  /** Bag start time; default: the first message's log time. */
  bagStartNs?: bigint;
  /** Stops playback (checked before every publish). */
  signal?: AbortSignal;
};

export type PlayResult = { published: number; clockTicks: number; loops: number };

/** Rate as a rational with a 1e6 denominator so time arithmetic stays in bigint. */
function rateScale(rate: number): bigint {
  if (!Number.isFinite(rate) || rate <= 0) throw new RangeError(`rate=${rate}, expected a finite number > 0`);
  const scaled = BigInt(Math.round(rate * 1e6));
  if (scaled === 0n) throw new RangeError(`rate=${rate} is below 1e-6`);
  return scaled;
}

/**
 * Plays the messages from `source()` (called again for each loop) through `sink`.
 * Returns the counts once the bag ends (or the signal aborts).
 */
export async function playMessages<M extends RawBagMessage>(
  source: () => AsyncIterable<M>,
  clock: PlayClock,
  sink: PlaySink<M>,
  options: PlayOptions = {},
): Promise<PlayResult> {
  const scale = rateScale(options.rate ?? 1);
  const offset = options.startOffsetNs ?? 0n;
  if (offset < 0n) throw new RangeError(`startOffsetNs=${String(offset)}, expected >= 0`);
  const period = options.clockPeriodNs;
  if (period !== undefined && period <= 0n) throw new RangeError(`clockPeriodNs=${String(period)}, expected > 0`);
  const result: PlayResult = { published: 0, clockTicks: 0, loops: 0 };
  const aborted = (): boolean => options.signal?.aborted === true;

  do {
    let bagStart = options.bagStartNs;
    let wallStart = 0n;
    let nextClockWall: bigint | undefined;
    let playStart = 0n;
    const bagTimeAt = (wall: bigint): bigint => playStart + ((wall - wallStart) * scale) / 1_000_000n;
    const wallAt = (bagTime: bigint): bigint => wallStart + ((bagTime - playStart) * 1_000_000n) / scale;
    let started = false;
    for await (const m of source()) {
      if (aborted()) return result;
      if (!started) {
        bagStart ??= m.logTimeNs;
        playStart = bagStart + offset;
        wallStart = clock.nowNs();
        nextClockWall = period === undefined ? undefined : wallStart;
        started = true;
      }
      if (m.logTimeNs < playStart) continue;
      const due = wallAt(m.logTimeNs);
      // Clock ticks due before this message.
      while (nextClockWall !== undefined && period !== undefined && nextClockWall <= due) {
        await clock.sleepUntilNs(nextClockWall);
        if (aborted()) return result;
        await sink.publishClock?.(bagTimeAt(nextClockWall));
        result.clockTicks++;
        nextClockWall += period;
      }
      await clock.sleepUntilNs(due);
      if (aborted()) return result;
      if (period !== undefined) {
        await sink.publishClock?.(m.logTimeNs);
        result.clockTicks++;
      }
      await sink.publish(m);
      result.published++;
    }
    if (!started) break; // an empty bag: nothing to loop over
    result.loops++;
  } while (options.loop === true && !aborted());
  return result;
}

/** A PlayClock on a monotonic time source and a timer (the CLI passes process.hrtime/setTimeout). */
export function timerPlayClock(
  now: () => bigint,
  setTimer: (callback: () => void, ms: number) => void,
): PlayClock {
  return {
    nowNs: now,
    sleepUntilNs: (t) =>
      new Promise<void>((resolve) => {
        const wait = (): void => {
          const left = t - now();
          if (left <= 0n) resolve();
          else setTimer(wait, Number(left / 1_000_000n));
        };
        wait();
      }),
  };
}
