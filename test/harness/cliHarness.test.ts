/** `drone-harness harness params` prints both parameter counts and the ratio. */
import { main } from "../../src/cli/main";

describe("drone-harness harness params", () => {
  it("prints the student and harness counts and the ratio", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["harness", "params"], { out: (t) => out.push(t), err: (t) => err.push(t) });
    expect(err.join("")).toBe("");
    expect(code).toBe(0);
    const text = out.join("");
    expect(text).toMatch(/student parameters: +\d+/);
    expect(text).toMatch(/harness parameters: +31441/);
    expect(text).toMatch(/harness \/ student: +\d+\.\d\d %/);
  });
  it("rejects an unknown subcommand", async () => {
    const err: string[] = [];
    expect(await main(["harness", "nope"], { out: () => undefined, err: (t) => err.push(t) })).toBe(2);
    expect(err.join("")).toContain('unknown subcommand nope; expected "params"');
  });
});
