/**
 * `eval --harness --rows`: the default rows, the literal action-formula row (flown only when
 * named: three extra detector passes per decision) and its pairing with the OFF row.
 */
import { DEFAULT_HARNESS_ROWS, HARNESS_PAIRS, parseEvalHarnessArgs } from "../../src/cli/commands/evalHarness";

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
});
