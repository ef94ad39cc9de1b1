/**
 * `dataset --views composite --textures <dir>`: a cache of composite frames on train-split seeds
 * that `fit` reads like the flight caches, a resumed rerun, and clear errors for what it refuses.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { command, parseDatasetArgs } from "../../src/cli/commands/dataset";
import { encodeRgbPng } from "../../src/harness/data/imageCodec";
import { FrameCacheDir } from "../../src/harness/data/node/FrameCacheDir";
import { SeedSource } from "../../src/harness/data/SeedSplit";
import { splitOfSeed } from "../../sim";
import { DEFAULT_COMPOSITE } from "../../src/harness/data/textureComposites";

const quiet = { out: () => undefined, err: () => undefined };

describe("dataset --views composite", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "composite-"));
    fs.mkdirSync(path.join(dir, "tex"));
    const rgb = new Uint8Array(40 * 30 * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (i * 37) % 251;
    fs.writeFileSync(path.join(dir, "tex", "ground.png"), encodeRgbPng({ width: 40, height: 30, rgb }));
    fs.writeFileSync(path.join(dir, "tex", "ground.mask.png"), encodeRgbPng({ width: 2, height: 2, rgb: new Uint8Array(12) }));
    fs.writeFileSync(path.join(dir, "tex", "notes.txt"), "not an image");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes groups of composite frames on train seeds, readable by fit's split guard, and resumes", async () => {
    const cache = path.join(dir, "cache");
    let out = "";
    const args = ["--views", "composite", "--textures", path.join(dir, "tex"), "--flights", "2", "--views-per-world", "3", "--cache", cache];
    expect(await command.run(args, { out: (s) => void (out += s), err: () => undefined })).toBe(0);
    expect(out).toMatch(/wrote 6 composite frames \(0 groups already cached\)/);
    const data = new FrameCacheDir(cache).read((s) => new SeedSource("train", splitOfSeed).require(s));
    expect(data.frames).toHaveLength(6);
    expect(data.grid).toEqual({ width: DEFAULT_COMPOSITE.size, height: DEFAULT_COMPOSITE.size, cell_px: 8 });
    const manifest = JSON.parse(fs.readFileSync(path.join(cache, "manifest.json"), "utf8"));
    expect(manifest.recording.textures).toEqual(["ground.png"]); // the mask and the text file are not textures
    out = "";
    expect(await command.run(args, { out: (s) => void (out += s), err: () => undefined })).toBe(0);
    expect(out).toMatch(/wrote 0 composite frames \(2 groups already cached\)/);
    expect(manifest.recording.options.wires.thick.share).toBe(0);
    expect(manifest.recording.options.paving.probability).toBe(0);
  });

  it("records --composite-thick-share and --composite-paving, and refuses them in a cache written without", async () => {
    const cache = path.join(dir, "cache-urban");
    const args = ["--views", "composite", "--textures", path.join(dir, "tex"), "--flights", "1", "--views-per-world", "2", "--cache", cache];
    expect(await command.run([...args, "--composite-thick-share", "0.3", "--composite-paving", "0.5"], quiet)).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(cache, "manifest.json"), "utf8"));
    expect([manifest.recording.options.wires.thick.share, manifest.recording.options.paving.probability]).toEqual([0.3, 0.5]);
    await expect(command.run(args, quiet)).rejects.toThrow(/written with other settings/);
    expect(() => parseDatasetArgs([...args, "--composite-paving", "1.5"])).toThrow(/--composite-paving/);
    expect(() => parseDatasetArgs(["--scenario", "default", "--flights", "1", "--cache", "/tmp/x", "--composite-paving", "0.3"])).toThrow(/give --views composite --textures <dir> too/);
  });

  it("refuses a missing or empty texture folder and options of the flown datasets", async () => {
    await expect(command.run(["--views", "composite", "--textures", path.join(dir, "none"), "--flights", "1", "--cache", path.join(dir, "c2")], quiet)).rejects.toThrow(/--textures .*none: not a directory/);
    fs.mkdirSync(path.join(dir, "empty"));
    await expect(command.run(["--views", "composite", "--textures", path.join(dir, "empty"), "--flights", "1", "--cache", path.join(dir, "c3")], quiet)).rejects.toThrow(/no .png or .jpg images/);
    const base = ["--flights", "1", "--cache", "/tmp/x"];
    expect(() => parseDatasetArgs(["--views", "composite", ...base])).toThrow(/needs --textures/);
    expect(() => parseDatasetArgs(["--scenario", "default", "--textures", "t", ...base])).toThrow(/give --views composite too/);
    expect(() => parseDatasetArgs(["--views", "composite", "--textures", "t", "--scenario", "default", ...base])).toThrow(/drop --scenario/);
    expect(() => parseDatasetArgs(["--views", "composite", "--textures", "t", "--split", "val", ...base])).toThrow(/--split train only/);
    expect(() => parseDatasetArgs(["--views", "composite", "--textures", "t", "--views-wire-scale", "1,2", ...base])).toThrow(/draws its own wires/);
    expect(parseDatasetArgs(["--views", "composite", "--textures", "t", ...base]).viewsPerWorld).toBe(24);
  });
});
