/** Crash-safe file writes (temporary name, then rename). Pure Node: no tfjs, so worker threads that only write caches load fast. */
import * as fsSync from "node:fs";
import { promises as fs } from "node:fs";

/** Writes `data` to `file` under a temporary name, then renames it into place (a crash never leaves half a file). */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

/** writeFileAtomic for code that cannot await (a checkpoint inside a training loop). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fsSync.writeFileSync(tmp, data);
  fsSync.renameSync(tmp, file);
}
