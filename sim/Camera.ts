/**
 * Pinhole camera model: intrinsics from the image size and horizontal field of view, the mount on
 * the body (looking forward, pitched down by `pitch_deg`) and sensor_msgs/CameraInfo fields.
 * Optical frame axes follow REP-103 / REP-105 `*_optical`: z forward, x right, y down.
 * Pixel coordinates follow OpenCV and ROS image_geometry: integer (u, v) is a pixel centre, so the
 * principal point of an ideal centred camera is ((W - 1) / 2, (H - 1) / 2).
 */
export type CameraModel = {
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  /** Downward pitch of the optical axis from the body x axis, rad. */
  pitch_rad: number;
};

export function makeCamera(width: number, height: number, hfov_deg: number, pitch_deg: number): CameraModel {
  if (!Number.isInteger(width) || width < 8) throw new RangeError(`width=${width}, expected an integer >= 8`);
  if (!Number.isInteger(height) || height < 8) throw new RangeError(`height=${height}, expected an integer >= 8`);
  if (!(hfov_deg > 0 && hfov_deg < 180)) throw new RangeError(`hfov_deg=${hfov_deg}, expected in (0, 180)`);
  const fx = width / 2 / Math.tan((hfov_deg * Math.PI) / 360);
  return { width, height, fx, fy: fx, cx: (width - 1) / 2, cy: (height - 1) / 2, pitch_rad: (pitch_deg * Math.PI) / 180 };
}

/** sensor_msgs/msg/CameraInfo fields (without header) for an ideal pinhole (plumb_bob, D = 0). */
export type CameraInfoFields = {
  height: number;
  width: number;
  distortion_model: string;
  d: number[];
  k: number[];
  r: number[];
  p: number[];
  binning_x: number;
  binning_y: number;
  roi: { x_offset: number; y_offset: number; height: number; width: number; do_rectify: boolean };
};

export function cameraInfoFields(cam: CameraModel): CameraInfoFields {
  return {
    height: cam.height,
    width: cam.width,
    distortion_model: "plumb_bob",
    d: [0, 0, 0, 0, 0],
    k: [cam.fx, 0, cam.cx, 0, cam.fy, cam.cy, 0, 0, 1],
    r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    p: [cam.fx, 0, cam.cx, 0, 0, cam.fy, cam.cy, 0, 0, 0, 1, 0],
    binning_x: 0,
    binning_y: 0,
    roi: { x_offset: 0, y_offset: 0, height: 0, width: 0, do_rectify: false },
  };
}

/**
 * World-from-optical rotation (row-major 3x3) for a body with yaw/pitch/roll (ZYX, ENU, FLU body)
 * and the camera pitched down by `cam.pitch_rad` about the body y axis. Writes into `out`.
 */
export function cameraRotation(yaw: number, pitch: number, roll: number, cam: CameraModel, out: Float64Array): Float64Array {
  // World-from-body R = Rz(yaw) Ry(pitch) Rx(roll); FLU pitch > 0 is nose down (right-hand about y).
  const cy = Math.cos(yaw), sy = Math.sin(yaw);
  const cp = Math.cos(pitch), sp = Math.sin(pitch);
  const cr = Math.cos(roll), sr = Math.sin(roll);
  const b00 = cy * cp, b01 = cy * sp * sr - sy * cr, b02 = cy * sp * cr + sy * sr;
  const b10 = sy * cp, b11 = sy * sp * sr + cy * cr, b12 = sy * sp * cr - cy * sr;
  const b20 = -sp, b21 = cp * sr, b22 = cp * cr;
  // Camera axes in the body frame: forward f = (cos t, 0, -sin t) (pitched down by t),
  // right = (0, -1, 0), down = f x right... computed explicitly: down = (-sin t, 0, -cos t).
  const t = cam.pitch_rad;
  const ct = Math.cos(t), st = Math.sin(t);
  // Columns of body-from-optical: x_opt = right, y_opt = down, z_opt = forward.
  const bo = [0, -st, ct, -1, 0, 0, 0, -ct, -st]; // row-major: rows are body x, y, z
  const b = [b00, b01, b02, b10, b11, b12, b20, b21, b22];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      out[3 * i + j] = b[3 * i]! * bo[j]! + b[3 * i + 1]! * bo[3 + j]! + b[3 * i + 2]! * bo[6 + j]!;
    }
  }
  return out;
}
