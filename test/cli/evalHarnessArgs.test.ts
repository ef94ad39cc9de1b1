/**
 * `eval --harness --rows`: the default rows, the literal action-formula row (flown only when
 * named: three extra detector passes per decision) and its pairing with the OFF row.
 */
import { DEFAULT_HARNESS_ROWS, HARNESS_PAIRS, parseEvalHarnessArgs } from "../../src/cli/commands/evalHarness";
import { parseFitHarnessArgs } from "../../src/cli/commands/fitHarness";
import { parseFitHarnessPpoArgs } from "../../src/cli/commands/fitHarnessPpo";

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
    expect(DEFAULT_HARNESS_ROWS).not.toContain("coevo_student_gap_oracle");
    expect(HARNESS_PAIRS).toContainEqual(["coevo_student_gap_oracle", "coevo_student_off"]);
  });
});

describe("eval --harness --vertical-hold", () => {
  it("is unset by default and reads a non-negative hold", () => {
    expect(parseEvalHarnessArgs(["--scenario", "default"]).verticalHold).toBeUndefined();
    expect(parseEvalHarnessArgs(["--scenario", "default", "--vertical-hold", "1.5"]).verticalHold).toBe(1.5);
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--vertical-hold", "-1"])).toThrow("--vertical-hold");
  });

  it("reads --risk-hold P in [0, 1] and refuses a hold above 1", () => {
    const a = parseEvalHarnessArgs(["--scenario", "default", "--risk-hold", "0.7"]);
    expect(a.riskHold).toBe(0.7);
    expect(() => parseEvalHarnessArgs(["--scenario", "default", "--risk-hold", "1.5"])).toThrow("--risk-hold");
  });
});

describe("fit-harness --risk-target", () => {
  const base = ["--detector", "models/coevo/student", "--scenario", "default", "--flights", "2", "--out", "/tmp/h"];
  it("keeps the collision target by default and accepts contact, wire-contact and wire-gap", () => {
    expect(parseFitHarnessArgs(base).riskTarget).toBe("collision");
    expect(parseFitHarnessArgs([...base, "--risk-target", "contact"]).riskTarget).toBe("contact");
    expect(parseFitHarnessArgs([...base, "--risk-target", "wire-contact"]).riskTarget).toBe("wire-contact");
    expect(parseFitHarnessArgs([...base, "--risk-target", "wire-gap"]).riskTarget).toBe("wire-gap");
  });
  it("names the flag and the accepted values for anything else", () => {
    expect(() => parseFitHarnessArgs([...base, "--risk-target", "near"])).toThrow("--risk-target near: expected collision, contact, wire-contact or wire-gap");
  });
});

describe("fit-harness --hidden1 / --hidden2", () => {
  const base = ["--detector", "models/coevo/student", "--scenario", "default", "--flights", "2", "--out", "/tmp/h"];
  it("are unset by default and read the widths of a fresh harness, beside an applied --harness", () => {
    expect(parseFitHarnessArgs(base)).not.toHaveProperty("hidden1");
    expect(parseFitHarnessArgs([...base, "--harness", "h", "--hidden1", "12", "--hidden2", "7"])).toMatchObject({ harness: "h", hidden1: 12, hidden2: 7 });
  });
  it("refuses widths out of [1, 256] and widths with --init, naming the flag", () => {
    expect(() => parseFitHarnessArgs([...base, "--hidden1", "0"])).toThrow("--hidden1");
    expect(() => parseFitHarnessArgs([...base, "--hidden2", "300"])).toThrow("--hidden2 300: expected an integer in [1, 256]");
    expect(() => parseFitHarnessArgs([...base, "--init", "h", "--hidden1", "12"])).toThrow(/cannot be combined with --init/);
  });
});

describe("fit-harness-ppo arguments", () => {
  const base = ["--detector", "models/coevo/student-r2", "--harness", "models/coevo/harness-contact", "--scenario", "default", "--out", "/tmp/p"];
  it("has the ablation's defaults and reads every flag", () => {
    expect(parseFitHarnessPpoArgs(base)).toMatchObject({ iterations: 8, flights: 40, epochs: 4, batch: 16, lr: 1e-3, gamma: 0.9, regionClip: 0.5 });
    expect(parseFitHarnessPpoArgs([...base, "--iterations", "2", "--flights", "4", "--gamma", "0.8", "--region-clip", "2", "--first-seed", "20000"])).toMatchObject({ iterations: 2, flights: 4, gamma: 0.8, regionClip: 2, firstSeed: 20000 });
  });
  it("needs the harness it starts from and names unknown flags", () => {
    expect(() => parseFitHarnessPpoArgs(base.slice(0, 2).concat(base.slice(4)))).toThrow("PPO starts from a harness");
    expect(() => parseFitHarnessPpoArgs([...base, "--steps", "3"])).toThrow('unknown argument "--steps"');
    expect(() => parseFitHarnessPpoArgs([...base, "--gamma", "2"])).toThrow("--gamma");
  });
});
