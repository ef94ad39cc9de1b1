/**
 * nav_msgs/Odometry -> the twist in the odometry's parent (world) frame, which is ENU for the
 * Gazebo export: the pure core of nodes/odom_to_gps_vel.ts, which turns Gazebo's ground-truth
 * odometry into the /gps/vel of the topic contract (geometry_msgs/TwistStamped, ENU).
 *
 * Frames, exactly:
 * - nav_msgs/msg/Odometry.msg: "The pose in this message should be specified in the coordinate
 *   frame given by header.frame_id. The twist in this message should be specified in the
 *   coordinate frame given by the child_frame_id" (REP-105). The pose's orientation q is the
 *   child (body) frame's orientation in the parent frame, so a body vector maps to the parent
 *   frame as v_parent = R(q) v_body.
 * - Gazebo's OdometryPublisher system (gz-sim src/systems/odometry_publisher/OdometryPublisher.cc,
 *   <dimensions>3</dimensions>) fills pose with the model's world pose and twist.linear with
 *   pose.Rot().RotateVectorReverse(displacement) / dt (world displacement rotated into the body
 *   frame, a rolling mean over the last 10 physics steps), twist.angular with body rates.
 * - The exported world sets <spherical_coordinates><world_frame_orientation>ENU and
 *   <heading_deg>0 (sim/gazebo/exportGazebo.ts), so Gazebo's world frame is x east, y north,
 *   z up (SDFormat spherical_coordinates.sdf: the world frame is the ENU frame rotated by
 *   heading_deg): R(q) v_body is ENU.
 * Both linear and angular velocity are rotated (the full twist in the parent frame). The
 * embedded simulator's GPS velocity leaves angular at zero (a GPS measures no rates); the nodes
 * read only twist.linear from gps/vel (nodes/common/sensors/SensorState.ts).
 */

export type Vector3 = { x: number; y: number; z: number };
export type Quaternion = { x: number; y: number; z: number; w: number };

/** The fields of nav_msgs/msg/Odometry this conversion reads. */
export type OdometryTwistSource = {
  pose: { pose: { orientation: Quaternion } };
  twist: { twist: { linear: Vector3; angular: Vector3 } };
};

export type Twist = { linear: Vector3; angular: Vector3 };

/** The rejection reasons are a subset of nodes/common/sensors/inputValidation.ts DropReason. */
export type OdometryCheck = { type: "ok" } | { type: "reject"; reason: "non_finite" | "absurd_magnitude"; detail: string };

export type OdometryLimits = {
  /** Largest plausible |twist.linear|, m/s (default 100, as checkTwistStamped for gps/vel). */
  maxSpeed_m_s: number;
  /** Largest plausible |twist.angular|, rad/s (default 35, as checkImu's gyro full scale). */
  maxAngularSpeed_rad_s: number;
  /** Largest accepted | |q| - 1 | of pose.orientation (default 0.01, as checkImu). */
  quaternionTolerance: number;
};

export const DEFAULT_ODOMETRY_LIMITS: OdometryLimits = { maxSpeed_m_s: 100, maxAngularSpeed_rad_s: 35, quaternionTolerance: 0.01 };

const OK: OdometryCheck = { type: "ok" };

const finite3 = (v: Vector3): boolean => Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);

/**
 * Checks an odometry message before conversion: finite unit orientation, finite twist, plausible
 * speeds. Never throws on bad data.
 */
export function checkOdometry(msg: OdometryTwistSource, limits: OdometryLimits = DEFAULT_ODOMETRY_LIMITS): OdometryCheck {
  const q = msg.pose.pose.orientation;
  if (!(Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w))) {
    return { type: "reject", reason: "non_finite", detail: "pose.pose.orientation has NaN/Inf" };
  }
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  if (!(Math.abs(n - 1) <= limits.quaternionTolerance)) {
    return { type: "reject", reason: "absurd_magnitude", detail: `|pose.pose.orientation|=${n.toFixed(4)}, expected a unit quaternion (within ${limits.quaternionTolerance})` };
  }
  const t = msg.twist.twist;
  if (!finite3(t.linear) || !finite3(t.angular)) return { type: "reject", reason: "non_finite", detail: "twist.twist has NaN/Inf" };
  const s = Math.hypot(t.linear.x, t.linear.y, t.linear.z);
  if (s > limits.maxSpeed_m_s) return { type: "reject", reason: "absurd_magnitude", detail: `|twist.twist.linear|=${s.toFixed(1)} m/s, expected <= ${limits.maxSpeed_m_s}` };
  const w = Math.hypot(t.angular.x, t.angular.y, t.angular.z);
  if (w > limits.maxAngularSpeed_rad_s) {
    return { type: "reject", reason: "absurd_magnitude", detail: `|twist.twist.angular|=${w.toFixed(1)} rad/s, expected <= ${limits.maxAngularSpeed_rad_s}` };
  }
  return OK;
}

/**
 * out = R(q) v for a quaternion q (x, y, z, w; normalised here, so a |q| within tolerance of 1
 * still gives a pure rotation). Uses v' = v + w t + u x t with t = 2 u x v (u = (x, y, z)), the
 * expansion of q v q*. `out` may alias `v`. Allocates nothing.
 */
export function rotateByQuaternion(q: Quaternion, v: Vector3, out: Vector3): Vector3 {
  const n = Math.hypot(q.x, q.y, q.z, q.w);
  if (!(n > 0)) throw new RangeError(`|q|=${n}, expected a nonzero finite quaternion`);
  const qx = q.x / n, qy = q.y / n, qz = q.z / n, qw = q.w / n;
  const vx = v.x, vy = v.y, vz = v.z;
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out.x = vx + qw * tx + (qy * tz - qz * ty);
  out.y = vy + qw * ty + (qz * tx - qx * tz);
  out.z = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/** Writes the odometry twist rotated from the child (body) frame into the parent (ENU) frame. */
export function odometryTwistToEnu(msg: OdometryTwistSource, out: Twist): Twist {
  const q = msg.pose.pose.orientation;
  rotateByQuaternion(q, msg.twist.twist.linear, out.linear);
  rotateByQuaternion(q, msg.twist.twist.angular, out.angular);
  return out;
}

export function makeTwist(): Twist {
  return { linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } };
}
