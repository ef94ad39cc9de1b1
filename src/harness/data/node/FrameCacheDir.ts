/**
 * A frame cache directory (issue 12 item 5): one file per recorded flight
 * (`flights/<seed>.frames`, frameCacheCodec.ts) plus `manifest.json` saying what produced them.
 * Files are written to a temporary name and renamed, so a killed run leaves only whole flights
 * and a later run with the same manifest resumes: flights already on disk are not flown again.
 */
import { writeFileAtomicSync } from "../../modelfile/atomicWrite";
import * as fs from "node:fs";
import * as path from "node:path";
import { decodeFlight, encodeFlight, FrameCacheError } from "../frameCacheCodec";
import type { FrameDataset, FrameSample } from "../FrameDataset";
import type { GridSpec } from "../../eval/CellLabels";

/** What a cache holds; a run refuses to add to a cache whose manifest differs. */
export type FrameCacheManifest = {
  version: 1;
  scenario: string;
  split: string;
  /** The recording settings (pilot, recordEvery, explore, ...), compared as JSON. */
  recording: Record<string, unknown>;
};

/** JSON with object keys sorted at every level, so equal settings compare equal in any key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export class FrameCacheDir {
  constructor(readonly dir: string) {}

  private flightPath(seed: number): string {
    return path.join(this.dir, "flights", `${seed}.frames`);
  }

  /** Creates the directory and manifest, or checks an existing manifest is the same. */
  open(manifest: FrameCacheManifest): void {
    fs.mkdirSync(path.join(this.dir, "flights"), { recursive: true });
    const file = path.join(this.dir, "manifest.json");
    const text = JSON.stringify(manifest, null, 2) + "\n";
    if (fs.existsSync(file)) {
      const old = fs.readFileSync(file, "utf8");
      if (canonical(JSON.parse(old)) !== canonical(JSON.parse(JSON.stringify(manifest)))) {
        throw new FrameCacheError(`${file} was written with other settings; use another --cache directory or delete it.\n  on disk: ${JSON.stringify(JSON.parse(old))}\n  asked:   ${JSON.stringify(manifest)}`);
      }
      return;
    }
    fs.writeFileSync(file, text);
  }

  has(seed: number): boolean {
    return fs.existsSync(this.flightPath(seed));
  }

  write(seed: number, grid: GridSpec, stateDim: number, frames: readonly FrameSample[]): void {
    writeFileAtomicSync(this.flightPath(seed), encodeFlight(seed, grid, stateDim, frames));
  }

  /** Seeds of the flights on disk, ascending. */
  seeds(): number[] {
    const dir = path.join(this.dir, "flights");
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => /^\d+\.frames$/.test(f))
      .map((f) => Number(f.slice(0, -".frames".length)))
      .sort((a, b) => a - b);
  }

  /** Reads the flights of `seeds` (default all) into one dataset; every seed must pass `accept` (the split guard). */
  read(accept: (seed: number) => number, seeds: readonly number[] = this.seeds()): FrameDataset {
    const frames: FrameSample[] = [];
    let grid: GridSpec | undefined;
    for (const s of seeds) {
      const file = this.flightPath(accept(s));
      const { header, frames: f } = decodeFlight(new Uint8Array(fs.readFileSync(file)), file);
      if (header.seed !== s) throw new FrameCacheError(`${file}: holds seed ${header.seed}, expected ${s}`);
      if (grid !== undefined && JSON.stringify(grid) !== JSON.stringify(header.grid)) {
        throw new FrameCacheError(`${file}: grid ${JSON.stringify(header.grid)} differs from ${JSON.stringify(grid)}`);
      }
      grid = header.grid;
      frames.push(...f);
    }
    return { grid: grid ?? { width: 256, height: 256, cell_px: 8 }, frames };
  }
}
