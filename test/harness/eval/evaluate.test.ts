import { evaluate, formatReport } from "../../../src/harness/eval/evaluate";
import { initBackend } from "../../../src/harness/backend/initBackend";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { Student } from "../../../src/harness/models/Student";
import { Teacher } from "../../../src/harness/models/Teacher";
import type { Split } from "../../../src/harness/data/SeedSplit";
import { FakeEnvironment } from "../training/fakeEnvironment";

// Stand-in split: seed % 10 -> 0..6 train, 7 val, 8..9 test.
const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

function models() {
  const bcStudent = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 1 });
  const coStudent = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 2 });
  return {
    teacher: new Teacher({ channels: [4, 4, 4], headHidden: 4 }),
    bcStudent,
    bcHarness: new HarnessNet({ seed: 3 }),
    bcLambda: 0.3,
    coStudent,
    coHarness: new HarnessNet({ seed: 4 }),
    coLambda: 0.3,
  };
}

describe("evaluate", () => {
  it("reads only test-split seeds, for frames and for every flight", () => {
    FakeEnvironment.created.length = 0;
    const report = evaluate(models(), {
      split: "test",
      splitOf,
      factory: (seed) => new FakeEnvironment(seed),
      flights: 4,
      apSeeds: 2,
      conditions: ["nominal"],
    });
    expect(FakeEnvironment.created.length).toBeGreaterThan(0);
    expect(FakeEnvironment.created.every((s) => splitOf(s) === "test")).toBe(true);
    const c = report.conditions[0];
    expect(c?.flightSeeds).toEqual([8, 9, 18, 19]);
    const rows = c?.rows.map((r) => r.row);
    expect(rows).toEqual(["teacher", "bc_student", "bc_student_harness", "coevolved_student_harness", "expert_privileged"]);
    // every flown row flew all 4 seeds; the expert climbs over the fake wire: no collision.
    for (const r of c?.rows ?? []) if (r.flights !== null) expect(r.flights.flights).toBe(4);
    expect(c?.rows[4]?.flights?.collisionRate).toBe(0);
    expect(c?.rows[1]?.outcomes?.map((o) => o.seed)).toEqual([8, 9, 18, 19]);
    expect(formatReport(report)).toContain("| co-evolved student + harness |");
  });

  it("refuses the train split", () => {
    expect(() => evaluate(models(), { split: "train", splitOf, factory: (seed) => new FakeEnvironment(seed), flights: 1, apSeeds: 1 })).toThrow(/split="train"/);
  });
});
