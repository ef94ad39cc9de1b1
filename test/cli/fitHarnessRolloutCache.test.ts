/**
 * `fit-harness --rollout-cache`: the first run flies its rollouts and keeps them; a second run
 * with the same settings flies none and trains the same harness bit for bit; a run asking for
 * another risk target is refused before flying, naming it; one asking for more flights flies only
 * the missing ones. One train and one val rollout of the
 * short wire-across scene (written as a scenario file) with the committed student and harness.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { initBackend } from "../../src/harness/backend/initBackend";
import { writeWireAcrossScenario } from "../harness/eval/wireAcross";
import { capture } from "./realPhotoFixture";

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, "..", "..");

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("fit-harness --rollout-cache", () => {
  it("flies once, trains the same harness from the cache, and refuses a cache of other rollouts", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fit-cache-"));
    const scenario = writeWireAcrossScenario(dir);
    const cache = path.join(dir, "cache");
    const fit = async (out: string, target = "wire-gap", flights = "1"): Promise<{ code: number; err: string; out: string }> => {
      const c = capture();
      const args = ["fit-harness", "--detector", path.join(ROOT, "models", "coevo", "student-r2"), "--harness", path.join(ROOT, "models", "coevo", "harness-gap"), "--region-clip", "8", "--scenario", scenario, "--risk-target", target, "--flights", flights, "--val-flights", "1", "--steps", "3", "--workers", "1", "--rollout-cache", cache, "--out", out];
      const code = await main(args, c.io);
      return { code, err: c.err.join(""), out: c.out.join("") };
    };
    const first = await fit(path.join(dir, "a"));
    expect(first.code).toBe(0);
    expect(first.err).toContain("0 of 1 train flights on disk, flying 1");
    expect(first.err).toContain("0 of 1 val flights on disk, flying 1");
    expect(fs.readdirSync(path.join(cache, "train"))).toHaveLength(1);
    expect(fs.readdirSync(path.join(cache, "val"))).toHaveLength(1);
    const second = await fit(path.join(dir, "b"));
    expect(second.code).toBe(0);
    expect(second.err).toContain("1 of 1 train flights on disk, flying 0");
    expect(second.err).toContain("1 of 1 val flights on disk, flying 0");
    expect(second.err).not.toMatch(/rollouts \d+\/\d+/);
    const weights = (d: string): Buffer => fs.readFileSync(path.join(dir, d, "spatial_harness.weights.bin"));
    expect(weights("b").equals(weights("a"))).toBe(true);
    const metaA = JSON.parse(fs.readFileSync(path.join(dir, "a", "fit-harness.json"), "utf8"));
    const metaB = JSON.parse(fs.readFileSync(path.join(dir, "b", "fit-harness.json"), "utf8"));
    expect(metaB.rollouts.train).toEqual(metaA.rollouts.train);
    expect(metaB.validation).toEqual(metaA.validation);
    expect(metaB.rollouts.cache).toBe(cache);
    await expect(fit(path.join(dir, "c"), "wire-contact")).rejects.toThrow('riskTarget: on disk "wire-gap", this run "wire-contact"');
    expect(fs.existsSync(path.join(dir, "c"))).toBe(false);
    // a run asking for more flights reads the one on disk and flies only the missing one (how a killed run resumes)
    const more = await fit(path.join(dir, "d"), "wire-gap", "2");
    expect(more.code).toBe(0);
    expect(more.err).toContain("1 of 2 train flights on disk, flying 1");
    expect(fs.readdirSync(path.join(cache, "train"))).toHaveLength(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
