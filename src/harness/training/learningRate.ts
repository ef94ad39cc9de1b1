/**
 * Cosine learning-rate decay to 10 % of the base rate: step 1 trains at `base`, step `steps` at
 * 0.1 x base (the detector stage and the fine-tuning on photos use it).
 */
export function cosineRate(base: number, step: number, steps: number): number {
  const progress = Math.min(1, Math.max(0, (step - 1) / Math.max(1, steps - 1)));
  return base * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * progress)));
}
