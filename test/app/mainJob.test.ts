/**
 * The main job end to end on a tiny budget: `drone-harness sim` with one test seed and 1.5 s of
 * sim time per arm, the committed models, then its report rendered in headless Chromium.
 * Needs the trained models in models/ (committed) and Debian's chromium (CI installs it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { CHROMIUM_MISSING, checkReport, findChromium } from "../../src/app/checkReport";
import { outputTimestamp } from "../../src/app/writeMainJobOutput";
import { UsageError } from "../../src/cli/CliCommand";
import { command as simCommand, parseSimArgs } from "../../src/cli/commands/sim";
import { splitOfSeed } from "../../sim/splits";

// Model loading, two 1.5-s lock-step flights, bag and report writing and a Chromium render took
// 122 s at load average 13 on the shared 2-core machine (issue 16 item 15), past the former 120 s
// limit. 400 s keeps it far from the limit at that load.
jest.setTimeout(400_000);

function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t) => out.push(t), err: (t) => err.push(t) }, out, err };
}

describe("drone-harness sim (the main job)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "dh-mainjob-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("flies both arms on a test seed, prints the table and writes bags, summary.json and a report that Chromium renders", async () => {
    const out = path.join(dir, "run");
    const cap = capture();
    // --foxglove 0: one Foxglove WebSocket server on a free port for the whole job (a client
    // subscribes and decodes in test/app/mainJobFoxglove.test.ts).
    const code = await simCommand.run(["--flights", "1", "--duration", "1.5", "--out", out, "--samples", "2", "--bag-seconds", "1", "--foxglove", "0"], cap.io);
    const stdout = cap.out.join("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\s+harness ON\s+harness OFF$/m);
    expect(stdout).toMatch(/^collisions\s+\d\/1\s+\d\/1$/m);
    // Progress: one line per flight when stderr is not a terminal.
    expect(cap.err.join("")).toMatch(/flight 2\/2: seed \d+ harness OFF/);
    expect(cap.err.join("").match(/main job: Foxglove WebSocket on ws:\/\/127\.0\.0\.1:\d+ for the whole job/g)).toHaveLength(1);

    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8")) as {
      seeds: number[];
      arms: Array<{ arm: string; flights: number; cameraFrames: number; latencyMs: { count: number; p50: number } }>;
      flights: Array<{ arm: string; seed: number; cameraFrames: number; latencyMs: number[]; minClearance: { clearance_m: number; time_s: number } }>;
    };
    expect(summary.seeds).toHaveLength(1);
    expect(splitOfSeed(summary.seeds[0]!)).toBe("test");
    expect(summary.flights.map((f) => f.arm)).toEqual(["on", "off"]);
    // The closest structure over the flight: a real distance (the drone starts clear of everything).
    for (const f of summary.flights) expect(f.minClearance.clearance_m).toBeGreaterThan(0);
    for (const f of summary.flights) expect(f.minClearance.clearance_m).toBeLessThan(1000);
    for (const a of summary.arms) {
      // 1.5 s at 30 Hz = 45 frames; all but the first few (before the first GPS fix) get a command.
      expect(a.cameraFrames).toBe(45);
      expect(a.latencyMs.count).toBeGreaterThan(35);
      expect(a.latencyMs.p50).toBeGreaterThan(0);
    }

    // One bag per arm with every topic of the flight's first second.
    for (const arm of ["on", "off"]) {
      const bagDir = path.join(out, `bag_${arm}_seed${summary.seeds[0]}`);
      expect(existsSync(path.join(bagDir, "metadata.yaml"))).toBe(true);
      const bag = await Bag.open(new NodeBagFileSystem(), bagDir);
      const topics = new Map(bag.metadata!.topics.map((t) => [t.name, t.messageCount]));
      for (const t of ["/camera/image_raw", "/imu/data", "/gps/fix", "/clock", "/sim/ground_truth", "/harness/obstacles", "/harness/obstacles_raw", "/harness/correction", "/cmd_vel", "/cmd_vel_raw"]) {
        expect([t, (topics.get(t) ?? 0) > 0]).toEqual([t, true]);
      }
      // Recording stops after the first camera frame at or past --bag-seconds 1 (30 Hz).
      expect(topics.get("/camera/image_raw")).toBeGreaterThanOrEqual(29);
      expect(topics.get("/camera/image_raw")).toBeLessThanOrEqual(32);
    }

    const html = readFileSync(path.join(out, "report.html"), "utf8");
    // Self-contained: no external resources.
    expect(html).not.toMatch(/(src|href)="(https?:|\/\/)/);
    if (findChromium() === undefined) throw new Error(CHROMIUM_MISSING);
    const verdict = await checkReport(path.join(out, "report.html"));
    expect(verdict.problems).toEqual([]);
    expect(verdict.check.images.length).toBeGreaterThanOrEqual(2);
  });

  it("fails with how to train when the model folder is empty, without flying", async () => {
    const cap = capture();
    const code = await simCommand.run(["--flights", "1", "--duration", "1", "--out", path.join(dir, "none"), "--models", path.join(dir, "no-models")], cap.io);
    expect(code).toBe(1);
    expect(cap.err.join("")).toContain("no trained models in");
    expect(cap.err.join("")).toContain("drone-harness train --scenario default");
  });

  it("keeps the two modes' options apart and names output folders by UTC time", () => {
    expect(parseSimArgs(["--flights", "3", "--seed-start", "100"])).toMatchObject({ headless: false, flights: 3, seedStart: 100 });
    expect(() => parseSimArgs(["--flights", "0"])).toThrow(new UsageError("--flights=0, expected an integer in [1, 1000]"));
    expect(parseSimArgs(["--foxglove"]).foxglove).toEqual({ host: "127.0.0.1", port: 8765 });
    expect(parseSimArgs(["--foxglove-host", "0.0.0.0", "--foxglove", "9001", "--flights", "2"])).toMatchObject({ flights: 2, foxglove: { host: "0.0.0.0", port: 9001 } });
    expect(() => parseSimArgs(["--foxglove-host", "0.0.0.0"])).toThrow("--foxglove-host only with --foxglove");
    expect(() => parseSimArgs(["--foxglove", "70000"])).toThrow("--foxglove=70000, expected an integer in [0, 65535]");
    return Promise.all([
      expect(simCommand.run(["--seed", "3"], capture().io)).rejects.toThrow("--seed only with --headless"),
      expect(simCommand.run(["--headless", "--flights", "2"], capture().io)).rejects.toThrow("--flights only without --headless"),
    ]).then(() => expect(outputTimestamp(new Date(Date.UTC(2026, 10, 30, 6, 40, 0, 123)))).toBe("2026-11-30T06-40-00Z"));
  });
});
