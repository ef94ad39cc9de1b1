/**
 * The correction strength lambda (SPEC: starts at 0.3, decays while r < 0.2, grows while r > 0.7;
 * seed 3.1). Multiplicative per update with documented rates and bounds (constants.ts), and a
 * runaway reduction (SPEC "sustained max|delta| > 0.6: warn, and lower lambda"; seed 5.1).
 */
import {
  LAMBDA_DECAY,
  LAMBDA_GROWTH,
  LAMBDA_HIGH_RISK,
  LAMBDA_INITIAL,
  LAMBDA_LOW_RISK,
  LAMBDA_MAX,
  LAMBDA_MIN,
  LAMBDA_RUNAWAY_FACTOR,
} from "./constants";

export type LambdaScheduleOptions = {
  initial?: number;
  decay?: number;
  growth?: number;
  min?: number;
  max?: number;
};

export class LambdaSchedule {
  private lambda: number;
  private readonly initial: number;
  private readonly decay: number;
  private readonly growth: number;
  private readonly min: number;
  private readonly max: number;

  constructor(options: LambdaScheduleOptions = {}) {
    this.decay = options.decay ?? LAMBDA_DECAY;
    this.growth = options.growth ?? LAMBDA_GROWTH;
    this.min = options.min ?? LAMBDA_MIN;
    this.max = options.max ?? LAMBDA_MAX;
    const initial = options.initial ?? LAMBDA_INITIAL;
    if (!(this.decay > 0 && this.decay <= 1)) throw new RangeError(`decay=${this.decay}, expected (0, 1]`);
    if (!(this.growth >= 1 && Number.isFinite(this.growth))) throw new RangeError(`growth=${this.growth}, expected >= 1`);
    if (!(this.min > 0 && this.min <= this.max)) throw new RangeError(`min=${this.min}, max=${this.max}: expected 0 < min <= max`);
    if (!(initial >= this.min && initial <= this.max)) throw new RangeError(`initial=${initial}, expected [${this.min}, ${this.max}]`);
    this.initial = initial;
    this.lambda = initial;
  }

  /** Back to the initial value (a new flight). */
  reset(): void {
    this.lambda = this.initial;
  }

  get value(): number {
    return this.lambda;
  }

  /** One update with the current risk r in [0,1]; returns the new lambda. */
  update(risk: number): number {
    if (!(risk >= 0 && risk <= 1)) {
      throw new RangeError(`risk=${risk}, expected a number in [0, 1]`);
    }
    if (risk < LAMBDA_LOW_RISK) this.lambda = Math.max(this.min, this.lambda * this.decay);
    else if (risk > LAMBDA_HIGH_RISK) this.lambda = Math.min(this.max, this.lambda * this.growth);
    return this.lambda;
  }

  /** Lowers lambda after sustained max|delta| above the runaway threshold. */
  reduceForRunaway(): number {
    this.lambda = Math.max(this.min, this.lambda * LAMBDA_RUNAWAY_FACTOR);
    return this.lambda;
  }

  /** Restores a saved value (checkpoints). */
  set(value: number): void {
    if (!(value >= this.min && value <= this.max)) throw new RangeError(`lambda=${value}, expected [${this.min}, ${this.max}]`);
    this.lambda = value;
  }
}
