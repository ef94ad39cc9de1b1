/**
 * Velocity-controlled multirotor. The autopilot's velocity loop is modelled as a first-order
 * response to the commanded velocity (time constant `timeConstant_s`) with acceleration and speed
 * limits; aerodynamic drag a = -k (v - wind) acts as a disturbance that the controller feeds forward
 * for the commanded velocity (so in still air the drone settles exactly on the command, while wind
 * and gusts push it off). The command is body FLU (REP-103: x forward, y left, z up) in the heading
 * frame (yaw only), as MAVROS/PX4 velocity setpoints are; yaw rate is positive counter-clockwise.
 * Roll and pitch follow the thrust direction needed for the acceleration (a multirotor tilts to
 * accelerate); the camera and IMU are mounted on the tilted body.
 */
import type { BodyVelocityCommand } from "../src/control/actions";

/** Standard gravity, m/s^2 (CGPM 1901; the value REP-103 consumers assume). */
export const GRAVITY_M_S2 = 9.80665;

export type DroneParams = {
  timeConstant_s: number;
  yawTimeConstant_s: number;
  maxSpeed_m_s: number;
  maxAccel_m_s2: number;
  maxYawRate_rad_s: number;
  drag_per_s: number;
  bodyRadius_m: number;
};

export type DroneState = {
  /** ENU position, m. */
  position: Float64Array;
  /** ENU velocity, m/s. */
  velocity: Float64Array;
  /** ENU acceleration of the last step, m/s^2. */
  acceleration: Float64Array;
  /** ZYX Euler angles of the body (FLU) in ENU, rad. Yaw 0 = facing east. */
  yaw: number;
  pitch: number;
  roll: number;
  yawRate: number;
  /** Body angular velocity (FLU), rad/s, of the last step. */
  angularVelocity: Float64Array;
};

export function makeDroneState(x: number, y: number, z: number, yaw: number): DroneState {
  return {
    position: Float64Array.of(x, y, z),
    velocity: new Float64Array(3),
    acceleration: new Float64Array(3),
    yaw,
    pitch: 0,
    roll: 0,
    yawRate: 0,
    angularVelocity: new Float64Array(3),
  };
}

/** Advances `s` by `dt` seconds under `cmd` and the wind velocity `wind` (ENU, m/s). No allocation. */
export function stepDrone(s: DroneState, p: DroneParams, cmd: BodyVelocityCommand, wind: ArrayLike<number>, dt: number): void {
  if (!(dt > 0)) throw new RangeError(`dt=${dt}, expected > 0`);
  const cy = Math.cos(s.yaw);
  const sy = Math.sin(s.yaw);
  // Commanded velocity in ENU, clipped to the speed limit.
  let vx = cy * cmd.vx_m_s - sy * cmd.vy_m_s;
  let vy = sy * cmd.vx_m_s + cy * cmd.vy_m_s;
  let vz = cmd.vz_m_s;
  const cmdSpeed = Math.hypot(vx, vy, vz);
  if (cmdSpeed > p.maxSpeed_m_s) {
    const k = p.maxSpeed_m_s / cmdSpeed;
    vx *= k;
    vy *= k;
    vz *= k;
  }
  const v = s.velocity;
  const tau = p.timeConstant_s;
  const k = p.drag_per_s;
  // Controller acceleration (with drag feed-forward for the commanded velocity), limited.
  let ax = (vx - v[0]!) / tau + k * vx;
  let ay = (vy - v[1]!) / tau + k * vy;
  let az = (vz - v[2]!) / tau + k * vz;
  const an = Math.hypot(ax, ay, az);
  if (an > p.maxAccel_m_s2) {
    const q = p.maxAccel_m_s2 / an;
    ax *= q;
    ay *= q;
    az *= q;
  }
  ax -= k * (v[0]! - wind[0]!);
  ay -= k * (v[1]! - wind[1]!);
  az -= k * (v[2]! - wind[2]!);
  // Semi-implicit Euler.
  v[0] = v[0]! + ax * dt;
  v[1] = v[1]! + ay * dt;
  v[2] = v[2]! + az * dt;
  const speed = Math.hypot(v[0], v[1], v[2]);
  if (speed > p.maxSpeed_m_s * 1.5) {
    const q = (p.maxSpeed_m_s * 1.5) / speed;
    v[0] = v[0] * q;
    v[1] = v[1] * q;
    v[2] = v[2] * q;
  }
  const pos = s.position;
  pos[0] = pos[0]! + v[0] * dt;
  pos[1] = pos[1]! + v[1] * dt;
  pos[2] = pos[2]! + v[2] * dt;
  s.acceleration[0] = ax;
  s.acceleration[1] = ay;
  s.acceleration[2] = az;
  // Yaw rate: first order towards the clipped command.
  const yawCmd = Math.max(-p.maxYawRate_rad_s, Math.min(p.maxYawRate_rad_s, cmd.yawRate_rad_s));
  s.yawRate += ((yawCmd - s.yawRate) * dt) / p.yawTimeConstant_s;
  const yawDot = s.yawRate;
  s.yaw = wrapAngle(s.yaw + yawDot * dt);
  // Tilt: body z along the specific force f = a - g (heading frame components).
  const fxH = cy * ax + sy * ay;
  const fyH = -sy * ax + cy * ay;
  const fz = az + GRAVITY_M_S2;
  const pitch = Math.atan2(fxH, fz);
  const roll = Math.atan2(-fyH, Math.hypot(fxH, fz));
  const pitchDot = (pitch - s.pitch) / dt;
  const rollDot = (roll - s.roll) / dt;
  s.pitch = pitch;
  s.roll = roll;
  // Body rates from ZYX Euler rates (e.g. Beard & McLain, "Small Unmanned Aircraft", eq. 3.2).
  const sph = Math.sin(roll), cph = Math.cos(roll), sth = Math.sin(pitch), cth = Math.cos(pitch);
  s.angularVelocity[0] = rollDot - yawDot * sth;
  s.angularVelocity[1] = pitchDot * cph + yawDot * sph * cth;
  s.angularVelocity[2] = -pitchDot * sph + yawDot * cph * cth;
}

export function wrapAngle(a: number): number {
  return a - 2 * Math.PI * Math.floor((a + Math.PI) / (2 * Math.PI));
}

/**
 * World-from-body rotation (row-major) for ZYX Euler angles, written into `out`.
 */
export function bodyRotation(yaw: number, pitch: number, roll: number, out: Float64Array): Float64Array {
  const cy = Math.cos(yaw), sy = Math.sin(yaw);
  const cp = Math.cos(pitch), sp = Math.sin(pitch);
  const cr = Math.cos(roll), sr = Math.sin(roll);
  out[0] = cy * cp; out[1] = cy * sp * sr - sy * cr; out[2] = cy * sp * cr + sy * sr;
  out[3] = sy * cp; out[4] = sy * sp * sr + cy * cr; out[5] = sy * sp * cr - cy * sr;
  out[6] = -sp; out[7] = cp * sr; out[8] = cp * cr;
  return out;
}
