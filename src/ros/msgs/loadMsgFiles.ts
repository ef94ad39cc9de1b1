import * as fs from "node:fs";
import * as path from "node:path";

import type { MsgFile } from "./MsgFile";

/**
 * The file-system adapter for the registry: reads msgs/msg/*.msg (package drone_harness_msgs) and
 * msgs/third_party/<pkg>/msg/*.msg. The msgs/ folder is found by walking up from this module's
 * directory, so it works from src/ (ts-jest) and from dist/src/ (compiled).
 */
export function loadMsgFiles(msgsDir: string = findMsgsDir()): MsgFile[] {
  const files: MsgFile[] = [];
  const own = path.join(msgsDir, "msg");
  if (fs.existsSync(own)) files.push(...readPackageDir("drone_harness_msgs", own));
  const thirdParty = path.join(msgsDir, "third_party");
  if (fs.existsSync(thirdParty)) {
    for (const pkg of fs.readdirSync(thirdParty).sort()) {
      const dir = path.join(thirdParty, pkg, "msg");
      if (fs.existsSync(dir)) files.push(...readPackageDir(pkg, dir));
    }
  }
  return files;
}

function readPackageDir(pkg: string, dir: string): MsgFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".msg"))
    .sort()
    .map((f) => ({ typeName: `${pkg}/msg/${f.slice(0, -4)}`, text: fs.readFileSync(path.join(dir, f), "utf8") }));
}

/** The repository's msgs/ folder: the nearest ancestor of this file holding msgs/package.xml. */
export function findMsgsDir(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, "msgs");
    if (fs.existsSync(path.join(candidate, "msg")) && fs.existsSync(path.join(dir, "package.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`msgs/ folder not found above ${start}`);
    dir = parent;
  }
}
