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

/**
 * The msgs/ folder: $DRONE_HARNESS_MSGS_DIR when set (for installs that keep msgs/ elsewhere, e.g.
 * an ament share directory), else the nearest ancestor of this file holding msgs/msg and a
 * package.json (the repository, from src/ under ts-jest or from dist/src/ when compiled).
 */
export function findMsgsDir(start: string = __dirname, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const fromEnv = env.DRONE_HARNESS_MSGS_DIR;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!fs.existsSync(path.join(fromEnv, "msg"))) throw new Error(`DRONE_HARNESS_MSGS_DIR=${fromEnv} has no msg/ folder`);
    return fromEnv;
  }
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, "msgs");
    if (fs.existsSync(path.join(candidate, "msg")) && fs.existsSync(path.join(dir, "package.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`msgs/ folder not found above ${start}`);
    dir = parent;
  }
}
