/**
 * `drone-harness <command> --help` prints that command's usage on stdout and exits 0, for every
 * command (README: "`npx drone-harness <command> --help` prints a command's usage"), without
 * running it: `sim --help` must not fly and `bag record --help` must not record.
 */
import { COMMANDS } from "../../src/cli/commands/index";
import { main } from "../../src/cli/main";

async function run(argv: string[]): Promise<{ rc: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const rc = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { rc, out, err };
}

describe("--help", () => {
  for (const name of Object.keys(COMMANDS)) {
    it(`${name} --help prints its usage and exits 0`, async () => {
      const usage = (await COMMANDS[name]!.load()).usage;
      const r = await run([name, "--help"]);
      expect(r).toEqual({ rc: 0, out: `usage: ${usage}\n`, err: "" });
    });
  }

  it("works after a subcommand and other flags, and as -h", async () => {
    const usage = (await COMMANDS.bag!.load()).usage;
    expect(await run(["bag", "record", "-o", "/nonexistent/never-written", "--help"])).toEqual({ rc: 0, out: `usage: ${usage}\n`, err: "" });
    expect((await run(["sim", "-h"])).rc).toBe(0);
  });

  it("an unknown option is still an error with the usage on stderr", async () => {
    const r = await run(["sim", "--no-such-option"]);
    expect(r.rc).toBe(2);
    expect(r.err).toContain("usage: drone-harness sim");
  });
});
