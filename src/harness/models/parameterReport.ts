/**
 * Parameter counts of student and harness and their ratio (issue 5 item 3: "the code prints both
 * counts and the ratio"; seed 2.2: the harness is 0.8 % to 1.5 % of the main model).
 */
export const SEED_RATIO_RANGE = [0.008, 0.015] as const;

export type ParameterCounts = {
  student: number;
  /** The student's conv detector (backbone + detection head) without the policy MLP. */
  studentDetector: number;
  harness: number;
  /** harness / student. */
  ratio: number;
  /** harness / studentDetector (the honest view for perception-only use). */
  ratioToDetector: number;
  withinSeedRange: boolean;
};

export type CountedModel = { parameterCount(): number };
export type CountedStudent = CountedModel & { detectorParameterCount(): number };

export function harnessParameterReport(student: CountedStudent, harness: CountedModel): ParameterCounts {
  const s = student.parameterCount();
  const sd = student.detectorParameterCount();
  const h = harness.parameterCount();
  const ratio = h / s;
  return {
    student: s,
    studentDetector: sd,
    harness: h,
    ratio,
    ratioToDetector: h / sd,
    withinSeedRange: ratio >= SEED_RATIO_RANGE[0] && ratio <= SEED_RATIO_RANGE[1],
  };
}

export function formatParameterReport(c: ParameterCounts): string {
  const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;
  return [
    `student parameters:          ${c.student}`,
    `  of which conv detector:    ${c.studentDetector}`,
    `harness parameters:          ${c.harness}`,
    `harness / student:           ${pct(c.ratio)} (seed range ${pct(SEED_RATIO_RANGE[0])} to ${pct(SEED_RATIO_RANGE[1])}: ${c.withinSeedRange ? "inside" : "OUTSIDE"})`,
    `harness / student detector:  ${pct(c.ratioToDetector)}`,
  ].join("\n");
}
