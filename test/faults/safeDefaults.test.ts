/**
 * Safe defaults (issue 8, item 4): a launch opens no TCP/UDP listener (its only listener is the
 * introspection Unix socket, in a 0700 directory); launch <include> paths cannot leave the
 * package, also not through a symlink; model files are data only (JavaScript in a model.json is
 * never run).
 */
import * as dgram from "node:dgram";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { controllerNode } from "../../nodes/controller";
import { safetyNode } from "../../nodes/safety";
import { ModelFileError, decodeModel } from "../../src/harness";
import { LaunchFileError } from "../../src/ros/launch/LaunchFileError";
import { loadLaunchFile } from "../../src/ros/launch/loadLaunchFile";
import { runLaunch } from "../../src/cli/runLaunch";

/** Inodes of the TCP/UDP sockets in LISTEN state (TCP 0A; UDP 07 = unconnected/bound) in /proc/net. */
function listeningInodes(): Set<string> {
  const out = new Set<string>();
  for (const [file, state] of [["tcp", "0A"], ["tcp6", "0A"], ["udp", "07"], ["udp6", "07"]] as const) {
    let text: string;
    try {
      text = readFileSync(`/proc/net/${file}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === state && cols[9] !== undefined) out.add(cols[9]);
    }
  }
  return out;
}

/** Socket inodes this process holds open (/proc/self/fd -> socket:[inode]). */
function ownSocketInodes(): Set<string> {
  const out = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (m?.[1] !== undefined) out.add(m[1]);
    } catch {
      // fd closed meanwhile
    }
  }
  return out;
}

const ownListeners = (): string[] => {
  const l = listeningInodes();
  return [...ownSocketInodes()].filter((i) => l.has(i));
};

describe("safe defaults", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "dh-safe-"));
    writeFileSync(join(root, "package.xml"), '<package format="3"><name>drone_harness</name></package>');
    mkdirSync(join(root, "launch"));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(root, { recursive: true, force: true });
  });

  it("a launch opens no TCP/UDP listener; its introspection socket is a Unix socket in a 0700 directory", async () => {
    writeFileSync(
      join(root, "launch", "n.launch.xml"),
      '<launch>\n  <node pkg="drone_harness" exec="controller" name="controller"/>\n  <node pkg="drone_harness" exec="safety" name="safety"/>\n</launch>\n',
    );
    const listenArgs: unknown[] = [];
    const origListen = net.Server.prototype.listen;
    jest.spyOn(net.Server.prototype, "listen").mockImplementation(function (this: net.Server, ...args: unknown[]) {
      listenArgs.push(args[0]);
      return (origListen as (...a: unknown[]) => net.Server).apply(this, args);
    });
    const bind = jest.spyOn(dgram.Socket.prototype, "bind");
    const before = new Set(ownListeners());
    const socketDir = join(root, "run");
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    let stop: () => void = () => undefined;
    let ready = false;
    let during: string[] = [];
    let socketPath: string | undefined;
    const rc = await runLaunch([join(root, "launch", "n.launch.xml")], io, {
      registry: { controller: controllerNode, safety: safetyNode },
      packageRoot: root,
      socketDir,
      until: () => (ready ? Promise.resolve() : new Promise<void>((r) => (stop = r))),
      onReady: (info) => {
        socketPath = info.socketPath;
        during = ownListeners().filter((i) => !before.has(i));
        ready = true;
        stop();
      },
    });
    expect({ rc, log: rc === 0 ? "" : out.join("") }).toEqual({ rc: 0, log: "" });
    expect(during).toEqual([]);
    expect(bind).not.toHaveBeenCalled();
    // The one listener is the Unix socket path in the private directory.
    expect(listenArgs).toEqual([socketPath]);
    expect(socketPath?.startsWith(`${socketDir}/`)).toBe(true);
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
  }, 30_000);

  it("an <include> cannot leave the package: ../ and a symlink pointing outside are rejected", () => {
    const outside = mkdtempSync(join(tmpdir(), "dh-outside-"));
    try {
      writeFileSync(join(outside, "evil.launch.xml"), '<launch><node pkg="drone_harness" exec="controller"/></launch>');
      writeFileSync(join(root, "launch", "up.launch.xml"), `<launch><include file="$(find-pkg-share drone_harness)/../${outside.split("/").pop()!}/evil.launch.xml"/></launch>`);
      symlinkSync(join(outside, "evil.launch.xml"), join(root, "launch", "link.launch.xml"));
      writeFileSync(join(root, "launch", "viaLink.launch.xml"), '<launch><include file="$(find-pkg-share drone_harness)/launch/link.launch.xml"/></launch>');
      for (const f of ["up.launch.xml", "viaLink.launch.xml"]) {
        let err: unknown;
        try {
          loadLaunchFile(join(root, "launch", f), { packageRoot: root, env: {} });
        } catch (e) {
          err = e;
        }
        expect({ f, err: err instanceof LaunchFileError }).toEqual({ f, err: true });
        expect((err as Error).message).toMatch(new RegExp(`launch/${f.replace(".", "\\.")}:1: .*(outside|package)`));
      }
      // The same include inside the package loads.
      writeFileSync(join(root, "launch", "ok.launch.xml"), '<launch><node pkg="drone_harness" exec="controller"/></launch>');
      writeFileSync(join(root, "launch", "in.launch.xml"), '<launch><include file="$(find-pkg-share drone_harness)/launch/ok.launch.xml"/></launch>');
      expect(loadLaunchFile(join(root, "launch", "in.launch.xml"), { packageRoot: root, env: {} }).nodes).toHaveLength(1);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("safe defaults: model files", () => {
  it("model files are data only: JavaScript inside model.json is never executed", () => {
    const dir = resolve(__dirname, "../../models");
    const json = JSON.parse(readFileSync(join(dir, "harness.model.json"), "utf8")) as Record<string, unknown>;
    const bin = new Uint8Array(readFileSync(join(dir, "harness.weights.bin")));
    const g = globalThis as Record<string, unknown>;
    const payload = "globalThis.__dh_pwned = true";
    const variants: Array<Record<string, unknown>> = [
      { ...json, modelTopology: { class_name: "Lambda", config: { function: payload, module: "child_process" } } },
      { ...json, userDefinedMetadata: { ...(json.userDefinedMetadata as object), droneHarness: payload } },
      JSON.parse(JSON.stringify(json).replace('{"format"', `{"__proto__":{"__dh_polluted":true},"toString":"${payload}","format"`)) as Record<string, unknown>,
    ];
    const raw = [JSON.stringify(json).replace(/^\{/, `{"__proto__":{"__dh_polluted":true},"x":"${payload}",`), ...variants.map((v) => JSON.stringify(v))];
    const outcomes = raw.map((text) => {
      try {
        decodeModel({ jsonFile: "m.model.json", binFile: "m.weights.bin" }, text, bin, { expectedKind: "harness" });
        return "decoded (inert)";
      } catch (err) {
        expect(err).toBeInstanceOf(ModelFileError);
        return "rejected";
      }
    });
    expect(g.__dh_pwned).toBeUndefined();
    expect(({} as Record<string, unknown>).__dh_polluted).toBeUndefined();
    expect(outcomes).toHaveLength(4);
  });
});

describe("launch include errors", () => {
  it("a missing included file is reported at the <include> line of the including file", () => {
    const root = mkdtempSync(join(tmpdir(), "dh-inc-"));
    try {
      writeFileSync(join(root, "package.xml"), '<package format="3"><name>drone_harness</name></package>');
      mkdirSync(join(root, "launch"));
      writeFileSync(join(root, "launch", "top.launch.xml"), '<launch>\n  <include file="$(find-pkg-share drone_harness)/launch/missing.launch.xml"/>\n</launch>\n');
      expect(() => loadLaunchFile(join(root, "launch", "top.launch.xml"), { packageRoot: root, env: {} })).toThrow(
        new RegExp(`^launch/top\\.launch\\.xml:2: <include> attribute "file": ".*/launch/missing\\.launch\\.xml": cannot read launch file: .*ENOENT`),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
