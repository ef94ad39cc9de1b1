/**
 * Plain records for the sensor messages the nodes subscribe to, shaped like the ROS 2 .msg
 * definitions (sensor_msgs/msg/Image, Imu, NavSatFix, NavSatStatus; geometry_msgs/msg/TwistStamped)
 * as the embedded graph and rclnodejs deliver them.
 */
import type { Header } from "../../../src/control/visionTypes";

export type Vector3 = { x: number; y: number; z: number };
export type Quaternion = { x: number; y: number; z: number; w: number };

export type Image = {
  header: Header;
  height: number;
  width: number;
  encoding: string;
  is_bigendian: number;
  step: number;
  data: Uint8Array;
};

export type Imu = {
  header: Header;
  orientation: Quaternion;
  orientation_covariance: ArrayLike<number>;
  angular_velocity: Vector3;
  angular_velocity_covariance: ArrayLike<number>;
  linear_acceleration: Vector3;
  linear_acceleration_covariance: ArrayLike<number>;
};

/** sensor_msgs/msg/NavSatStatus: STATUS_NO_FIX = -1, STATUS_FIX = 0, SBAS = 1, GBAS = 2. */
export const NAV_SAT_STATUS_NO_FIX = -1;

export type NavSatFix = {
  header: Header;
  status: { status: number; service: number };
  latitude: number;
  longitude: number;
  altitude: number;
  position_covariance: ArrayLike<number>;
  position_covariance_type: number;
};

export type TwistStamped = {
  header: Header;
  twist: { linear: Vector3; angular: Vector3 };
};

/** sensor_msgs/msg/CameraInfo, the fields the nodes read (K is row-major 3x3: fx 0 cx; 0 fy cy; 0 0 1). */
export type CameraInfo = {
  header: Header;
  height: number;
  width: number;
  k: ArrayLike<number>;
};
