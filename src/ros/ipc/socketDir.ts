import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where launches put their introspection sockets: $XDG_RUNTIME_DIR/drone-harness (a per-user
 * directory on systemd machines, XDG Base Directory spec) or <tmpdir>/drone-harness-<uid>.
 * The directory is mode 0700, so only its user can reach the sockets (connect(2) on a Unix
 * socket needs search permission on every directory of its path).
 */
export function introspectionDir(env: Record<string, string | undefined> = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && runtime !== "") return join(runtime, "drone-harness");
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return join(tmpdir(), `drone-harness-${uid}`);
}

/**
 * Creates `dir` with mode 0700, or checks an existing one: it must be a real directory (not a
 * symlink) owned by this user; group/other permission bits are removed. Throws an Error naming the
 * directory and what is wrong.
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`introspection directory ${dir} is not a directory (a symlink or file is in the way); remove it`);
  const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
  if (st.uid !== uid) throw new Error(`introspection directory ${dir} is owned by uid ${st.uid}, not by this user (uid ${uid}); refusing to use it`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Socket file name of the launch running as `pid`. */
export function socketFileName(pid: number): string {
  return `launch-${pid}.sock`;
}

const SOCKET_RE = /^launch-(\d+)\.sock$/;

/** Candidate sockets in `dir`, newest first, with the pid from the name. */
export function listLaunchSockets(dir: string): Array<{ path: string; pid: number; mtimeMs: number }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: Array<{ path: string; pid: number; mtimeMs: number }> = [];
  for (const name of names) {
    const m = SOCKET_RE.exec(name);
    if (m === null) continue;
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isSocket()) out.push({ path, pid: Number(m[1]), mtimeMs: st.mtimeMs });
    } catch {
      // Removed between readdir and stat: not a candidate.
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}
