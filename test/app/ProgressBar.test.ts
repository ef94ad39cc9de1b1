import { ProgressBar } from "../../src/app/ProgressBar";

describe("ProgressBar", () => {
  it("prints one line per flight when stderr is not a terminal, and no \\r updates", () => {
    const out: string[] = [];
    const bar = new ProgressBar({ total: 2, write: (t) => out.push(t), isTTY: false, width: 10 });
    bar.update(0.5, "seed 1 on t=1.0 s");
    bar.flightDone("seed 1 on: flying");
    bar.flightDone("seed 1 off: collided");
    expect(out).toEqual(["[#####.....]  50% flight 1/2: seed 1 on: flying\n", "[##########] 100% flight 2/2: seed 1 off: collided\n"]);
  });

  it("redraws one line with \\r on a terminal, throttled", () => {
    const out: string[] = [];
    let now = 0;
    const bar = new ProgressBar({ total: 4, write: (t) => out.push(t), isTTY: true, width: 8, minIntervalMs: 100, now: () => now });
    bar.update(0.5, "a");
    now = 50;
    bar.update(0.6, "b"); // throttled
    now = 150;
    bar.update(1, "c");
    bar.flightDone("done");
    expect(out[0]).toBe("\r[#.......]  13% 1/4 a\u001b[K");
    expect(out[1]).toBe("\r[##......]  25% 1/4 c\u001b[K");
    expect(out[2]).toBe("\r[##......]  25% done\u001b[K\n");
    expect(out).toHaveLength(3);
    expect(() => new ProgressBar({ total: 0, write: () => undefined, isTTY: false })).toThrow("total=0, expected an integer >= 1");
  });
});
