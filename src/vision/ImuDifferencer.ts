import type { Vec3 } from "./flowModel";
import { clipUnit, normalizationRanges, type NormalizationRanges } from "./normalize";

/**
 * Sliding-window differencing of sensor_msgs/msg/Imu (SPEC "Inputs": time-series inputs are
 * differenced over a sliding window, dx_t = x_t - x_{t-1}), normalised to [-1, 1], as a
 * fixed-shape Float32Array [N, IMU_CHANNELS] (oldest row first, zero rows at the front until N
 * deltas exist).
 *
 * Row layout (IMU_CHANNELS = 11):
 *   0..2  d linear_acceleration x, y, z  / accelDeltaMps2
 *   3..5  d angular_velocity x, y, z     / gyroDeltaRadS
 *   6..9  d orientation x, y, z, w       / orientationDelta (0 when either sample has no orientation)
 *   10    gap flag: 1 when the interval exceeded maxGapFactor nominal periods (samples dropped)
 * Deltas across an interval dt longer than the nominal period are scaled by nominalPeriodS / dt,
 * i.e. expressed per nominal period, so a dropped sample does not double a delta.
 *
 * Robustness, by header stamp (all counted in `counters` for /diagnostics):
 * - a stamp equal to the last accepted one: duplicate, dropped;
 * - a stamp older than the last accepted one by at most `resetBackwardS`: out of order, dropped;
 * - older by more than that: the clock jumped back (bag loop, simulator reset): the history is
 *   cleared and the sample starts a new one, as tf2's buffer does on a backwards time jump;
 * - an interval longer than `resetGapS`: the previous sample is too stale to difference against,
 *   the history is cleared and the sample starts a new one;
 * - any NaN/Inf in the fields used: rejected.
 * Orientation is used only when orientation_covariance[0] != -1 (sensor_msgs/Imu: -1 means "no
 * estimate"). The quaternion sign is made continuous (q and -q are the same rotation).
 */

/** The fields of sensor_msgs/msg/Imu that the differencer reads (the generated type fits). */
export type ImuLike = {
  readonly header: { readonly stamp: { readonly sec: number; readonly nanosec: number } };
  readonly orientation: { readonly x: number; readonly y: number; readonly z: number; readonly w: number };
  readonly orientation_covariance: ArrayLike<number>;
  readonly angular_velocity: Vec3;
  readonly linear_acceleration: Vec3;
};

export const IMU_CHANNELS = 11;

export type ImuDifferencerOptions = {
  /** Rows N of the window, >= 1. Default 10 (0.1 s at 100 Hz). */
  window?: number;
  /** Nominal sample period, s (> 0). Default 0.01 (100 Hz, SPEC topic contract >= 100 Hz). */
  nominalPeriodS?: number;
  /** An interval above this many nominal periods is a gap (dropped samples). Default 1.5. */
  maxGapFactor?: number;
  /** An interval above this (s) clears the history. Default 0.5. */
  resetGapS?: number;
  /** A backwards stamp jump above this (s) clears the history instead of dropping the sample. Default 1. */
  resetBackwardS?: number;
  /** Normalisation scales (see normalize.ts). */
  ranges?: Partial<NormalizationRanges>;
};

/** Diagnostics counters (monotonic). */
export type ImuCounters = {
  accepted: number;
  duplicates: number;
  outOfOrder: number;
  nonFinite: number;
  gaps: number;
  resets: number;
};

/** The outcome of one `push`, for callers that log per message. */
export type ImuPushResult = "delta" | "first" | "duplicate" | "out-of-order" | "non-finite" | "reset";

export class ImuDifferencer {
  readonly window: number;
  readonly nominalPeriodS: number;
  readonly maxGapFactor: number;
  readonly resetGapS: number;
  readonly resetBackwardS: number;
  readonly ranges: NormalizationRanges;
  /** [window, IMU_CHANNELS], oldest first; read it after `push`. */
  readonly values: Float32Array;
  /** Rows of `values` that hold deltas (the rest, at the front, are zero padding). */
  count = 0;
  readonly counters: ImuCounters = { accepted: 0, duplicates: 0, outOfOrder: 0, nonFinite: 0, gaps: 0, resets: 0 };

  private hasLast = false;
  private lastSec = 0;
  private lastNanosec = 0;
  private readonly last = new Float64Array(10);
  private lastHasOrientation = false;
  private readonly cur = new Float64Array(10);

  constructor(options: ImuDifferencerOptions = {}) {
    this.window = options.window ?? 10;
    if (!Number.isInteger(this.window) || this.window < 1) throw new RangeError(`ImuDifferencer: window=${this.window}, expected an integer >= 1`);
    this.nominalPeriodS = options.nominalPeriodS ?? 0.01;
    if (!(this.nominalPeriodS > 0)) throw new RangeError(`ImuDifferencer: nominalPeriodS=${this.nominalPeriodS}, expected > 0`);
    this.maxGapFactor = options.maxGapFactor ?? 1.5;
    if (!(this.maxGapFactor >= 1)) throw new RangeError(`ImuDifferencer: maxGapFactor=${this.maxGapFactor}, expected >= 1`);
    this.resetGapS = options.resetGapS ?? 0.5;
    if (!(this.resetGapS > this.nominalPeriodS)) {
      throw new RangeError(`ImuDifferencer: resetGapS=${this.resetGapS}, expected > nominalPeriodS=${this.nominalPeriodS}`);
    }
    this.resetBackwardS = options.resetBackwardS ?? 1;
    if (!(this.resetBackwardS >= 0)) throw new RangeError(`ImuDifferencer: resetBackwardS=${this.resetBackwardS}, expected >= 0`);
    this.ranges = normalizationRanges(options.ranges);
    this.values = new Float32Array(this.window * IMU_CHANNELS);
  }

  /** Adds one sample. Allocation-free. */
  push(msg: ImuLike): ImuPushResult {
    const c = this.cur;
    const a = msg.linear_acceleration;
    const g = msg.angular_velocity;
    const q = msg.orientation;
    c[0] = a.x;
    c[1] = a.y;
    c[2] = a.z;
    c[3] = g.x;
    c[4] = g.y;
    c[5] = g.z;
    const hasOrientation = msg.orientation_covariance[0] !== -1;
    c[6] = hasOrientation ? q.x : 0;
    c[7] = hasOrientation ? q.y : 0;
    c[8] = hasOrientation ? q.z : 0;
    c[9] = hasOrientation ? q.w : 0;
    const { sec, nanosec } = msg.header.stamp;
    let finite = Number.isInteger(sec) && Number.isInteger(nanosec);
    for (let i = 0; i < 10 && finite; i++) finite = Number.isFinite(c[i]);
    if (!finite) {
      this.counters.nonFinite++;
      return "non-finite";
    }
    if (!this.hasLast) return this.start(sec, nanosec, hasOrientation, "first");
    // Seconds and nanoseconds are differenced separately: exact for integer fields, and no
    // bigint allocation per sample (sec * 1e9 + nanosec would exceed 2^53 for wall-clock stamps).
    const dSec = sec - this.lastSec;
    const dNanosec = nanosec - this.lastNanosec;
    if (dSec === 0 && dNanosec === 0) {
      this.counters.duplicates++;
      return "duplicate";
    }
    const dtS = dSec + dNanosec / 1e9;
    if (dSec < 0 || (dSec === 0 && dNanosec < 0)) {
      if (-dtS <= this.resetBackwardS) {
        this.counters.outOfOrder++;
        return "out-of-order";
      }
      return this.reset(sec, nanosec, hasOrientation);
    }
    if (dtS > this.resetGapS) return this.reset(sec, nanosec, hasOrientation);

    let gap = 0;
    let rate = 1;
    if (dtS > this.maxGapFactor * this.nominalPeriodS) {
      gap = 1;
      rate = this.nominalPeriodS / dtS;
      this.counters.gaps++;
    }
    // Quaternion sign continuity: pick the representative closest to the last one.
    const useOrientation = hasOrientation && this.lastHasOrientation;
    if (useOrientation) {
      const l = this.last;
      const dot = c[6] * l[6]! + c[7] * l[7]! + c[8] * l[8]! + c[9] * l[9]!;
      if (dot < 0) for (let i = 6; i < 10; i++) c[i] = -c[i]!;
    }

    // Shift the window one row towards the front and write the new row at the end.
    const v = this.values;
    v.copyWithin(0, IMU_CHANNELS);
    const o = (this.window - 1) * IMU_CHANNELS;
    const r = this.ranges;
    const l = this.last;
    for (let i = 0; i < 3; i++) v[o + i] = clipUnit(((c[i]! - l[i]!) * rate) / r.accelDeltaMps2);
    for (let i = 3; i < 6; i++) v[o + i] = clipUnit(((c[i]! - l[i]!) * rate) / r.gyroDeltaRadS);
    for (let i = 6; i < 10; i++) v[o + i] = useOrientation ? clipUnit(((c[i]! - l[i]!) * rate) / r.orientationDelta) : 0;
    v[o + 10] = gap;
    if (this.count < this.window) this.count++;

    this.remember(sec, nanosec, hasOrientation);
    this.counters.accepted++;
    return "delta";
  }

  /** Clears the window and the last sample (counters are kept). */
  clear(): void {
    this.values.fill(0);
    this.count = 0;
    this.hasLast = false;
  }

  private reset(sec: number, nanosec: number, hasOrientation: boolean): ImuPushResult {
    this.counters.resets++;
    this.clear();
    this.start(sec, nanosec, hasOrientation, "first");
    return "reset";
  }

  private start(sec: number, nanosec: number, hasOrientation: boolean, result: ImuPushResult): ImuPushResult {
    this.remember(sec, nanosec, hasOrientation);
    this.counters.accepted++;
    return result;
  }

  private remember(sec: number, nanosec: number, hasOrientation: boolean): void {
    this.last.set(this.cur);
    this.lastHasOrientation = hasOrientation;
    this.lastSec = sec;
    this.lastNanosec = nanosec;
    this.hasLast = true;
  }
}
