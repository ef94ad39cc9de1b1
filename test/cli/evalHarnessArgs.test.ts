/**
 * `eval --harness --rows`: the default rows, the literal action-formula row (flown only when
 * named: three extra detector passes per decision) and its pairing with the OFF row.
 */
import { DEFAULT_HARNESS_ROWS, HARNESS_PAIRS, parseEvalHarnessArgs } from "../../src/cli/commands/evalHarness";
import { parseFitHarnessArgs } from "../../src/cli/commands/fitHarness";

describe("eval --harness --rows", () => {
  it("flies the four rows of the issue by default and the action-formula row when named", () => {
    expect(parseEvalHarnessArgs(["--harness", "--scenario", "default"]).rows).toEqual([...DEFAULT_HARNESS_ROWS]);
    expect(DEFAULT_HARNESS_ROWS).not.toContain("coevo_student_action_formula");
    expect(parseEvalHarnessArgs(["--scenario", "default", "--rows", "coevo_student_off,coevo_student_action_formula"]).rows).toEqual(["coevo_student_off", "coevo_student_action_formula"]);
    expect(HARNESS_PAIRS).toContainEqual(["coevo_student_action_formula", "coevo_student_off"]);
  });

  it("names the unknown row and the accepted ones", () => {
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--rows", "coevo_student_actions"])).toThrow(/unknown row coevo_student_actions; expected a comma list of .*coevo_student_action_formula/);
  });

  it("pairs the oracle bound rows with their OFF rows and flies them only when named", () => {
    expect(DEFAULT_HARNESS_ROWS).not.toContain("coevo_student_oracle");
    expect(parseEvalHarnessArgs(["--scenario", "default", "--rows", "coevo_student_off,coevo_student_oracle", "--region-clip", "2"])).toMatchObject({ rows: ["coevo_student_off", "coevo_student_oracle"], regionClip: 2 });
    expect(HARNESS_PAIRS).toContainEqual(["coevo_student_oracle", "coevo_student_off"]);
    expect(HARNESS_PAIRS).toContainEqual(["bc_student_oracle", "bc_student"]);
  });
});

describe("fit-harness --risk-target", () => {
  const base = ["--detector", "models/coevo/student", "--scenario", "default", "--flights", "2", "--out", "/tmp/h"];
  it("keeps the collision target by default and accepts contact", () => {
    expect(parseFitHarnessArgs(base).riskTarget).toBe("collision");
    expect(parseFitHarnessArgs([...base, "--risk-target", "contact"]).riskTarget).toBe("contact");
  });
  it("names the flag and the accepted values for anything else", () => {
    expect(() => parseFitHarnessArgs([...base, "--risk-target", "near"])).toThrow("--risk-target near: expected collision or contact");
  });
});
