/**
 * ROS (ENU world, FLU body; REP-103) -> PX4 (NED world, FRD body) conversions and the two
 * px4_msgs records an offboard velocity controller streams on /fmu/in/*.
 *
 * Axis maps follow PX4 px4_ros_com `frame_transforms` (include/px4_ros_com/frame_transforms.h):
 *   ENU -> NED: (x, y, z) -> (y, x, -z)     (self-inverse)
 *   FLU -> FRD: (x, y, z) -> (x, -y, -z)    (self-inverse)
 * px4_msgs/msg/TrajectorySetpoint (PX4-Autopilot msg/TrajectorySetpoint.msg): "Trajectory
 * setpoint in NED frame ... setting a value to NaN means the state should not be controlled";
 * velocity is in the NED local world frame, so a body velocity is first rotated by the vehicle's
 * heading; yawspeed is about the NED z axis (down), i.e. the negated ENU yaw rate.
 * px4_msgs/msg/OffboardControlMode: the control level flags; PX4 requires it at >= 2 Hz to stay
 * in offboard (PX4 user guide, "Offboard Mode"), we stream it with every setpoint.
 */
import type { BodyVelocityCommand } from "./actions";

export type Vec3 = { x: number; y: number; z: number };

/** ENU -> NED (also NED -> ENU). Writes into `out` and returns it; `out` may alias `v`. */
export function enuToNed(v: Vec3, out: Vec3 = { x: 0, y: 0, z: 0 }): Vec3 {
  const x = v.x, y = v.y, z = v.z;
  out.x = y; out.y = x; out.z = -z;
  return out;
}

/** FLU -> FRD (also FRD -> FLU). Writes into `out` and returns it; `out` may alias `v`. */
export function fluToFrd(v: Vec3, out: Vec3 = { x: 0, y: 0, z: 0 }): Vec3 {
  const x = v.x, y = v.y, z = v.z;
  out.x = x; out.y = -y; out.z = -z;
  return out;
}

/**
 * Rotates a body FLU velocity into the ENU world frame, for a vehicle whose heading is
 * `yawEnu_rad` (angle of body x from ENU x = east, counter-clockwise; roll and pitch are taken as
 * zero, as for a level multicopter velocity command).
 */
export function bodyFluToEnu(v: Vec3, yawEnu_rad: number, out: Vec3 = { x: 0, y: 0, z: 0 }): Vec3 {
  const c = Math.cos(yawEnu_rad), s = Math.sin(yawEnu_rad);
  const x = v.x, y = v.y, z = v.z;
  out.x = c * x - s * y;
  out.y = s * x + c * y;
  out.z = z;
  return out;
}

/** Heading (rad, ENU, CCW from east) of an ENU orientation quaternion (ZYX Euler yaw). */
export function yawFromQuaternion(q: { x: number; y: number; z: number; w: number }): number {
  return Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
}

/** px4_msgs/msg/TrajectorySetpoint (uint64 timestamp in microseconds since system start). */
export type TrajectorySetpoint = {
  timestamp: bigint;
  position: [number, number, number];
  velocity: [number, number, number];
  acceleration: [number, number, number];
  jerk: [number, number, number];
  yaw: number;
  yawspeed: number;
};

/** px4_msgs/msg/OffboardControlMode. */
export type OffboardControlMode = {
  timestamp: bigint;
  position: boolean;
  velocity: boolean;
  acceleration: boolean;
  attitude: boolean;
  body_rate: boolean;
  thrust_and_torque: boolean;
  direct_actuator: boolean;
};

/** Nanoseconds -> PX4 microsecond timestamp (px4_ros_com examples: now().nanoseconds() / 1000). */
export function px4TimestampUs(nowNs: bigint): bigint {
  return nowNs / 1000n;
}

const scratchEnu: Vec3 = { x: 0, y: 0, z: 0 };
const scratchBody: Vec3 = { x: 0, y: 0, z: 0 };

/**
 * A velocity-only TrajectorySetpoint for body command `cmd` at heading `yawEnu_rad`: position,
 * acceleration, jerk and yaw are NaN (not controlled), velocity is NED world, yawspeed is the
 * negated FLU yaw rate.
 */
export function trajectorySetpointFromBody(cmd: BodyVelocityCommand, yawEnu_rad: number, nowNs: bigint): TrajectorySetpoint {
  if (!Number.isFinite(yawEnu_rad)) {
    throw new RangeError(`yawEnu_rad=${yawEnu_rad}, expected a finite angle in radians`);
  }
  scratchBody.x = cmd.vx_m_s; scratchBody.y = cmd.vy_m_s; scratchBody.z = cmd.vz_m_s;
  const ned = enuToNed(bodyFluToEnu(scratchBody, yawEnu_rad, scratchEnu), scratchEnu);
  return {
    timestamp: px4TimestampUs(nowNs),
    position: [Number.NaN, Number.NaN, Number.NaN],
    velocity: [ned.x, ned.y, ned.z],
    acceleration: [Number.NaN, Number.NaN, Number.NaN],
    jerk: [Number.NaN, Number.NaN, Number.NaN],
    yaw: Number.NaN,
    yawspeed: -cmd.yawRate_rad_s,
  };
}

/** OffboardControlMode selecting velocity control only. */
export function velocityOffboardControlMode(nowNs: bigint): OffboardControlMode {
  return {
    timestamp: px4TimestampUs(nowNs),
    position: false,
    velocity: true,
    acceleration: false,
    attitude: false,
    body_rate: false,
    thrust_and_torque: false,
    direct_actuator: false,
  };
}
