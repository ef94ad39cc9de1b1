/**
 * Correction Generator constants (SPEC "The Harness method"; seed 3.1, 5.1, 5.3, 4.2).
 * Rates and bounds the seed does not give are ours and say so.
 */
/** lambda starts at 0.3 (SPEC, seed 3.1). */
export const LAMBDA_INITIAL = 0.3;
/** Multiplicative decay per update while r < LAMBDA_LOW_RISK (ours: halves in ~69 updates). */
export const LAMBDA_DECAY = 0.99;
/** Multiplicative growth per update while r > LAMBDA_HIGH_RISK (ours). */
export const LAMBDA_GROWTH = 1.01;
/** "decays while r < 0.2" (SPEC, seed 3.1). */
export const LAMBDA_LOW_RISK = 0.2;
/** "grows while r > 0.7" (SPEC, seed 3.1). */
export const LAMBDA_HIGH_RISK = 0.7;
/** Bounds of lambda (ours: the seed only says it adapts; unbounded growth would defeat the clip's purpose). */
export const LAMBDA_MIN = 0.01;
export const LAMBDA_MAX = 1.0;
/** ||delta||_2 <= 0.5, clipped by rescaling (SPEC, seed 5.1). */
export const DELTA_NORM_MAX = 0.5;
/** max|delta| normal range 0.1-0.4; sustained > 0.6 means the harness is out of control (SPEC, seed 5.1). */
export const DELTA_RUNAWAY = 0.6;
/** The runaway alarm level of a parameter where 0 means no alarm (harness node lambda_alarm_delta, config/harness.yaml). */
export function alarmLevelOf(parameter: number): number {
  return parameter === 0 ? Infinity : parameter;
}
/** Factor applied to lambda when max|delta| stays above DELTA_RUNAWAY (ours; SPEC: "warn, and lower lambda"). */
export const LAMBDA_RUNAWAY_FACTOR = 0.5;
/** Texture rule (seed 4.2): pixel-gradient variance threshold in warped wire regions (8-bit grey units, see textureGain.ts). */
export const TEXTURE_VARIANCE_THRESHOLD = 5;
/** Texture rule (seed 4.2): only below 15 m altitude. */
export const TEXTURE_MAX_ALTITUDE_M = 15;
/** Largest extra gain on the Sobel channel (ours; gain in [1, 1.5], the same bound as ||delta||). */
export const TEXTURE_MAX_BOOST = 0.5;
