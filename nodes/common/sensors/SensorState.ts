/**
 * The sensor state the models see besides the image (SPEC "Inputs": altitude, GPS velocity,
 * IMU), tracked from validated imu/data, gps/fix and gps/vel messages, defined as the training
 * code's simulator adapter defines it (src/harness/data/simEnvironment.ts), so a node feeds the
 * networks the same 16 numbers (src/harness/models/stateVector.ts) for the same flight:
 *
 * - IMU window: one IMU sample per state period (the models' control period, 0.25 s in
 *   models/training.json), taken from the first IMU message (after a start or reset) and then
 *   from the first one whose stamp reaches the next multiple of the period (stamps count from 0,
 *   so in the simulator the samples fall at t = k * period, where training takes them). Training samples the IMU after every control step
 *   and differences consecutive samples (dx_t = x_t - x_{t-1}, seed 3.1), so the differences are
 *   per control period, not per camera frame (30 Hz differences are ~7.5x smaller for a smooth
 *   signal) nor per IMU message.
 * - Altitude: gps/fix altitude minus a ground altitude: the fixed `homeAltitude_m` (in the
 *   embedded simulator the GPS origin altitude is the ground plane z = 0 that training measures
 *   altitude from), else the first valid fix (ground at take-off on a real aircraft).
 * - Velocity: gps/vel linear, ENU, as training reads the simulator's GPS velocity.
 *
 * No allocation per message or frame: the window is a preallocated ring exposed oldest first.
 */
import { pitchFromQuaternion } from "../../../src/control/navigation";
import { yawFromQuaternion } from "../../../src/control/px4";
import type { Imu, NavSatFix, TwistStamped } from "./sensorTypes";
import { stampToNs } from "../ros/StampGuard";

export const IMU_WINDOW = 3;

/** The models' control period when the model folder does not record one, s. */
export const DEFAULT_STATE_PERIOD_S = 0.25;

export type ImuSampleView = { gyro_rad_s: [number, number, number]; accel_m_s2: [number, number, number] };

export type FrameState = {
  /** Above ground, m (NaN until the first fix). */
  altitude_m: number;
  /** ENU velocity from gps/vel, m/s. */
  velocityEnu_m_s: [number, number, number];
  /** The last up to IMU_WINDOW IMU samples, one per state period, oldest first. */
  imu: ImuSampleView[];
  /** Seconds since the previous processed frame (0 for the first). */
  frameDt_s: number;
  /** The latest IMU message's body FLU angular velocity, rad/s (zeros before one arrives). */
  latestGyro_rad_s: [number, number, number];
  /** The state period, s (SensorState statePeriod_s). */
  statePeriod_s: number;
  /** Heading (rad, ENU, CCW from east) and body pitch (rad, FLU, nose down positive) of the latest IMU orientation (0 before one arrives). */
  yaw_rad: number;
  pitch_rad: number;
  /**
   * True for the first frame at or after each multiple of the state period (and the first frame
   * after a start or reset): the frames whose state enters the harness's |ds/dt| history, so the
   * rates are over control steps as in training (src/harness/runtime/HarnessedPolicy.ts
   * StateHistory, pushed once per control step), not over camera frames.
   */
  newStatePeriod: boolean;
};

export type SensorStateOptions = {
  /** Ground altitude (m, as in gps/fix); absent: the first valid fix. */
  homeAltitude_m?: number;
  /** Seconds between IMU window samples; default DEFAULT_STATE_PERIOD_S. */
  statePeriod_s?: number;
};

export class SensorState {
  private readonly ring: ImuSampleView[] = Array.from({ length: IMU_WINDOW }, () => ({ gyro_rad_s: [0, 0, 0], accel_m_s2: [0, 0, 0] }));
  private ringCount = 0;
  private ringNext = 0;
  private readonly periodNs: bigint;
  private nextSampleNs: bigint | undefined;
  private home: number | undefined;
  private lastFrameNs: bigint | undefined;
  private nextStateFrameNs: bigint | undefined;
  readonly statePeriod_s: number;
  readonly state: FrameState;

  constructor(private readonly options: SensorStateOptions = {}) {
    const period = options.statePeriod_s ?? DEFAULT_STATE_PERIOD_S;
    if (!(period > 0 && period <= 10)) throw new RangeError(`statePeriod_s=${period}, expected (0, 10] s`);
    if (options.homeAltitude_m !== undefined && !Number.isFinite(options.homeAltitude_m)) {
      throw new RangeError(`homeAltitude_m=${options.homeAltitude_m}, expected a finite altitude in m`);
    }
    this.statePeriod_s = period;
    this.state = { altitude_m: Number.NaN, velocityEnu_m_s: [0, 0, 0], imu: [], latestGyro_rad_s: [0, 0, 0], frameDt_s: 0, statePeriod_s: period, newStatePeriod: false, yaw_rad: 0, pitch_rad: 0 };
    this.periodNs = BigInt(Math.round(period * 1e9));
    this.home = options.homeAltitude_m;
  }

  /** Folds one IMU message in; it enters the window when its stamp reaches the next sample time. */
  onImu(msg: Imu): void {
    const t = stampToNs(msg.header.stamp);
    const g = this.state.latestGyro_rad_s;
    g[0] = msg.angular_velocity.x; g[1] = msg.angular_velocity.y; g[2] = msg.angular_velocity.z;
    const q = msg.orientation;
    if (Number.isFinite(q.w) && q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w > 0.5) {
      this.state.yaw_rad = yawFromQuaternion(q);
      this.state.pitch_rad = pitchFromQuaternion(q);
    }
    if (this.nextSampleNs !== undefined && t < this.nextSampleNs) return;
    // Next multiple of the period strictly after t (a gap skips the missed grid points).
    this.nextSampleNs = (t / this.periodNs + 1n) * this.periodNs;
    const slot = this.ring[this.ringNext] as ImuSampleView;
    const w = msg.angular_velocity, a = msg.linear_acceleration;
    slot.gyro_rad_s[0] = w.x; slot.gyro_rad_s[1] = w.y; slot.gyro_rad_s[2] = w.z;
    slot.accel_m_s2[0] = a.x; slot.accel_m_s2[1] = a.y; slot.accel_m_s2[2] = a.z;
    this.ringNext = (this.ringNext + 1) % IMU_WINDOW;
    if (this.ringCount < IMU_WINDOW) this.ringCount++;
  }

  onFix(msg: NavSatFix): void {
    this.home ??= msg.altitude;
    this.state.altitude_m = msg.altitude - this.home;
  }

  onVel(msg: TwistStamped): void {
    const v = msg.twist.linear, s = this.state.velocityEnu_m_s;
    s[0] = v.x; s[1] = v.y; s[2] = v.z;
  }

  /** Call once per processed camera frame (stamp in ns): exposes the IMU window, sets frameDt_s. */
  onFrame(stampNs: bigint): FrameState {
    this.state.frameDt_s = this.lastFrameNs === undefined || stampNs <= this.lastFrameNs ? 0 : Number(stampNs - this.lastFrameNs) / 1e9;
    this.lastFrameNs = stampNs;
    this.state.newStatePeriod = this.nextStateFrameNs === undefined || stampNs >= this.nextStateFrameNs;
    if (this.state.newStatePeriod) this.nextStateFrameNs = (stampNs / this.periodNs + 1n) * this.periodNs;
    // Oldest first, reusing the array object.
    const view = this.state.imu;
    view.length = 0;
    for (let k = this.ringCount; k > 0; k--) view.push(this.ring[(this.ringNext - k + IMU_WINDOW) % IMU_WINDOW] as ImuSampleView);
    return this.state;
  }

  /** Forget histories (clock jump backward, deactivate); the fixed home altitude is kept. */
  reset(): void {
    this.ringCount = 0;
    this.ringNext = 0;
    this.nextSampleNs = undefined;
    this.home = this.options.homeAltitude_m;
    this.lastFrameNs = undefined;
    this.nextStateFrameNs = undefined;
    this.state.newStatePeriod = false;
    this.state.altitude_m = Number.NaN;
    this.state.velocityEnu_m_s.fill(0);
    this.state.latestGyro_rad_s.fill(0);
    this.state.yaw_rad = 0;
    this.state.pitch_rad = 0;
    this.state.imu.length = 0;
    this.state.frameDt_s = 0;
  }
}
