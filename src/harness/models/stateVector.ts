/**
 * The normalised sensor state s in [-1, 1]^D that the student's heads and the harness's MLP
 * consume (SPEC "The Harness method", Inputs: altitude, GPS velocity, IMU; all normalised to
 * [-1, 1]; time series differenced over a sliding window, dx_t = x_t - x_{t-1}; seed section 3.1).
 *
 * These D = 16 numbers are also the "state features" s_j of the sensitivity matrix S (A x D) and
 * of the rates |ds_j/dt|: S[i,j] = |d pi(a_i|s) / d s_j| is only defined for features the
 * student's policy is a function of, and the student reads exactly this vector (its image
 * features are not perturbable one scalar at a time). Layout:
 *   [0]      altitude above ground, [0, 50] m
 *   [1..3]   GPS velocity ENU (east, north, up), +-10 m/s
 *   [4..15]  IMU difference window, W = 2 differences (newest last), each
 *            (gyro x, y, z: +-2 rad/s per step; accel x, y, z: +-10 m/s^2 per step), body FLU
 */
import { DEFAULT_NORMALIZATION, normalizeRange } from "../../vision/normalize";

export const STATE_DIM = 16;
export const IMU_DIFF_WINDOW = 2;

/**
 * Normalisation ranges (physical value -> [-1, 1] by linear map, then clamp). Stored in model
 * manifests. They are src/vision/normalize.ts's DEFAULT_NORMALIZATION (the one place harness
 * input ranges live), as [min, max] pairs: altitude [0, 50] m, velocity +-10 m/s, gyro deltas
 * +-2 rad/s, accel deltas +-10 m/s^2.
 */
export const STATE_RANGES: {
  readonly altitude_m: readonly [number, number];
  readonly velocityEnu_m_s: readonly [number, number];
  readonly gyroDiff_rad_s: readonly [number, number];
  readonly accelDiff_m_s2: readonly [number, number];
} = {
  altitude_m: [DEFAULT_NORMALIZATION.altitudeM.min, DEFAULT_NORMALIZATION.altitudeM.max],
  velocityEnu_m_s: [-DEFAULT_NORMALIZATION.velocityMps, DEFAULT_NORMALIZATION.velocityMps],
  gyroDiff_rad_s: [-DEFAULT_NORMALIZATION.gyroDeltaRadS, DEFAULT_NORMALIZATION.gyroDeltaRadS],
  accelDiff_m_s2: [-DEFAULT_NORMALIZATION.accelDeltaMps2, DEFAULT_NORMALIZATION.accelDeltaMps2],
};

export type ImuSample = {
  /** Body FLU angular velocity, rad/s. */
  gyro_rad_s: readonly [number, number, number];
  /** Body FLU linear acceleration, m/s^2. */
  accel_m_s2: readonly [number, number, number];
};

export type SensorSnapshot = {
  altitude_m: number;
  velocityEnu_m_s: readonly [number, number, number];
  /** The last IMU_DIFF_WINDOW + 1 samples, oldest first (fewer: missing differences are 0). */
  imu: readonly ImuSample[];
};

/** normalizeRange with non-finite -> 0 (the centre of the range). */
function norm(v: number, lo: number, hi: number): number {
  return normalizeRange(v, lo, hi, "zero");
}

/**
 * Writes the normalised state of `snap` into `out` (length STATE_DIM, no allocation). Non-finite
 * inputs map to 0 (the centre of the range) so one bad reading cannot poison the networks.
 */
export function normaliseState(snap: SensorSnapshot, out: Float32Array = new Float32Array(STATE_DIM)): Float32Array {
  if (out.length !== STATE_DIM) {
    throw new RangeError(`out.length=${out.length}, expected ${STATE_DIM}`);
  }
  const [alo, ahi] = STATE_RANGES.altitude_m;
  const [vlo, vhi] = STATE_RANGES.velocityEnu_m_s;
  const [glo, ghi] = STATE_RANGES.gyroDiff_rad_s;
  const [clo, chi] = STATE_RANGES.accelDiff_m_s2;
  out[0] = norm(snap.altitude_m, alo, ahi);
  for (let k = 0; k < 3; k++) out[1 + k] = norm(snap.velocityEnu_m_s[k] ?? 0, vlo, vhi);
  const n = snap.imu.length;
  for (let w = 0; w < IMU_DIFF_WINDOW; w++) {
    // Difference w (0 = older) uses samples (n - 1 - (IMU_DIFF_WINDOW - 1 - w)) and the one before it.
    const cur = snap.imu[n - IMU_DIFF_WINDOW + w];
    const prev = snap.imu[n - IMU_DIFF_WINDOW + w - 1];
    const base = 4 + 6 * w;
    for (let k = 0; k < 3; k++) {
      if (cur === undefined || prev === undefined) {
        out[base + k] = 0;
        out[base + 3 + k] = 0;
      } else {
        out[base + k] = norm((cur.gyro_rad_s[k] ?? 0) - (prev.gyro_rad_s[k] ?? 0), glo, ghi);
        out[base + 3 + k] = norm((cur.accel_m_s2[k] ?? 0) - (prev.accel_m_s2[k] ?? 0), clo, chi);
      }
    }
  }
  return out;
}
