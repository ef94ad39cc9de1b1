/**
 * The safety watchdog's pure logic (issue 6 "safety", issue 8 "faults in flight").
 *
 * It tracks the node-clock receive time (sim time under use_sim_time) of the camera, IMU and GPS,
 * of the upstream velocity command (the controller's output, so a dead controller also yields
 * hover), and the harness's reported max|delta|. `evaluate(now)` returns "hover" with a reason when
 *   - an input has never arrived, or its last arrival is older than `staleTimeout_s`
 *     (strictly: now - last > timeout), or
 *   - max|delta| has been > `runawayDelta` for `runawayCount` consecutive harness updates
 *     (SPEC: "sustained > 0.6 means the harness is out of control"); it clears after
 *     `runawayCount` consecutive updates at or below the threshold (hysteresis);
 * and "ok" otherwise (recovery as soon as the inputs are fresh again). A hover verdict names the
 * input it is about (`input`), so the node can log and publish each change of reason once.
 *
 * Start-up: until every watched input has arrived once the verdict is hover, "waiting for first
 * gps/fix" (the first input in WATCHDOG_INPUTS order that has not arrived, named by its topic).
 * In the main job that is the GPS for the first 0.1 s (10 Hz, first fix at t = 0.1 s; traced in
 * test/nodes/safetyStartup.test.ts, docs/nodes.md).
 *
 * Latency bound: if the safety node evaluates on a timer of period P, hover is commanded no
 * later than staleTimeout_s + P after the last message of the input that stopped (the first
 * tick strictly after last + timeout comes at most P later). With the defaults (0.15 s, 50 ms)
 * that is 200 ms of sim time; test/control/SafetyWatchdog.test.ts checks it for every phase.
 *
 * A clock that goes backward (simulator reset, bag loop) clears all history, as tf2's buffer
 * does on a time jump: inputs count as never received until they arrive again.
 */

export const WATCHDOG_INPUTS = ["camera", "imu", "gps", "command"] as const;
export type WatchdogInput = (typeof WATCHDOG_INPUTS)[number];

/** The SPEC topic of each input (relative names, as the safety node subscribes them). */
export const WATCHDOG_INPUT_TOPICS: Readonly<Record<WatchdogInput, string>> = {
  camera: "camera/image_raw",
  imu: "imu/data",
  gps: "gps/fix",
  command: "cmd_vel_raw",
};

export type SafetyWatchdogOptions = {
  /** Default 0.15 s. */
  staleTimeout_s?: number;
  /** Default 0.6 (SPEC). */
  runawayDelta?: number;
  /** Consecutive harness updates above `runawayDelta` that trip the watchdog. Default 5. */
  runawayCount?: number;
  /** Inputs to watch. Default all of WATCHDOG_INPUTS. */
  inputs?: readonly WatchdogInput[];
};

/**
 * "frozen_image" is not produced here: the safety node adds it from FrozenImageDetector.ts
 * (identical camera pixels with advancing stamps) when this watchdog reports ok.
 */
export type HoverCause = "never_received" | "stale" | "runaway_delta" | "frozen_image";

export type WatchdogVerdict =
  | { type: "ok" }
  | { type: "hover"; reason: string; cause: HoverCause; input?: WatchdogInput };

const OK: WatchdogVerdict = { type: "ok" };

export class SafetyWatchdog {
  readonly staleTimeoutNs: bigint;
  readonly runawayDelta: number;
  readonly runawayCount: number;
  readonly inputs: readonly WatchdogInput[];
  private readonly lastRxNs = new Map<WatchdogInput, bigint>();
  private highStreak = 0;
  private lowStreak = 0;
  private runaway = false;
  private lastMaxDelta = 0;
  private latestNs: bigint | undefined;
  private resets = 0;

  constructor(options: SafetyWatchdogOptions = {}) {
    const t = options.staleTimeout_s ?? 0.15;
    if (!(t > 0 && Number.isFinite(t))) throw new RangeError(`staleTimeout_s=${t}, expected a finite number > 0`);
    const d = options.runawayDelta ?? 0.6;
    if (!(d > 0 && Number.isFinite(d))) throw new RangeError(`runawayDelta=${d}, expected a finite number > 0`);
    const n = options.runawayCount ?? 5;
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`runawayCount=${n}, expected an integer >= 1`);
    this.staleTimeoutNs = BigInt(Math.round(t * 1e9));
    this.runawayDelta = d;
    this.runawayCount = n;
    this.inputs = options.inputs ?? WATCHDOG_INPUTS;
  }

  /** Records that `input` arrived at node time `nowNs`. */
  noteReceived(input: WatchdogInput, nowNs: bigint): void {
    this.observeClock(nowNs);
    this.lastRxNs.set(input, nowNs);
  }

  /** Records one harness update's max|delta| (a non-finite value counts as runaway). */
  noteDelta(maxAbsDelta: number, nowNs: bigint): void {
    this.observeClock(nowNs);
    this.lastMaxDelta = maxAbsDelta;
    if (!(maxAbsDelta <= this.runawayDelta)) {
      this.highStreak++;
      this.lowStreak = 0;
      if (this.highStreak >= this.runawayCount) this.runaway = true;
    } else {
      this.lowStreak++;
      this.highStreak = 0;
      if (this.lowStreak >= this.runawayCount) this.runaway = false;
    }
  }

  /** How many times a backward clock jump cleared the history. */
  get clockResets(): number {
    return this.resets;
  }

  /** Age in seconds of `input` at `nowNs`, or undefined if never received. */
  ageSeconds(input: WatchdogInput, nowNs: bigint): number | undefined {
    const last = this.lastRxNs.get(input);
    return last === undefined ? undefined : Number(nowNs - last) / 1e9;
  }

  evaluate(nowNs: bigint): WatchdogVerdict {
    this.observeClock(nowNs);
    for (const input of this.inputs) {
      const last = this.lastRxNs.get(input);
      if (last === undefined) {
        return { type: "hover", cause: "never_received", input, reason: `waiting for first ${WATCHDOG_INPUT_TOPICS[input]}` };
      }
      const age = nowNs - last;
      if (age > this.staleTimeoutNs) {
        return {
          type: "hover",
          cause: "stale",
          input,
          reason: `${input}: last message ${(Number(age) / 1e6).toFixed(1)} ms ago, stale_timeout_s=${Number(this.staleTimeoutNs) / 1e9}`,
        };
      }
    }
    if (this.runaway) {
      return {
        type: "hover",
        cause: "runaway_delta",
        reason: `harness: max|delta|=${this.lastMaxDelta.toFixed(3)} > ${this.runawayDelta} for >= ${this.runawayCount} updates`,
      };
    }
    return OK;
  }

  /** Forgets everything (deactivate, or a clock jump backward). */
  reset(): void {
    this.lastRxNs.clear();
    this.highStreak = 0;
    this.lowStreak = 0;
    this.runaway = false;
    this.lastMaxDelta = 0;
    this.latestNs = undefined;
  }

  private observeClock(nowNs: bigint): void {
    if (this.latestNs !== undefined && nowNs < this.latestNs) {
      this.reset();
      this.resets++;
    }
    this.latestNs = nowNs;
  }
}
