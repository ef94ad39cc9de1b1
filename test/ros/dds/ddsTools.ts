import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCyclone } from "../../../src/ros/dds";

/**
 * Whether this machine can run the DDS tests: libddsc (koffi-loaded), and for the C peer idlc and
 * gcc. CI installs them (.ci/run); where one is missing, describeWithDds fails with this reason
 * (never a skip).
 */
export function ddsMissing(needPeerTools: boolean): string | undefined {
  try {
    loadCyclone();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!needPeerTools) return undefined;
  for (const tool of ["idlc", "gcc"]) {
    try {
      execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "pipe" });
    } catch {
      return `${tool} not found: apt-get install cyclonedds-tools gcc`;
    }
  }
  return undefined;
}

/**
 * `describe` that runs when the tools are there and fails, naming what to install, when they are
 * not (never a skip that passes: issue 16 item 14; `.ci/run` installs them).
 */
export function describeWithDds(title: string, needPeerTools: boolean, body: () => void): void {
  const missing = ddsMissing(needPeerTools);
  if (missing === undefined) return describe(title, body);
  describe(title, () => {
    it("has Cyclone DDS (and idlc, gcc) installed, as .ci/run does", () => {
      expect(() => {
        throw new Error(missing);
      }).not.toThrow();
    });
  });
}

/** Builds the C peer from test/ros/dds/peer (idlc for the types, gcc against -lddsc); returns its path. */
export function buildPeer(): string {
  const dir = mkdtempSync(join(tmpdir(), "dh-dds-peer-"));
  const src = join(__dirname, "peer");
  execFileSync("idlc", [join(src, "ros_types.idl")], { cwd: dir, stdio: "pipe" });
  const exe = join(dir, "peer");
  execFileSync("gcc", ["-O1", "-Wall", "-Werror", "-o", exe, join(src, "peer.c"), join(dir, "ros_types.c"), `-I${dir}`, "-lddsc"], { cwd: dir, stdio: "pipe" });
  return exe;
}
