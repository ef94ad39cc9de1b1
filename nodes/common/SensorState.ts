/**
 * The sensor state the models see besides the image (SPEC "Inputs": altitude, GPS velocity,
 * IMU), tracked from validated imu/data, gps/fix and gps/vel messages.
 *
 * The IMU window is sampled at camera-frame times (the latest IMU sample when a frame is
 * processed), so the differences dx_t = x_t - x_{t-1} are per control step, as in the rollouts
 * the networks are trained on, not per IMU sample (100-200 Hz differences would be ~10x smaller).
 * Altitude is above the ground level taken from the first valid fix (or a fixed home altitude).
 * No allocation per message or frame: the window is a preallocated ring exposed oldest first.
 */
import type { Imu, NavSatFix, TwistStamped } from "./sensorTypes";

export const IMU_WINDOW = 3;

export type ImuSampleView = { gyro_rad_s: [number, number, number]; accel_m_s2: [number, number, number] };

export type FrameState = {
  /** Above ground, m (NaN until the first fix). */
  altitude_m: number;
  /** ENU velocity from gps/vel, m/s. */
  velocityEnu_m_s: [number, number, number];
  /** The last up to IMU_WINDOW frame-time IMU samples, oldest first. */
  imu: ImuSampleView[];
  /** Seconds since the previous processed frame (0 for the first). */
  frameDt_s: number;
};

export class SensorState {
  private readonly ring: ImuSampleView[] = Array.from({ length: IMU_WINDOW }, () => ({ gyro_rad_s: [0, 0, 0], accel_m_s2: [0, 0, 0] }));
  private ringCount = 0;
  private ringNext = 0;
  private readonly latestImu: ImuSampleView = { gyro_rad_s: [0, 0, 0], accel_m_s2: [0, 0, 0] };
  private haveImu = false;
  private home: number | undefined;
  private lastFrameNs: bigint | undefined;
  readonly state: FrameState = { altitude_m: Number.NaN, velocityEnu_m_s: [0, 0, 0], imu: [], frameDt_s: 0 };

  constructor(private readonly options: { homeAltitude_m?: number } = {}) {
    this.home = options.homeAltitude_m;
  }

  onImu(msg: Imu): void {
    const w = msg.angular_velocity, a = msg.linear_acceleration;
    const g = this.latestImu.gyro_rad_s, c = this.latestImu.accel_m_s2;
    g[0] = w.x; g[1] = w.y; g[2] = w.z;
    c[0] = a.x; c[1] = a.y; c[2] = a.z;
    this.haveImu = true;
  }

  onFix(msg: NavSatFix): void {
    this.home ??= msg.altitude;
    this.state.altitude_m = msg.altitude - this.home;
  }

  onVel(msg: TwistStamped): void {
    const v = msg.twist.linear, s = this.state.velocityEnu_m_s;
    s[0] = v.x; s[1] = v.y; s[2] = v.z;
  }

  /** Call once per processed camera frame (stamp in ns): samples the IMU window, sets frameDt_s. */
  onFrame(stampNs: bigint): FrameState {
    this.state.frameDt_s = this.lastFrameNs === undefined || stampNs <= this.lastFrameNs ? 0 : Number(stampNs - this.lastFrameNs) / 1e9;
    this.lastFrameNs = stampNs;
    if (this.haveImu) {
      const slot = this.ring[this.ringNext] as ImuSampleView;
      for (let k = 0; k < 3; k++) {
        slot.gyro_rad_s[k] = this.latestImu.gyro_rad_s[k] as number;
        slot.accel_m_s2[k] = this.latestImu.accel_m_s2[k] as number;
      }
      this.ringNext = (this.ringNext + 1) % IMU_WINDOW;
      if (this.ringCount < IMU_WINDOW) this.ringCount++;
    }
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
    this.haveImu = false;
    this.home = this.options.homeAltitude_m;
    this.lastFrameNs = undefined;
    this.state.altitude_m = Number.NaN;
    this.state.velocityEnu_m_s.fill(0);
    this.state.imu.length = 0;
    this.state.frameDt_s = 0;
  }
}
