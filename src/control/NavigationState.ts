/**
 * The controller's navigation state (issue 12 item 1): the latest attitude, GNSS fix and GNSS
 * velocity and the goal, turned into the planner's Navigation input on demand, or a reason why
 * not (no goal, no fix yet, a stale input). Pure: the node feeds it validated messages with their
 * header stamps and asks at every frame; nothing here knows ROS.
 */
import type { Geodetic } from "./geodesy";
import { navigationFromSensors, pitchFromQuaternion, type Navigation } from "./navigation";
import { yawFromQuaternion } from "./px4";

export type NavigationStateOptions = {
  /** Ground altitude in the fix's datum, m; undefined: the first valid fix's altitude (take-off). */
  groundAltitude_m?: number;
  /** An input older than this (s) is stale: no navigation. */
  timeout_s: number;
};

export type NavigationRead = { ok: true } | { ok: false; reason: string };

type Stamped<T> = { value: T; tNs: bigint } | undefined;

export class NavigationState {
  private attitude: Stamped<{ yaw: number; pitch: number }>;
  private fix: Stamped<Geodetic>;
  private velocity: Stamped<{ x: number; y: number }>;
  private goalValue: Geodetic | undefined;
  private ground: number | undefined;
  private readonly timeoutNs: bigint;

  constructor(private readonly options: NavigationStateOptions) {
    if (!(options.timeout_s > 0)) throw new RangeError(`timeout_s=${options.timeout_s}, expected > 0`);
    if (options.groundAltitude_m !== undefined && !Number.isFinite(options.groundAltitude_m)) {
      throw new RangeError(`groundAltitude_m=${options.groundAltitude_m}, expected a finite altitude in m`);
    }
    this.timeoutNs = BigInt(Math.round(options.timeout_s * 1e9));
    this.ground = options.groundAltitude_m;
  }

  /** The goal in WGS84 (degrees, degrees, metres in the fix's datum); throws on a position out of range. */
  setGoal(goal: Geodetic): void {
    const { latitude, longitude, altitude } = goal;
    if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 && Number.isFinite(altitude))) {
      throw new RangeError(`goal (${latitude}, ${longitude}, ${altitude}), expected latitude in [-90, 90], longitude in [-180, 180] and a finite altitude`);
    }
    this.goalValue = { latitude, longitude, altitude };
  }

  get goal(): Readonly<Geodetic> | undefined {
    return this.goalValue;
  }

  onAttitude(q: { x: number; y: number; z: number; w: number }, tNs: bigint): void {
    this.attitude = { value: { yaw: yawFromQuaternion(q), pitch: pitchFromQuaternion(q) }, tNs };
  }

  onFix(fix: Geodetic, tNs: bigint): void {
    this.fix = { value: { latitude: fix.latitude, longitude: fix.longitude, altitude: fix.altitude }, tNs };
    if (this.ground === undefined) this.ground = fix.altitude;
  }

  onVelocity(v: { x: number; y: number }, tNs: bigint): void {
    this.velocity = { value: { x: v.x, y: v.y }, tNs };
  }

  /** Forgets the inputs (not the goal, nor a configured ground); a first-fix ground is re-taken. */
  reset(): void {
    this.attitude = undefined;
    this.fix = undefined;
    this.velocity = undefined;
    this.ground = this.options.groundAltitude_m;
  }

  read(nowNs: bigint, out: Navigation): NavigationRead {
    if (this.goalValue === undefined) return { ok: false, reason: "no goal (publish geographic_msgs/GeoPoseStamped on goal, or set goal_source:=parameters)" };
    const missing = (name: string, s: Stamped<unknown>): string | undefined => {
      if (s === undefined) return `no ${name} yet`;
      if (nowNs - s.tNs > this.timeoutNs) return `${name} is ${(Number(nowNs - s.tNs) / 1e9).toFixed(2)} s old (timeout ${this.options.timeout_s} s)`;
      return undefined;
    };
    const problem = missing("attitude (imu/data orientation)", this.attitude) ?? missing("GNSS fix (gps/fix)", this.fix) ?? missing("GNSS velocity (gps/vel)", this.velocity);
    const { attitude, fix, velocity, ground } = this;
    if (problem !== undefined || attitude === undefined || fix === undefined || velocity === undefined || ground === undefined) {
      return { ok: false, reason: problem ?? "no ground altitude" };
    }
    navigationFromSensors(
      { fix: fix.value, goal: this.goalValue, yawEnu_rad: attitude.value.yaw, pitch_rad: attitude.value.pitch, velocityEnu_m_s: velocity.value, groundAltitude_m: ground },
      out,
    );
    return { ok: true };
  }
}
