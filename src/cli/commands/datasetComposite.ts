/**
 * `dataset --views composite --textures <dir>`: a frame cache of wires drawn over photographed
 * ground textures (src/harness/data/textureComposites.ts) instead of simulator flights or views.
 * Every PNG/JPEG in <dir> (not *.mask.png) is a texture; sides above --textures-max-side are
 * scaled down first. "Flights" are groups of --views-per-world frames, one per train-split seed
 * (the seed only names the group and its random stream), written as the flight caches are, so
 * `fit --data` reads them beside the others. A rerun resumes as the flight caches do.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeImage, type RgbImage } from "../../harness/data/imageCodec";
import { resizeRgb } from "../../harness/data/resizeImage";
import { compositeFrame, DEFAULT_COMPOSITE, type CompositeOptions } from "../../harness/data/textureComposites";
import { FrameCacheDir } from "../../harness/data/node/FrameCacheDir";
import { flightRng } from "../../harness/data/generateFrames";
import type { FrameSample } from "../../harness/data/FrameDataset";
import { STATE_DIM } from "../../harness/models/stateVector";
import { UsageError, type CliIO } from "../CliCommand";

export type CompositeRun = { textures: string; maxSide: number; seeds: readonly number[]; perGroup: number; cache: string; rngSeed: number; options?: CompositeOptions };

/** DEFAULT_COMPOSITE with the two options `dataset` exposes (the thick-conductor share, the paving probability). */
export function compositeOptions(thickShare: number, paving: number): CompositeOptions {
  return { ...DEFAULT_COMPOSITE, wires: { ...DEFAULT_COMPOSITE.wires, thick: { ...DEFAULT_COMPOSITE.wires.thick, share: thickShare } }, paving: { ...DEFAULT_COMPOSITE.paving, probability: paving } };
}

const TEXTURE_EXT = /\.(png|jpe?g)$/i;

/** The texture images of `dir`, sorted by name, each at most `maxSide` px on its longer side. */
export function loadTextures(dir: string, maxSide: number): { names: string[]; images: RgbImage[] } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--textures ${dir}: not a directory`);
  const names = fs
    .readdirSync(dir)
    .filter((f) => TEXTURE_EXT.test(f) && !f.endsWith(".mask.png"))
    .sort();
  if (names.length === 0) throw new UsageError(`--textures ${dir}: no .png or .jpg images in it`);
  const images = names.map((f) => {
    const img = decodeImage(fs.readFileSync(path.join(dir, f)), path.join(dir, f));
    const k = maxSide / Math.max(img.width, img.height);
    return k >= 1 ? img : resizeRgb(img, Math.max(1, Math.round(img.width * k)), Math.max(1, Math.round(img.height * k)));
  });
  return { names, images };
}

/** Writes the composite groups not yet in the cache; returns frames written and groups skipped. */
export function writeComposites(run: CompositeRun, io: CliIO): { frames: number; skipped: number } {
  const options = run.options ?? DEFAULT_COMPOSITE;
  const { names, images } = loadTextures(run.textures, run.maxSide);
  const cache = new FrameCacheDir(run.cache);
  cache.open({ version: 1, scenario: "composite", split: "train", recording: { views: "composite", textures: names, maxSide: run.maxSide, perGroup: run.perGroup, rngSeed: run.rngSeed, options } });
  const done = new Set(cache.seeds());
  const grid = { width: options.size, height: options.size, cell_px: 8 };
  let frames = 0;
  let skipped = 0;
  const t0 = performance.now();
  for (const [i, seed] of run.seeds.entries()) {
    if (done.has(seed)) {
      skipped++;
      continue;
    }
    const rng = flightRng(run.rngSeed, seed);
    const group: FrameSample[] = [];
    for (let k = 0; k < run.perGroup; k++) group.push(compositeFrame(images, rng, seed, STATE_DIM, options));
    cache.write(seed, grid, STATE_DIM, group);
    frames += group.length;
    if ((i + 1) % 50 === 0) io.err(`dataset: ${i + 1}/${run.seeds.length} composite groups, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  }
  io.err(`dataset: ${names.length} textures from ${run.textures}\n`);
  return { frames, skipped };
}
