/**
 * The imagined next metre of flight (SPEC "Harness method": rollouts with bilinear flow warps;
 * issue 13 item 1) and the small state perturbations of S_gt, as backward bilinear warps of a
 * grey frame. Pure functions on typed arrays: no tensors, no allocation per call.
 *
 * Flow model (the translation and rotation terms of Longuet-Higgins & Prazdny 1980, as in
 * src/vision/flowModel.ts): a rotation by a small angle shifts the image by f * angle pixels
 * whatever the depth; a forward move d along the optical axis moves a point at depth Z radially
 * from the principal point by the factor Z / (Z - d). The depth of each pixel is not measured
 * here, so it comes from a flat-ground model: a ray e radians below the horizontal meets the
 * ground at range altitude / sin(e), capped at `farDepth_m` (rays at or above the horizon are at
 * the cap). A wire or branch is nearer than the ground behind it, so its imagined motion is
 * underestimated (by Z_ground / Z_wire); the imagined frame is a cue for the harness, not a
 * prediction the planner flies on.
 */
import { GREY_OF_SUM } from "../../vision/greyLevels";

/** Pinhole camera of the frame: focal length and principal point (px), downward pitch of the optical axis (rad). */
export type WarpCamera = { f_px: number; cx: number; cy: number; pitchDown_rad: number };

/** A camera of `width` x `height` px with horizontal field of view `hfov_rad` (principal point at the centre). */
export function warpCamera(width: number, height: number, hfov_rad: number, pitchDown_rad: number): WarpCamera {
  if (!(hfov_rad > 0 && hfov_rad < Math.PI)) throw new RangeError(`hfov_rad=${hfov_rad}, expected in (0, pi)`);
  return { f_px: width / 2 / Math.tan(hfov_rad / 2), cx: width / 2, cy: height / 2, pitchDown_rad };
}

/** Depth cap of the flat-ground model, m (beyond it the motion of 1 m is under 2 % of the radius). */
export const FAR_DEPTH_M = 60;

/** The motion imagined between the frame and the warped view. */
export type ImaginedMotion = {
  /** Forward move along the optical axis, m (>= 0). */
  forward_m: number;
  /** Rotation to the left (yaw), rad: the scene moves right in the image. */
  yaw_rad: number;
  /** Rotation nose down (pitch), rad: the scene moves up in the image. */
  pitchDown_rad: number;
  /** Altitude above the ground, m (flat-ground depth model). */
  altitude_m: number;
  /** Body pitch of the frame, rad, nose down positive (adds to the camera's pitch for the ground model). */
  bodyPitch_rad: number;
};

/**
 * Backward warp of an interleaved image with `channels` channels (1 = grey, 3 = RGB; values kept
 * as float, no rounding, so a sub-pixel move changes the output smoothly): out(q) = img(p(q)),
 * bilinear. For the forward move the depth is evaluated at the output pixel (first order in
 * d / Z, as RolloutWarper does with measured flow); the source radius is (q - c) (Z - d) / Z,
 * with Z - d kept >= 0.2 Z so a point cannot pass the camera.
 */
export function warpImage(img: ArrayLike<number>, width: number, height: number, channels: number, cam: WarpCamera, m: ImaginedMotion, out: Float32Array): Float32Array {
  const n = width * height * channels;
  if (img.length !== n || out.length !== n) throw new RangeError(`warpImage: input ${img.length}, out ${out.length}, expected ${n} (${width}x${height}x${channels})`);
  if (!(m.forward_m >= 0 && Number.isFinite(m.forward_m))) throw new RangeError(`forward_m=${m.forward_m}, expected a finite number >= 0`);
  const dx = cam.f_px * m.yaw_rad;
  const dy = -cam.f_px * m.pitchDown_rad;
  const alt = Math.max(0.5, Number.isFinite(m.altitude_m) ? m.altitude_m : 0.5);
  const tilt = cam.pitchDown_rad + (Number.isFinite(m.bodyPitch_rad) ? m.bodyPitch_rad : 0);
  const xMax = width - 1;
  const yMax = height - 1;
  for (let y = 0; y < height; y++) {
    let k = 1;
    if (m.forward_m > 0) {
      const e = tilt + Math.atan((y + 0.5 - cam.cy) / cam.f_px);
      const z = e > 1e-3 ? Math.min(FAR_DEPTH_M, alt / Math.sin(e)) : FAR_DEPTH_M;
      k = Math.max(0.2, (z - m.forward_m) / z);
    }
    // One source row pair and weight per output row; the source x is linear in x (x0 + k * x).
    let vy = (y + 0.5 - cam.cy) * k + cam.cy - 0.5 - dy;
    vy = vy < 0 ? 0 : vy > yMax ? yMax : vy;
    const sy0 = Math.floor(vy);
    const sy1 = sy0 < yMax ? sy0 + 1 : sy0;
    const ay = vy - sy0;
    const r0 = sy0 * width;
    const r1 = sy1 * width;
    const vx0 = (0.5 - cam.cx) * k + cam.cx - 0.5 - dx;
    if (channels === 1) {
      warpGreyRow(img, r0, r1, ay, vx0, k, xMax, width, out, y * width);
      continue;
    }
    for (let x = 0; x < width; x++) {
      let vx = vx0 + k * x;
      vx = vx < 0 ? 0 : vx > xMax ? xMax : vx;
      const sx0 = Math.floor(vx);
      const sx1 = sx0 < xMax ? sx0 + 1 : sx0;
      const ax = vx - sx0;
      const o = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) {
        const top = img[(r0 + sx0) * channels + c]! * (1 - ax) + img[(r0 + sx1) * channels + c]! * ax;
        const bottom = img[(r1 + sx0) * channels + c]! * (1 - ax) + img[(r1 + sx1) * channels + c]! * ax;
        out[o + c] = top * (1 - ay) + bottom * ay;
      }
    }
  }
  return out;
}

/**
 * One output row of warpImage for a one-channel image (the harness's grey frame, every flight
 * frame): the same arithmetic as the general loop without the per-channel loop, and `| 0` for
 * Math.floor (vx is clamped to [0, xMax]), so the same bits in about half the time. vx grows with
 * x (k > 0), so the pixels whose vx lies in [0, xMax) form one run [xa, xb): there no clamp can
 * fire and sx1 = sx0 + 1, and the run is found with the loop's own expression vx0 + k * x (a NaN
 * vx0 gives an empty run: every pixel takes the general path, as before).
 */
function warpGreyRow(img: ArrayLike<number>, r0: number, r1: number, ay: number, vx0: number, k: number, xMax: number, width: number, out: Float32Array, o: number): void {
  let xa = 0;
  while (xa < width && vx0 + k * xa < 0) xa++;
  let xb = Math.floor((xMax - vx0) / k) - 1;
  if (!(xb >= xa)) xb = xa;
  if (xb > width) xb = width;
  while (xb > xa && !(vx0 + k * (xb - 1) < xMax)) xb--;
  while (xb < width && vx0 + k * xb < xMax) xb++;
  warpGreyPixels(img, r0, r1, ay, vx0, k, xMax, 0, xa, out, o);
  const by = 1 - ay;
  for (let x = xa; x < xb; x++) {
    const vx = vx0 + k * x;
    const sx0 = vx | 0;
    const ax = vx - sx0;
    const p = r0 + sx0;
    const q = r1 + sx0;
    const top = img[p]! * (1 - ax) + img[p + 1]! * ax;
    const bottom = img[q]! * (1 - ax) + img[q + 1]! * ax;
    out[o + x] = top * by + bottom * ay;
  }
  warpGreyPixels(img, r0, r1, ay, vx0, k, xMax, xb, width, out, o);
}

/** Pixels x0 <= x < x1 of a warpGreyRow row with every clamp tested. */
function warpGreyPixels(img: ArrayLike<number>, r0: number, r1: number, ay: number, vx0: number, k: number, xMax: number, x0: number, x1: number, out: Float32Array, o: number): void {
  for (let x = x0; x < x1; x++) {
    let vx = vx0 + k * x;
    vx = vx < 0 ? 0 : vx > xMax ? xMax : vx;
    const sx0 = vx | 0;
    const sx1 = sx0 < xMax ? sx0 + 1 : sx0;
    const ax = vx - sx0;
    const top = img[r0 + sx0]! * (1 - ax) + img[r0 + sx1]! * ax;
    const bottom = img[r1 + sx0]! * (1 - ax) + img[r1 + sx1]! * ax;
    out[o + x] = top * (1 - ay) + bottom * ay;
  }
}

/** Mean grey (0-255) of an rgb8 frame into `out` (width*height). */
export function greyFromRgb8(rgb8: Uint8Array | Float32Array, out: Float32Array): Float32Array {
  if (rgb8.length !== out.length * 3) throw new RangeError(`rgb8 length=${rgb8.length}, expected ${out.length * 3}`);
  if (rgb8 instanceof Uint8Array) {
    // 8-bit sums take 766 values: a table of (sum / 3) rounded to float32, the same bits as dividing.
    const third = GREY_OF_SUM;
    for (let i = 0, j = 0; i < out.length; i++, j += 3) out[i] = third[rgb8[j]! + rgb8[j + 1]! + rgb8[j + 2]!]!;
    return out;
  }
  for (let i = 0, j = 0; i < out.length; i++, j += 3) out[i] = (rgb8[j]! + rgb8[j + 1]! + rgb8[j + 2]!) / 3;
  return out;
}
