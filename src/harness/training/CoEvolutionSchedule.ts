/**
 * When each co-evolution phase runs and how the correction is watched (SPEC "Co-evolution
 * training"; seed section 3.3 and 5.1):
 *  - every 100 environment steps: a PPO update of the student with the harness frozen;
 *  - every 200 environment steps: an update of the harness with the student frozen;
 *  - every 100 steps: log max|delta|; normal is 0.1 to 0.4; when it stays above 0.6 for
 *    `sustainedLogs` consecutive logs (default 3, i.e. 300 steps) the harness is "out of
 *    control": warn and multiply lambda by `lambdaCut` (default 0.5).
 */
export type ScheduleOptions = {
  studentEvery: number;
  harnessEvery: number;
  logEvery: number;
  deltaAlarm: number;
  sustainedLogs: number;
  lambdaCut: number;
};

export const DEFAULT_SCHEDULE: ScheduleOptions = {
  studentEvery: 100,
  harnessEvery: 200,
  logEvery: 100,
  deltaAlarm: 0.6,
  sustainedLogs: 3,
  lambdaCut: 0.5,
};

export type DueWork = { student: boolean; harness: boolean; log: boolean };

export class CoEvolutionSchedule {
  private above = 0;

  constructor(readonly options: ScheduleOptions = DEFAULT_SCHEDULE) {
    for (const [k, v] of Object.entries(options)) {
      if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`${k}=${v}, expected a finite number > 0`);
    }
  }

  /** What is due after environment step `step` (1-based count of steps taken so far). */
  due(step: number): DueWork {
    const o = this.options;
    return {
      student: step > 0 && step % o.studentEvery === 0,
      harness: step > 0 && step % o.harnessEvery === 0,
      log: step > 0 && step % o.logEvery === 0,
    };
  }

  /**
   * Records the max|delta| of the last log window. Returns the factor to multiply lambda by
   * (1 when nothing is wrong) and whether to warn.
   */
  observeMaxDelta(maxAbsDelta: number): { warn: boolean; lambdaFactor: number } {
    if (maxAbsDelta > this.options.deltaAlarm) this.above++;
    else this.above = 0;
    if (this.above >= this.options.sustainedLogs) {
      this.above = 0;
      return { warn: true, lambdaFactor: this.options.lambdaCut };
    }
    return { warn: false, lambdaFactor: 1 };
  }
}
