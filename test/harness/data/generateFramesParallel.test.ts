/**
 * generateFramesParallel (issue 12 item 5): expert flights recorded into a frame cache by worker
 * threads. Each flight has its own RNG (generateFrames.flightRng) and its own simulator, so the
 * cache holds the same bytes for 1 or 2 workers; a rerun skips the flights on disk; other
 * recording settings are refused by the manifest; every frame carries visibleMask and near.
 *
 * The worker threads run the compiled dist/ tree (frameWorkerScript): run `npm run build` after
 * changing src/ or sim/, else the 2-worker cache is made by stale code and differs.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadScenarioFile, seedsOfSplit, splitOfSeed } from "../../../sim";
import { FrameCacheError } from "../../../src/harness/data/frameCacheCodec";
import { FrameCacheDir } from "../../../src/harness/data/node/FrameCacheDir";
import { frameWorkerScript, generateFramesParallel, type ParallelOptions, type ParallelResult } from "../../../src/harness/data/node/generateFramesParallel";
import { SeedSource, SeedSplitError } from "../../../src/harness/data/SeedSplit";
import { STATE_DIM } from "../../../src/harness/models/stateVector";

const scenario = loadScenarioFile("default");
const seeds = seedsOfSplit("train", 2);
const recording = { rngSeed: 11, maxFramesPerFlight: 3, recordEvery: 4 };

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "frames-parallel-test-"));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function options(cacheDir: string, workers: number, overrides: Partial<ParallelOptions> = {}): ParallelOptions {
  return { scenario, split: "train", seeds, controlPeriod_s: 0.2, stateDim: STATE_DIM, recording, cacheDir, workers, ...overrides };
}

const flightBytes = (dir: string, seed: number): Buffer => fs.readFileSync(path.join(dir, "flights", `${seed}.frames`));

describe("generateFramesParallel", () => {
  let one: string;
  let two: string;
  let r1: ParallelResult;
  let r2: ParallelResult;
  const progress: number[] = [];

  beforeAll(async () => {
    one = path.join(root, "one");
    two = path.join(root, "two");
    r1 = await generateFramesParallel(options(one, 1, { onProgress: (p) => progress.push(p.done) }));
    r2 = await generateFramesParallel(options(two, 2));
  });

  it("finds the compiled worker script", () => {
    // Throws, naming dist/.../frameWorker.js and "npm run build", when dist/ has not been built.
    const script = frameWorkerScript();
    expect(fs.existsSync(script)).toBe(true);
  });

  it("starts an expert-flight worker without loading the tensor library (it needs none)", () => {
    // The worker script's module graph in a fresh process: tfjs is loaded only by detectorPilot.
    const probe = `require(${JSON.stringify(frameWorkerScript())}); const t = Object.keys(require.cache).filter((k) => k.includes("@tensorflow")); process.stdout.write(JSON.stringify(t.length));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" })) as number;
    expect(loaded).toBe(0);
  });

  it("writes byte-identical flights with 1 and 2 workers", () => {
    expect(r1).toMatchObject({ flown: 2, skipped: 0, workers: 1 });
    expect(r2).toMatchObject({ flown: 2, skipped: 0, workers: 2 });
    expect(progress).toEqual([1, 2]);
    // A flight of 3 regular frames every 4 control steps lasts 9 steps (1.8 s), far less than
    // any flight of the default scenario, so every flight has exactly 3 frames.
    expect(r1.frames).toBe(6);
    expect(r2.frames).toBe(6);
    expect(new FrameCacheDir(two).seeds()).toEqual([...seeds].sort((x, y) => x - y));
    for (const seed of seeds) {
      const a = flightBytes(one, seed);
      const b = flightBytes(two, seed);
      if (!a.equals(b)) {
        throw new Error(`flight ${seed}: the 1-worker (ts-jest, src/) and 2-worker (dist/) caches differ; if src/ or sim/ changed since the last "npm run build", rebuild`);
      }
    }
  });

  it("flies nothing on a rerun into the same cache and leaves the files untouched", async () => {
    const before = seeds.map((s) => fs.statSync(path.join(two, "flights", `${s}.frames`)).mtimeMs);
    const again = await generateFramesParallel(options(two, 2));
    expect(again).toMatchObject({ flown: 0, skipped: 2, frames: 0 });
    expect(seeds.map((s) => fs.statSync(path.join(two, "flights", `${s}.frames`)).mtimeMs)).toEqual(before);
  });

  it("refuses other recording settings into the same cache, naming the manifest", async () => {
    const other = options(two, 2, { recording: { ...recording, recordEvery: 3 } });
    await expect(generateFramesParallel(other)).rejects.toThrow(FrameCacheError);
    await expect(generateFramesParallel(other)).rejects.toThrow(`${path.join(two, "manifest.json")} was written with other settings`);
    await expect(generateFramesParallel(options(two, 2, { controlPeriod_s: 0.1 }))).rejects.toThrow(/manifest\.json was written with other settings/);
    // Nothing was added.
    expect(new FrameCacheDir(two).seeds()).toHaveLength(2);
  });

  it("records visibleMask and near of the grid's size on every frame, consistent with the mask", () => {
    // Read back through the split guard. Visible labels lie within the mask; near cells only
    // where something is visible (nearThreatCells runs on the visible mask).
    const data = new FrameCacheDir(one).read((s) => new SeedSource("train", splitOfSeed).require(s));
    const { width, height, cell_px } = data.grid;
    expect(data.grid).toEqual({ width: scenario.camera.width, height: scenario.camera.height, cell_px: 8 });
    const cols = width / cell_px;
    expect(data.frames).toHaveLength(6);
    let visiblePixels = 0;
    for (const f of data.frames) {
      expect(seeds).toContain(f.seed);
      expect(f.visibleMask).toHaveLength(width * height);
      expect(f.near).toHaveLength((width / cell_px) * (height / cell_px));
      const visibleCell = new Uint8Array(f.near!.length);
      for (let i = 0; i < width * height; i++) {
        const v = f.visibleMask![i]!;
        if (v === 0) continue;
        visiblePixels++;
        if (v !== f.mask[i]) throw new Error(`seed ${f.seed}: pixel ${i} visible as ${v} but labelled ${f.mask[i]}`);
        visibleCell[Math.floor(Math.floor(i / width) / cell_px) * cols + Math.floor((i % width) / cell_px)] = 1;
      }
      for (let c = 0; c < f.near!.length; c++) if (f.near![c] === 1 && visibleCell[c] !== 1) throw new Error(`seed ${f.seed}: near cell ${c} has no visible pixel`);
    }
    // Not vacuous: the recorded frames see structures.
    expect(visiblePixels).toBeGreaterThan(0);
  });

  it("applies the split guard to every seed (inline run)", async () => {
    const [valSeed] = seedsOfSplit("val", 1) as [number];
    const run = generateFramesParallel(options(path.join(root, "guard"), 1, { seeds: [valSeed] }));
    await expect(run).rejects.toThrow(SeedSplitError);
    expect(new FrameCacheDir(path.join(root, "guard")).seeds()).toEqual([]);
  });
});
