import { parseBoundArgs } from "../../../src/cli/commands/bound";

describe("drone-harness bound arguments", () => {
  it("defaults to 30 held-out test flights of the co-evolved student", () => {
    expect(parseBoundArgs(["--scenario", "default"])).toEqual({
      models: "models", scenario: "default", split: "test", flights: 30, firstSeed: 0, student: "coevolved", perturbed: false, json: false,
    });
    expect(parseBoundArgs(["--scenario", "x.yaml", "--student", "bc", "--flights", "5", "--perturbed", "--json", "--split", "val"])).toMatchObject({ student: "bc", flights: 5, perturbed: true, json: true, split: "val" });
  });

  it("refuses the train split, bad counts, unknown students and arguments, with the value named", () => {
    expect(() => parseBoundArgs(["--scenario", "d", "--split", "train"])).toThrow(/--split train/);
    expect(() => parseBoundArgs(["--scenario", "d", "--flights", "0"])).toThrow(/--flights=0, expected an integer >= 1/);
    expect(() => parseBoundArgs(["--scenario", "d", "--student", "teacher"])).toThrow(/--student=teacher, expected coevolved or bc/);
    expect(() => parseBoundArgs(["--scenario", "d", "--fast"])).toThrow(/unknown argument "--fast"/);
    expect(() => parseBoundArgs([])).toThrow(/--scenario is required/);
  });
});
