/**
 * Checks for incoming sensor messages (issue 8, "Bad sensor messages"). Each returns a tagged
 * outcome; a subscriber drops a rejected message, counts it by `reason` in /diagnostics and logs
 * it once per burst (InputHealth). Nothing here throws on bad data.
 *
 * Image resolution policy: an image whose size differs from the expected one is REJECTED, not
 * resized. The networks are trained at one resolution and the cell grid is defined on it;
 * resizing belongs in the image pipeline (image_proc's resize node between the driver and
 * camera/image_raw), where it is visible and configurable. Set expected width/height to 0 to
 * accept any size.
 */
import type { CameraInfo, Image, Imu, NavSatFix, TwistStamped, Vector3 } from "./sensorTypes";
import { NAV_SAT_STATUS_NO_FIX } from "./sensorTypes";

export type DropReason =
  | "unsupported_encoding"
  | "bad_step"
  | "zero_size"
  | "resolution"
  | "non_finite"
  /** The node's own model gave NaN or infinite outputs for the message (issue 16 item 7). */
  | "non_finite_output"
  | "absurd_magnitude"
  | "no_fix"
  | "duplicate"
  | "out_of_order"
  | "future_stamp"
  | "bad_content"
  | "unmatched"
  | "callback_error";

export type InputCheck = { type: "ok" } | { type: "reject"; reason: DropReason; detail: string };

export const INPUT_OK: InputCheck = { type: "ok" };

function reject(reason: DropReason, detail: string): InputCheck {
  return { type: "reject", reason, detail };
}

/** Bytes per pixel of the 8-bit encodings the nodes accept (sensor_msgs image_encodings.hpp names). */
export const IMAGE_ENCODINGS: Readonly<Record<string, number>> = { rgb8: 3, bgr8: 3, rgba8: 4, bgra8: 4, mono8: 1 };

export type ImageExpectation = {
  /** Expected width/height in pixels; 0 accepts any. */
  width: number;
  height: number;
  /** Accepted encodings (subset of IMAGE_ENCODINGS). */
  encodings: readonly string[];
};

export function checkImage(msg: Image, expected: ImageExpectation): InputCheck {
  const bpp = IMAGE_ENCODINGS[msg.encoding];
  if (bpp === undefined || !expected.encodings.includes(msg.encoding)) {
    return reject("unsupported_encoding", `encoding="${msg.encoding}", expected one of ${expected.encodings.join(", ")}`);
  }
  if (!(msg.width > 0 && msg.height > 0)) return reject("zero_size", `size ${msg.width}x${msg.height}, expected nonzero width and height`);
  if (msg.step < msg.width * bpp) {
    return reject("bad_step", `step=${msg.step}, expected >= width*${bpp}=${msg.width * bpp} for ${msg.encoding}`);
  }
  if (msg.step * msg.height !== msg.data.length) {
    return reject("bad_step", `data.length=${msg.data.length}, expected step*height=${msg.step}*${msg.height}=${msg.step * msg.height}`);
  }
  if ((expected.width > 0 && msg.width !== expected.width) || (expected.height > 0 && msg.height !== expected.height)) {
    return reject("resolution", `size ${msg.width}x${msg.height}, expected ${expected.width}x${expected.height} (resize upstream, e.g. image_proc resize)`);
  }
  return INPUT_OK;
}

function finite3(v: Vector3): boolean {
  return Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
}

function norm3(v: Vector3): number {
  return Math.hypot(v.x, v.y, v.z);
}

export type ImuLimits = {
  /** Largest plausible |linear acceleration|, m/s^2. Default 160 (16 g, a common MEMS full scale). */
  maxAccel_m_s2: number;
  /** Largest plausible |angular velocity|, rad/s. Default 35 (2000 deg/s full scale). */
  maxGyro_rad_s: number;
};

export const DEFAULT_IMU_LIMITS: ImuLimits = { maxAccel_m_s2: 160, maxGyro_rad_s: 35 };

export function checkImu(msg: Imu, limits: ImuLimits = DEFAULT_IMU_LIMITS): InputCheck {
  if (!finite3(msg.angular_velocity) || !finite3(msg.linear_acceleration)) {
    return reject("non_finite", "angular_velocity or linear_acceleration has NaN/Inf");
  }
  // sensor_msgs/Imu: orientation_covariance[0] == -1 means "no orientation estimate".
  const hasOrientation = msg.orientation_covariance[0] !== -1;
  if (hasOrientation) {
    const q = msg.orientation;
    if (!(Number.isFinite(q.x) && Number.isFinite(q.y) && Number.isFinite(q.z) && Number.isFinite(q.w))) {
      return reject("non_finite", "orientation has NaN/Inf");
    }
    const n = Math.hypot(q.x, q.y, q.z, q.w);
    if (Math.abs(n - 1) > 0.01) return reject("absurd_magnitude", `|orientation|=${n.toFixed(4)}, expected a unit quaternion (within 0.01)`);
  }
  const a = norm3(msg.linear_acceleration);
  if (a > limits.maxAccel_m_s2) return reject("absurd_magnitude", `|linear_acceleration|=${a.toFixed(1)} m/s^2, expected <= ${limits.maxAccel_m_s2}`);
  const w = norm3(msg.angular_velocity);
  if (w > limits.maxGyro_rad_s) return reject("absurd_magnitude", `|angular_velocity|=${w.toFixed(1)} rad/s, expected <= ${limits.maxGyro_rad_s}`);
  return INPUT_OK;
}

export function checkNavSatFix(msg: NavSatFix): InputCheck {
  if (msg.status.status <= NAV_SAT_STATUS_NO_FIX) return reject("no_fix", `status=${msg.status.status} (STATUS_NO_FIX)`);
  if (!(Number.isFinite(msg.latitude) && Number.isFinite(msg.longitude) && Number.isFinite(msg.altitude))) {
    return reject("non_finite", "latitude, longitude or altitude is NaN/Inf");
  }
  if (Math.abs(msg.latitude) > 90 || Math.abs(msg.longitude) > 180) {
    return reject("absurd_magnitude", `latitude=${msg.latitude}, longitude=${msg.longitude}, expected [-90, 90] x [-180, 180]`);
  }
  return INPUT_OK;
}

export type VelocityLimits = { maxSpeed_m_s: number };

/** GPS velocity (ENU TwistStamped): finite, and below `maxSpeed_m_s` (default 100). */
export function checkTwistStamped(msg: TwistStamped, limits: VelocityLimits = { maxSpeed_m_s: 100 }): InputCheck {
  if (!finite3(msg.twist.linear) || !finite3(msg.twist.angular)) return reject("non_finite", "twist has NaN/Inf");
  const s = norm3(msg.twist.linear);
  if (s > limits.maxSpeed_m_s) return reject("absurd_magnitude", `|twist.linear|=${s.toFixed(1)} m/s, expected <= ${limits.maxSpeed_m_s}`);
  return INPUT_OK;
}

/**
 * sensor_msgs/CameraInfo for the rollout's rotation compensation: K has 9 finite entries with
 * fx = K[0] > 0 and fy = K[4] > 0 ("K = 0" means an uncalibrated camera, sensor_msgs/CameraInfo.msg),
 * and the calibrated size matches the expected image size (0 accepts any), since K is in pixels
 * of that size. Writes fx, fy, cx, cy into `out` when accepted.
 */
export function checkCameraInfo(
  msg: CameraInfo,
  expected: { width: number; height: number },
  out: { fx: number; fy: number; cx: number; cy: number },
): InputCheck {
  const k = msg.k;
  if (k.length !== 9) return reject("bad_content", `k.length=${k.length}, expected 9`);
  for (let i = 0; i < 9; i++) if (!Number.isFinite(k[i])) return reject("non_finite", `k[${i}]=${k[i]}, expected a finite value`);
  const fx = k[0]!, fy = k[4]!, cx = k[2]!, cy = k[5]!;
  if (!(fx > 0 && fy > 0)) return reject("bad_content", `fx=k[0]=${fx}, fy=k[4]=${fy}, expected > 0 (an uncalibrated camera has K = 0)`);
  if ((expected.width > 0 && msg.width !== expected.width) || (expected.height > 0 && msg.height !== expected.height)) {
    return reject("resolution", `calibrated size ${msg.width}x${msg.height}, expected ${expected.width}x${expected.height} (K is in pixels of the image size)`);
  }
  out.fx = fx;
  out.fy = fy;
  out.cx = cx;
  out.cy = cy;
  return INPUT_OK;
}

/**
 * The image content check, then its size against the last valid camera/camera_info (K is in
 * pixels of that size, so an image of another size is rejected: reason "resolution").
 * `calibrated` undefined: no camera_info yet, only the content check.
 */
export function checkImageAgainstCalibration(msg: Image, expected: ImageExpectation, calibrated: { width: number; height: number } | undefined): InputCheck {
  const check = checkImage(msg, expected);
  if (check.type === "reject" || calibrated === undefined || (msg.width === calibrated.width && msg.height === calibrated.height)) return check;
  return reject("resolution", `image ${msg.width}x${msg.height}, camera_info says ${calibrated.width}x${calibrated.height}`);
}
