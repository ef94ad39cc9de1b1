import { main } from "../src/cli/main";

function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t), err: (t) => err.push(t) }, out, err };
}

describe("drone-harness CLI", () => {
  it("rejects an unknown command with exit code 2 and names it", async () => {
    const c = capture();
    expect(await main(["no-such-command"], c.io)).toBe(2);
    expect(c.err.join("")).toContain('unknown command "no-such-command"');
  });
  it("prints help", async () => {
    const c = capture();
    expect(await main(["--help"], c.io)).toBe(0);
    expect(c.out.join("")).toContain("usage: drone-harness");
  });
});
