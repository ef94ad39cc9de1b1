import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The drone_harness share directory: the nearest ancestor of `start` holding a package.xml named
 * drone_harness (the repository root in a checkout, <prefix>/share/drone_harness once installed
 * by colcon, where dist/ sits next to package.xml). Throws naming `start` when there is none.
 */
export function findPackageRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.xml");
    if (existsSync(manifest) && /<name>\s*drone_harness\s*<\/name>/.test(readFileSync(manifest, "utf8"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no drone_harness package.xml found in ${start} or its parents`);
    dir = parent;
  }
}
