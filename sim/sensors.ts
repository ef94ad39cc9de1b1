/**
 * IMU and GPS models. Outputs are plain records shaped like the ROS 2 messages' fields
 * (sensor_msgs/msg/Imu, sensor_msgs/msg/NavSatFix, geometry_msgs/msg/Twist) so the sim node only
 * adds headers. Axes: IMU in the body frame (FLU, REP-103); an accelerometer measures specific
 * force f = R^T (a - g), so at rest it reads +9.81 m/s^2 on body z (REP-145 "Conventions for IMU
 * sensor drivers": gravity reads as +g up). GPS velocity is ENU (REP-105 / navsat_transform).
 */
import { GRAVITY_M_S2, bodyRotation, type DroneState } from "./Drone";
import { enuToGeodetic, type GeoOrigin, type Geodetic } from "../src/control/geodesy";
import type { Rng } from "../src/util/Rng";

export type ImuSample = {
  /** Orientation of the body in ENU (x, y, z, w). */
  orientation: { x: number; y: number; z: number; w: number };
  angular_velocity: { x: number; y: number; z: number };
  linear_acceleration: { x: number; y: number; z: number };
};

export type ImuNoise = { accelNoiseStd_m_s2: number; gyroNoiseStd_rad_s: number; accelBias: [number, number, number]; gyroBias: [number, number, number] };

export function makeImuSample(): ImuSample {
  return { orientation: { x: 0, y: 0, z: 0, w: 1 }, angular_velocity: { x: 0, y: 0, z: 0 }, linear_acceleration: { x: 0, y: 0, z: 0 } };
}

const rot = new Float64Array(9);

export function sampleImu(s: DroneState, noise: ImuNoise, rng: Rng, out: ImuSample): ImuSample {
  const R = bodyRotation(s.yaw, s.pitch, s.roll, rot);
  const fx = s.acceleration[0]!, fy = s.acceleration[1]!, fz = s.acceleration[2]! + GRAVITY_M_S2;
  // R^T f: the specific force in the body frame.
  out.linear_acceleration.x = R[0]! * fx + R[3]! * fy + R[6]! * fz + noise.accelBias[0] + rng.normal() * noise.accelNoiseStd_m_s2;
  out.linear_acceleration.y = R[1]! * fx + R[4]! * fy + R[7]! * fz + noise.accelBias[1] + rng.normal() * noise.accelNoiseStd_m_s2;
  out.linear_acceleration.z = R[2]! * fx + R[5]! * fy + R[8]! * fz + noise.accelBias[2] + rng.normal() * noise.accelNoiseStd_m_s2;
  out.angular_velocity.x = s.angularVelocity[0]! + noise.gyroBias[0] + rng.normal() * noise.gyroNoiseStd_rad_s;
  out.angular_velocity.y = s.angularVelocity[1]! + noise.gyroBias[1] + rng.normal() * noise.gyroNoiseStd_rad_s;
  out.angular_velocity.z = s.angularVelocity[2]! + noise.gyroBias[2] + rng.normal() * noise.gyroNoiseStd_rad_s;
  eulerToQuaternion(s.yaw, s.pitch, s.roll, out.orientation);
  return out;
}

/** ZYX Euler angles to a unit quaternion (x, y, z, w). */
export function eulerToQuaternion(yaw: number, pitch: number, roll: number, out: { x: number; y: number; z: number; w: number }): void {
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
  const cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
  const cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  out.w = cr * cp * cy + sr * sp * sy;
  out.x = sr * cp * cy - cr * sp * sy;
  out.y = cr * sp * cy + sr * cp * sy;
  out.z = cr * cp * sy - sr * sp * cy;
}

/** sensor_msgs/msg/NavSatStatus constants. */
export const STATUS_NO_FIX = -1;
export const STATUS_FIX = 0;
export const SERVICE_GPS = 1;
/** sensor_msgs/msg/NavSatFix covariance types. */
export const COVARIANCE_TYPE_UNKNOWN = 0;
export const COVARIANCE_TYPE_DIAGONAL_KNOWN = 2;

export type GpsFix = {
  status: { status: number; service: number };
  latitude: number;
  longitude: number;
  altitude: number;
  position_covariance: number[];
  position_covariance_type: number;
};

export type GpsNoise = { horizontalStd_m: number; verticalStd_m: number; velocityStd_m_s: number };

export function makeGpsFix(): GpsFix {
  return { status: { status: STATUS_NO_FIX, service: SERVICE_GPS }, latitude: NaN, longitude: NaN, altitude: NaN, position_covariance: [0, 0, 0, 0, 0, 0, 0, 0, 0], position_covariance_type: COVARIANCE_TYPE_UNKNOWN };
}

const geo: Geodetic = { latitude: 0, longitude: 0, altitude: 0 };

/**
 * A NavSatFix with white Gaussian position noise (std horizontal per axis, vertical) and its
 * diagonal covariance in ENU order (east, north, up), as the NavSatFix definition specifies.
 * With `fixLost`, status is STATUS_NO_FIX, position NaN and the covariance type UNKNOWN.
 */
export function sampleGpsFix(s: DroneState, origin: GeoOrigin, noise: GpsNoise, fixLost: boolean, rng: Rng, out: GpsFix): GpsFix {
  const c = out.position_covariance;
  if (fixLost) {
    out.status.status = STATUS_NO_FIX;
    out.latitude = NaN;
    out.longitude = NaN;
    out.altitude = NaN;
    c.fill(0);
    out.position_covariance_type = COVARIANCE_TYPE_UNKNOWN;
    return out;
  }
  const e = s.position[0]! + rng.normal() * noise.horizontalStd_m;
  const n = s.position[1]! + rng.normal() * noise.horizontalStd_m;
  const u = s.position[2]! + rng.normal() * noise.verticalStd_m;
  enuToGeodetic(origin, e, n, u, geo);
  out.status.status = STATUS_FIX;
  out.status.service = SERVICE_GPS;
  out.latitude = geo.latitude;
  out.longitude = geo.longitude;
  out.altitude = geo.altitude;
  c.fill(0);
  c[0] = noise.horizontalStd_m ** 2;
  c[4] = noise.horizontalStd_m ** 2;
  c[8] = noise.verticalStd_m ** 2;
  out.position_covariance_type = COVARIANCE_TYPE_DIAGONAL_KNOWN;
  return out;
}

export type GpsVelocity = { linear: { x: number; y: number; z: number }; angular: { x: number; y: number; z: number } };

export function makeGpsVelocity(): GpsVelocity {
  return { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } };
}

/** ENU velocity with white Gaussian noise per axis (angular left at zero: GPS does not measure it). */
export function sampleGpsVelocity(s: DroneState, noise: GpsNoise, rng: Rng, out: GpsVelocity): GpsVelocity {
  out.linear.x = s.velocity[0]! + rng.normal() * noise.velocityStd_m_s;
  out.linear.y = s.velocity[1]! + rng.normal() * noise.velocityStd_m_s;
  out.linear.z = s.velocity[2]! + rng.normal() * noise.velocityStd_m_s;
  return out;
}
