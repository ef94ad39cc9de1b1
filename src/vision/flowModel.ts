/**
 * The motion model behind the imagined rollout: how measured optical flow splits into a rotation
 * part and a translation part, and how the translation part scales with the distance flown.
 *
 * Image motion of a static point for a pinhole camera moving with translational velocity T and
 * angular velocity w (H. C. Longuet-Higgins and K. Prazdny, "The interpretation of a moving
 * retinal image", Proc. R. Soc. Lond. B 208, 1980), in normalised coordinates xn = (u - cx) / fx,
 * yn = (v - cy) / fy, depth Z, camera optical frame (REP-103: z forward, x right, y down):
 *
 *   d(xn)/dt = (-Tx + xn Tz) / Z  +  wx xn yn - wy (1 + xn^2) + wz yn
 *   d(yn)/dt = (-Ty + yn Tz) / Z  +  wx (1 + yn^2) - wy xn yn - wz xn
 *
 * The translation term is proportional to |T| dt / Z, so for a displacement d that is small next
 * to the depth (d << Z) the flow of a translation is linear in d: flow_d = flow * d / (|v| dt).
 * The rotation term does not depend on d or Z, so it must be removed before scaling (from the
 * gyro), otherwise a yaw of the drone would be "amplified" into a fake 1 m move.
 *
 * Limits: (1) linear in d only while d << Z: for a point at depth Z the exact forward-motion
 * displacement is x * d / (Z - d), i.e. the linear model underestimates by a factor
 * Z / (Z - d): 11 % at Z = 10 m, 50 % at Z = 3 m for d = 1 m, and it breaks down for Z <= d
 * (the point passes the camera). (2) Flow is measured at the previous frame's pixels and reused
 * at the current frame's pixels (see RolloutWarper). (3) Without a gyro the rotation part stays
 * in the flow and is scaled with it: near the image centre the error is about
 * f |w| dt * d / (|v| dt) = f |w| d / |v| pixels (f in px), e.g. 8 px for f = 200 px,
 * |w| = 0.2 rad/s, d = 1 m, |v| = 5 m/s.
 */

/** Pinhole intrinsics in pixels (sensor_msgs/CameraInfo K: fx = K[0], fy = K[4], cx = K[2], cy = K[5]). */
export type CameraIntrinsics = { fx: number; fy: number; cx: number; cy: number };

/** A 3-vector (angular velocity in rad/s unless said otherwise). */
export type Vec3 = { x: number; y: number; z: number };

/**
 * Angular velocity from the body frame (REP-103 FLU: x forward, y left, z up) to the optical
 * frame (z forward, x right, y down) of a forward-looking camera pitched down by `pitchDownRad`
 * about the body y axis (0 = looking straight ahead). The optical axes in body coordinates are
 * x_opt = (0, -1, 0), y_opt = (-sin t, 0, -cos t), z_opt = (cos t, 0, -sin t), so
 * w_opt = (-wy, -sin t wx - cos t wz, cos t wx - sin t wz); for t = 0: (-wy, -wz, wx).
 * Writes into `out` and returns it.
 */
export function bodyFluToOptical(w: Vec3, out: Vec3, pitchDownRad = 0): Vec3 {
  const { x, y, z } = w;
  const c = Math.cos(pitchDownRad);
  const s = Math.sin(pitchDownRad);
  out.x = -y;
  out.y = -s * x - c * z;
  out.z = c * x - s * z;
  return out;
}

/**
 * Rotation-induced flow in pixels over `dtS` seconds at every pixel (the rotation term above,
 * times dt, times the focal lengths), written interleaved (du, dv) into `out` [H, W, 2].
 */
export function rotationalFlow(width: number, height: number, k: CameraIntrinsics, wOpt: Vec3, dtS: number, out: Float32Array): void {
  if (out.length !== width * height * 2) throw new RangeError(`rotationalFlow: out.length=${out.length}, expected ${width * height * 2}`);
  const { fx, fy, cx, cy } = k;
  const wx = wOpt.x * dtS;
  const wy = wOpt.y * dtS;
  const wz = wOpt.z * dtS;
  let i = 0;
  for (let v = 0; v < height; v++) {
    const yn = (v - cy) / fy;
    for (let u = 0; u < width; u++, i += 2) {
      const xn = (u - cx) / fx;
      out[i] = fx * (wx * xn * yn - wy * (1 + xn * xn) + wz * yn);
      out[i + 1] = fy * (wx * (1 + yn * yn) - wy * xn * yn - wz * xn);
    }
  }
}
