/**
 * Normalisation of every numeric harness input to [-1, 1] (SPEC "Inputs": all inputs normalised
 * to [-1, 1]), in one place, with the ranges as parameters. Values outside a range are clipped.
 * By default NaN propagates (NaN in, NaN out) so that an upstream bug is visible instead of
 * silently becoming a plausible number; the IMU differencer rejects non-finite samples before they
 * get here. `normalizeRange(..., "zero")` maps every non-finite value (NaN, +-Infinity) to 0, the
 * centre of the range: the harness state vector (src/harness/models/stateVector.ts) uses that, so
 * one bad reading cannot poison the networks, and takes its ranges from DEFAULT_NORMALIZATION.
 *
 * The default ranges are our engineering choices for a small multirotor flying low near wires,
 * not values from the seed (which gives none). Altitude, velocity, gyro and acceleration ranges
 * are the source of STATE_RANGES in src/harness/models/stateVector.ts, the normalisation the
 * trained models were built with (changing them changes what those models see):
 * - altitude 0..50 m above ground (the seed's texture rule acts below 15 m);
 * - GPS velocity +-10 m/s per ENU component;
 * - IMU deltas per sample at the nominal rate (100 Hz): linear acceleration +-10 m/s^2, angular
 *   velocity +-2 rad/s, orientation quaternion components +-0.05 (about 5.7 deg in 10 ms).
 */
import type { Vec3 } from "./flowModel";

export type NormalizationRanges = {
  /** Altitude above ground mapped linearly from [min, max] metres to [-1, 1]. */
  altitudeM: { min: number; max: number };
  /** GPS velocity (ENU, m/s): each component divided by this and clipped. */
  velocityMps: number;
  /** IMU linear-acceleration delta per nominal sample period (m/s^2): divisor, then clip. */
  accelDeltaMps2: number;
  /** IMU angular-velocity delta per nominal sample period (rad/s): divisor, then clip. */
  gyroDeltaRadS: number;
  /** IMU orientation quaternion component delta per nominal sample period: divisor, then clip. */
  orientationDelta: number;
};

export const DEFAULT_NORMALIZATION: Readonly<NormalizationRanges> = {
  altitudeM: { min: 0, max: 50 },
  velocityMps: 10,
  accelDeltaMps2: 10,
  gyroDeltaRadS: 2,
  orientationDelta: 0.05,
};

/** Validates ranges; throws a RangeError naming the bad one. Returns them for chaining. */
export function checkNormalizationRanges(r: NormalizationRanges): NormalizationRanges {
  if (!(Number.isFinite(r.altitudeM.min) && Number.isFinite(r.altitudeM.max) && r.altitudeM.max > r.altitudeM.min)) {
    throw new RangeError(`normalize: altitudeM={min: ${r.altitudeM.min}, max: ${r.altitudeM.max}}, expected finite min < max`);
  }
  for (const key of ["velocityMps", "accelDeltaMps2", "gyroDeltaRadS", "orientationDelta"] as const) {
    if (!(r[key] > 0 && Number.isFinite(r[key]))) throw new RangeError(`normalize: ${key}=${r[key]}, expected a finite value > 0`);
  }
  return r;
}

/** Merges partial ranges over the defaults and validates them. */
export function normalizationRanges(partial: Partial<NormalizationRanges> = {}): NormalizationRanges {
  return checkNormalizationRanges({ ...DEFAULT_NORMALIZATION, ...partial });
}

/** Clips x to [-1, 1]; NaN stays NaN. */
export function clipUnit(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/** value / scale clipped to [-1, 1] (scale > 0). */
export function normalizeSymmetric(value: number, scale: number): number {
  return clipUnit(value / scale);
}

/**
 * What a normalisation does with a non-finite input: "propagate" (default) returns NaN for NaN and
 * clips +-Infinity to +-1; "zero" returns 0 for NaN and +-Infinity alike.
 */
export type NonFinitePolicy = "propagate" | "zero";

/**
 * Maps [min, max] linearly to [-1, 1], clipped. The expression (2 (v - min)) / (max - min) - 1 is
 * the one the trained models' state vector was computed with: keep it, a mathematically equal
 * form (e.g. v / 10 for [-10, 10]) rounds differently.
 */
export function normalizeRange(value: number, min: number, max: number, nonFinite: NonFinitePolicy = "propagate"): number {
  if (nonFinite === "zero" && !Number.isFinite(value)) return 0;
  return clipUnit((2 * (value - min)) / (max - min) - 1);
}

/** Altitude above ground (m) -> [-1, 1]. */
export function normalizeAltitude(altitudeM: number, ranges: NormalizationRanges = DEFAULT_NORMALIZATION): number {
  return normalizeRange(altitudeM, ranges.altitudeM.min, ranges.altitudeM.max);
}

/** GPS velocity ENU (m/s) -> three values in [-1, 1] written at out[offset..offset+2]. */
export function normalizeVelocity(v: Vec3, out: Float32Array, offset = 0, ranges: NormalizationRanges = DEFAULT_NORMALIZATION): void {
  if (offset < 0 || offset + 3 > out.length) throw new RangeError(`normalizeVelocity: offset=${offset}, expected 0..${out.length - 3}`);
  out[offset] = normalizeSymmetric(v.x, ranges.velocityMps);
  out[offset + 1] = normalizeSymmetric(v.y, ranges.velocityMps);
  out[offset + 2] = normalizeSymmetric(v.z, ranges.velocityMps);
}

/** Number of values `normalizeSensors` writes: altitude, vx, vy, vz. */
export const SENSOR_VECTOR_LENGTH = 4;

/** The harness's scalar sensor vector [altitude, vE, vN, vU], each in [-1, 1], into out[offset..offset+3]. */
export function normalizeSensors(
  input: { altitudeM: number; velocityEnuMps: Vec3 },
  out: Float32Array,
  offset = 0,
  ranges: NormalizationRanges = DEFAULT_NORMALIZATION,
): void {
  if (offset < 0 || offset + SENSOR_VECTOR_LENGTH > out.length) {
    throw new RangeError(`normalizeSensors: offset=${offset}, expected 0..${out.length - SENSOR_VECTOR_LENGTH}`);
  }
  out[offset] = normalizeAltitude(input.altitudeM, ranges);
  normalizeVelocity(input.velocityEnuMps, out, offset + 1, ranges);
}
