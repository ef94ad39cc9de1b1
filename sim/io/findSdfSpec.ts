/**
 * File adapter: locates the SDFormat 1.9 description files installed by Debian's sdformat-sdf
 * package (/usr/share/sdformat<N>/1.9/*.sdf, N = 12, 13, 14, ...) and makes an SdfSpec over them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { SdfSpec } from "../gazebo/sdfSpec";

/** The directory with root.sdf of `version`, or undefined when no sdformat-sdf package is installed. */
export function findSdfSpecDir(version = "1.9", roots: string[] = ["/usr/share", "/usr/local/share", "/opt/ros"]): string | undefined {
  for (const root of roots) {
    if (!existsSync(root)) continue;
    const candidates = readdirSync(root).filter((d) => /^sdformat\d*$/.test(d)).sort().reverse();
    for (const d of candidates) {
      const dir = path.join(root, d, version);
      if (existsSync(path.join(dir, "root.sdf"))) return dir;
    }
  }
  return undefined;
}

export function loadSdfSpec(dir: string): SdfSpec {
  return new SdfSpec((name) => {
    const file = path.join(dir, name);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  });
}
