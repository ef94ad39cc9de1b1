/**
 * Two dev photos per set of ../shared/fixtures/real/pld-dev linked into a temporary folder (not
 * copied into the package), for the CLI tests on real photographs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const DEV = path.resolve(__dirname, "../../../shared/fixtures/real/pld-dev");
export const PICK: Record<string, string[]> = { PLDU: ["10", "1"], PLDM: ["12", "109"] };

/** A temporary folder `dir` with `real/<set>/<name>.{jpg,mask.png}` links to the picked photos. */
export function linkDevPhotos(prefix: string): { dir: string; real: string } {
  // The fixtures live outside the package; without them the suite fails loudly rather than skipping.
  if (!fs.existsSync(DEV)) throw new Error(`${DEV}: the dev photos are missing (../shared beside the repository)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const real = path.join(dir, "real");
  for (const [set, names] of Object.entries(PICK)) {
    fs.mkdirSync(path.join(real, set), { recursive: true });
    for (const n of names) for (const f of [`${n}.jpg`, `${n}.mask.png`]) fs.symlinkSync(path.join(DEV, set, f), path.join(real, set, f));
  }
  return { dir, real };
}

/** An io pair that keeps what a command prints. */
export function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

/**
 * linkDevPhotos for the enclosing describe block: the folder is made before its tests and removed
 * after them; read `dir` and `real` inside the tests (they are empty until then).
 */
export function useDevPhotos(prefix: string): { dir: string; real: string } {
  const paths = { dir: "", real: "" };
  beforeAll(() => {
    Object.assign(paths, linkDevPhotos(prefix));
  });
  afterAll(() => fs.rmSync(paths.dir, { recursive: true, force: true }));
  return paths;
}
