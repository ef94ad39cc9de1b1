/**
 * fit-harness's rollout cache: one flight's samples on disk and back bit for bit
 * (spatial/rolloutCodec.ts), and the cache directory that refuses rollouts flown otherwise,
 * naming what differs (data/node/RolloutCacheDir.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { modelDirDigest, RolloutCacheDir, type RolloutCacheManifest } from "../../../src/harness/data/node/RolloutCacheDir";
import { decodeSpatialFlight, encodeSpatialFlight } from "../../../src/harness/spatial/rolloutCodec";
import { HARNESS_CELL_CHANNELS, NUM_SENSITIVITY_DIMS } from "../../../src/harness/spatial/SpatialHarness";
import type { SpatialFlight, SpatialSample } from "../../../src/harness/spatial/spatialRollouts";

const rows = 8;
const cols = 12;
const cells = rows * cols;

function sample(seed: number, step: number, withCells: boolean): SpatialSample {
  const f = (n: number, k: number): Float32Array => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + k) * 3.1e-3 + (i % 7) * 1e5);
  const s: SpatialSample = {
    seed,
    step,
    features: f(cells * HARNESS_CELL_CHANNELS, step),
    sgt: f(cells * NUM_SENSITIVITY_DIMS, step + 1),
    rates: Float32Array.from([0.25, -0, 4.5]),
    near: Uint8Array.from({ length: cells }, (_, i) => (i * step) % 3 === 0 ? 1 : 0),
    riskTarget: Uint8Array.from({ length: cells / 16 }, (_, i) => (i + step) % 2),
  };
  if (withCells) s.targetCells = Uint8Array.from({ length: cells }, (_, i) => (i + step) % 5 === 0 ? 1 : 0);
  return s;
}

const flight = (seed: number, withCells = true, n = 3): SpatialFlight => ({
  seed,
  outcome: { type: "collision", seed, time_s: 12.5, obstacle: "wire" },
  steps: 50,
  samples: Array.from({ length: n }, (_, k) => sample(seed, 2 * k, withCells)),
});

describe("rolloutCodec", () => {
  it("gives back every sample bit for bit, with and without target cells", () => {
    for (const withCells of [true, false]) {
      const f = flight(5507, withCells);
      const { header, flight: back } = decodeSpatialFlight(encodeSpatialFlight(f, rows, cols));
      expect(header).toMatchObject({ seed: 5507, count: 3, rows, cols, hasTargetCells: withCells });
      expect(back.outcome).toEqual(f.outcome);
      expect(back.steps).toBe(50);
      expect(back.samples).toHaveLength(3);
      back.samples.forEach((s, k) => {
        const o = f.samples[k]!;
        expect([s.seed, s.step]).toEqual([o.seed, o.step]);
        for (const key of ["features", "sgt", "rates", "near", "riskTarget"] as const) expect(Buffer.from(s[key].buffer, s[key].byteOffset, s[key].byteLength).equals(Buffer.from(o[key].buffer, o[key].byteOffset, o[key].byteLength))).toBe(true);
        expect(s.targetCells === undefined).toBe(!withCells);
        if (withCells) expect(Array.from(s.targetCells!)).toEqual(Array.from(o.targetCells!));
        expect(s.features).toBeInstanceOf(Float32Array);
      });
      expect(Object.is(back.samples[0]!.rates[1], -0)).toBe(true);
    }
  });

  it("names a truncated file, a foreign file, a wrong sample size and what it does not store", () => {
    const bytes = encodeSpatialFlight(flight(5507), rows, cols);
    expect(() => decodeSpatialFlight(bytes.subarray(0, bytes.length - 1), "x.rollout")).toThrow(`x.rollout: ${bytes.length - 1} bytes, expected ${bytes.length} for 3 samples (truncated or corrupt)`);
    const foreign = bytes.slice();
    foreign[0] = 0;
    expect(() => decodeSpatialFlight(foreign, "y")).toThrow("y: not a rollout file (bad magic)");
    const short = flight(5507);
    short.samples[1]!.sgt = new Float32Array(5);
    expect(() => encodeSpatialFlight(short, rows, cols)).toThrow(`seed 5507, sample 1: sgt 5 (expected ${cells * NUM_SENSITIVITY_DIMS})`);
    const mixed = flight(5507);
    delete mixed.samples[2]!.targetCells;
    expect(() => encodeSpatialFlight(mixed, rows, cols)).toThrow("seed 5507: 2 of 3 samples have targetCells; expected all or none");
    const ppo = flight(5507);
    ppo.samples[0]!.policy = { risk: new Float32Array(6), action: new Uint8Array(6), ret: 0 };
    expect(() => encodeSpatialFlight(ppo, rows, cols)).toThrow("a PPO sample");
    expect(() => encodeSpatialFlight(flight(1), 6, cols)).toThrow("grid 6x12 cells");
  });
});

describe("RolloutCacheDir", () => {
  const manifest = (riskTarget: string, detector = "abc"): RolloutCacheManifest => ({ version: 1, rollouts: { detector, harness: null, riskTarget, recordEvery: 2 } });

  it("keeps flights by split and seed, and refuses a run flown otherwise, naming each difference", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rollout-cache-"));
    const cache = new RolloutCacheDir(path.join(dir, "c"));
    cache.open(manifest("wire-gap"));
    expect(cache.has("train", 5507)).toBe(false);
    cache.write("train", flight(5507), rows, cols);
    expect([cache.has("train", 5507), cache.has("val", 5507)]).toEqual([true, false]);
    expect(cache.read("train", 5507, rows, cols).samples[2]!.step).toBe(4);
    expect(() => cache.read("train", 5507, rows, 16)).toThrow("a 8x12 cell grid, this run's scenario has 8x16");
    fs.renameSync(path.join(dir, "c", "train", "5507.rollout"), path.join(dir, "c", "train", "5508.rollout"));
    expect(() => cache.read("train", 5508, rows, cols)).toThrow("holds seed 5507, expected 5508");
    // the same settings in another key order open it again; other settings are refused
    new RolloutCacheDir(path.join(dir, "c")).open({ version: 1, rollouts: { recordEvery: 2, riskTarget: "wire-gap", harness: null, detector: "abc" } });
    let message = "";
    try {
      new RolloutCacheDir(path.join(dir, "c")).open(manifest("wire-contact", "def"));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("was written for other rollouts");
    expect(message).toContain('detector: on disk "abc", this run "def"');
    expect(message).toContain('riskTarget: on disk "wire-gap", this run "wire-contact"');
    expect(message).not.toContain("recordEvery");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("identifies a model directory by its model files' names and bytes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rollout-digest-"));
    fs.writeFileSync(path.join(dir, "x.model.json"), "{}");
    fs.writeFileSync(path.join(dir, "x.weights.bin"), Buffer.from([1, 2, 3]));
    fs.writeFileSync(path.join(dir, "fit.json"), "not part of the model");
    const a = modelDirDigest(dir);
    fs.writeFileSync(path.join(dir, "fit.json"), "changed");
    expect(modelDirDigest(dir)).toBe(a);
    fs.writeFileSync(path.join(dir, "x.weights.bin"), Buffer.from([1, 2, 4]));
    expect(modelDirDigest(dir)).not.toBe(a);
    expect(() => modelDirDigest(path.join(dir, "none"))).toThrow("not a model directory");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
