import { parseEvalArgs } from "../../../src/cli/commands/eval";

describe("drone-harness eval arguments", () => {
  it("shares the held-out flags with bound and keeps its own", () => {
    expect(parseEvalArgs(["--scenario", "default"])).toEqual({
      models: "models", scenario: "default", split: "test", flights: 50, apSeeds: 12, json: false, conditions: ["nominal", "perturbed"], planner: false, detectors: "models/pipeline",
    });
    expect(parseEvalArgs(["--models", "m", "--scenario", "s.yaml", "--split", "val", "--flights", "7", "--json", "--ap-seeds", "2", "--conditions", "perturbed", "--fly-rows", "bc_student"])).toEqual({
      models: "m", scenario: "s.yaml", split: "val", flights: 7, apSeeds: 2, json: true, conditions: ["perturbed"], flyRows: ["bc_student"], planner: false, detectors: "models/pipeline",
    });
    expect(parseEvalArgs(["--planner", "--detectors", "d", "--scenario", "s", "--planner-rows", "planner_oracle,expert_privileged"])).toMatchObject({
      planner: true, detectors: "d", plannerRows: ["planner_oracle", "expert_privileged"],
    });
  });

  it("names what is wrong", () => {
    expect(() => parseEvalArgs(["--scenario", "d", "--split", "train"])).toThrow(/--split train: evaluation may only read held-out seeds/);
    expect(() => parseEvalArgs(["--scenario", "d", "--flights", "x"])).toThrow(/--flights=x, expected an integer >= 1/);
    expect(() => parseEvalArgs(["--scenario", "d", "--fly-rows", "teacher"])).toThrow(/--fly-rows=teacher/);
    expect(() => parseEvalArgs(["--scenario", "d", "--verbose"])).toThrow(/unknown argument "--verbose"/);
    expect(() => parseEvalArgs(["--json"])).toThrow(/--scenario is required/);
    expect(parseEvalArgs(["--scenario", "d", "--planner", "--planner-set", "wThreat=4,range_m=6"]).plannerSet).toEqual({ wThreat: 4, range_m: 6 });
    expect(() => parseEvalArgs(["--scenario", "d", "--planner-set", "limits=3"])).toThrow("--planner-set limits=3: expected key=number with a numeric LocalPlanner option");
    expect(() => parseEvalArgs(["--scenario", "d", "--planner-set", "constructor=3"])).toThrow("--planner-set constructor=3");
    expect(() => parseEvalArgs(["--scenario", "d", "--planner-set", "wThreat=x"])).toThrow("--planner-set wThreat=x");
    expect(() => parseEvalArgs(["--scenario", "d", "--planner", "--planner-rows", "planner_magic"])).toThrow(/--planner-rows=planner_magic, expected a comma list of planner_oracle/);
    expect(parseEvalArgs(["--scenario", "d", "--planner", "--ap-seeds", "20", "--ap-only"]).apOnly).toBe(true);
    expect(() => parseEvalArgs(["--scenario", "d", "--ap-only"])).toThrow(/--ap-only .* needs --planner and --ap-seeds N >= 1/);
    expect(() => parseEvalArgs(["--scenario", "d", "--planner", "--ap-seeds", "0", "--ap-only"])).toThrow(/--ap-only .* needs --planner/);
  });
});
