/**
 * fit-harness's rollout cache (`--rollout-cache <dir>`): one file per flown rollout flight
 * (`train/<seed>.rollout`, `val/<seed>.rollout`; spatial/rolloutCodec.ts) and `manifest.json`
 * saying what flew them (the detector's and the applied harness's files by sha256, the scenario
 * file's sha256, the risk target, the recording settings). A run with the same manifest reads the
 * flights on disk and flies only the missing ones, each written as it lands (temporary name, then
 * rename), so a killed run resumes and a training-side probe (another loss, width or step count)
 * does not fly its 270 rollouts again (about 12 minutes on two cores). A run with another manifest
 * is refused, naming what differs. The manifest does not identify the code that recorded the
 * flights (the features, S_gt's finite differences, the planner): a cache belongs to one checkout,
 * and a change to how rollouts are recorded needs a fresh directory.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeFileAtomicSync } from "../../modelfile/atomicWrite";
import { decodeSpatialFlight, encodeSpatialFlight, RolloutCacheError } from "../../spatial/rolloutCodec";
import type { SpatialFlight } from "../../spatial/spatialRollouts";
import { canonical } from "./FrameCacheDir";

export type RolloutCacheManifest = { version: 1; rollouts: Record<string, unknown> };
export type RolloutSplit = "train" | "val";

/** sha256 over the model files of a directory (*.model.json, *.weights.bin: names and bytes, sorted by name). */
export function modelDirDigest(dir: string): string {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new RolloutCacheError(`${dir}: not a model directory`);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".model.json") || f.endsWith(".weights.bin")).sort();
  if (files.length === 0) throw new RolloutCacheError(`${dir}: no *.model.json / *.weights.bin files to identify the model by`);
  const h = createHash("sha256");
  for (const f of files) h.update(`${f}\n`).update(fs.readFileSync(path.join(dir, f)));
  return h.digest("hex");
}

/** sha256 of one file's bytes. */
export function fileDigest(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

export class RolloutCacheDir {
  constructor(readonly dir: string) {}

  private flightPath(split: RolloutSplit, seed: number): string {
    return path.join(this.dir, split, `${seed}.rollout`);
  }

  /** Creates the directory and manifest, or checks an existing manifest is the same (naming every setting that differs). */
  open(manifest: RolloutCacheManifest): void {
    const file = path.join(this.dir, "manifest.json");
    if (fs.existsSync(file)) {
      let old: Partial<RolloutCacheManifest> | null;
      try {
        old = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<RolloutCacheManifest> | null;
      } catch (e) {
        throw new RolloutCacheError(`${file}: not JSON (${(e as Error).message}); use another --rollout-cache directory or delete it`);
      }
      const was = old?.rollouts ?? {};
      const asked = JSON.parse(JSON.stringify(manifest.rollouts)) as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(was), ...Object.keys(asked)])].sort();
      const differ = keys.filter((k) => canonical(was[k]) !== canonical(asked[k]));
      const version = old?.version as unknown;
      if (version !== manifest.version || differ.length > 0) {
        const lines = differ.map((k) => `  ${k}: on disk ${JSON.stringify(was[k]) ?? "(none)"}, this run ${JSON.stringify(asked[k]) ?? "(none)"}`);
        if (version !== manifest.version) lines.unshift(`  version: on disk ${JSON.stringify(version) ?? "(none)"}, this run ${manifest.version}`);
        throw new RolloutCacheError(`${file} was written for other rollouts; use another --rollout-cache directory or delete it:\n${lines.join("\n")}`);
      }
    } else {
      fs.mkdirSync(this.dir, { recursive: true });
      writeFileAtomicSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    for (const split of ["train", "val"] as const) fs.mkdirSync(path.join(this.dir, split), { recursive: true });
  }

  has(split: RolloutSplit, seed: number): boolean {
    return fs.existsSync(this.flightPath(split, seed));
  }

  write(split: RolloutSplit, flight: SpatialFlight, rows: number, cols: number): void {
    writeFileAtomicSync(this.flightPath(split, flight.seed), encodeSpatialFlight(flight, rows, cols));
  }

  /** The flight of `seed`; its grid must be rows x cols cells. */
  read(split: RolloutSplit, seed: number, rows: number, cols: number): SpatialFlight {
    const file = this.flightPath(split, seed);
    const { header, flight } = decodeSpatialFlight(new Uint8Array(fs.readFileSync(file)), file);
    if (header.seed !== seed) throw new RolloutCacheError(`${file}: holds seed ${header.seed}, expected ${seed}`);
    if (header.rows !== rows || header.cols !== cols) throw new RolloutCacheError(`${file}: a ${header.rows}x${header.cols} cell grid, this run's scenario has ${rows}x${cols}`);
    return flight;
  }
}
