/**
 * `drone-harness launch <file> --middleware dds`: each node in its own process (the real CLI,
 * bin/drone-harness.js, so `npm run build` must have run, as `npm test` does), the launch process
 * seeing them all through DDS discovery, and a second launch seeing the first one's topics.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NODE_REGISTRY } from "../../../nodes";
import type { EmbeddedGraph } from "../../../src/ros/graph";
import { runLaunch } from "../../../src/cli/runLaunch";
import { describeWithDds } from "./ddsTools";

const DOMAIN = "23";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when `probe` is true (checked every 20 ms). */
function until(probe: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (probe()) return resolve();
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 20);
    };
    tick();
  });
}

describeWithDds("launch --middleware dds across processes", false, () => {
  it("runs each node in its own process; the launch and a second launch see them over DDS", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dh-spread-"));
    const file = join(dir, "two.launch.xml");
    writeFileSync(file, '<launch>\n  <node pkg="drone_harness" exec="safety" name="safety"/>\n  <node pkg="drone_harness" exec="controller" name="controller"/>\n</launch>\n');
    const saved = process.env["ROS_DOMAIN_ID"];
    process.env["ROS_DOMAIN_ID"] = DOMAIN;
    const err: string[] = [];
    let release: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (release = resolve));
    let graph: EmbeddedGraph | undefined;
    const ready = new Promise<void>((resolve) => {
      void runLaunch([file, "--middleware", "dds", "--no-introspection"], { out: () => undefined, err: (t) => err.push(t) }, {
        registry: NODE_REGISTRY,
        until: () => stopped,
        onReady: (info) => {
          graph = info.graph;
          resolve();
        },
      }).then((code) => err.push(`[test] exit ${code}\n`));
    });
    try {
      await ready;
      const text = err.join("");
      const pids = [...text.matchAll(/\[launch\] node started: (\/\w+) pid (\d+)/g)].map((m) => ({ node: m[1], pid: Number(m[2]) }));
      expect(pids.map((p) => p.node).sort()).toEqual(["/controller", "/safety"]);
      for (const p of pids) expect(p.pid).not.toBe(process.pid);
      expect(new Set(pids.map((p) => p.pid)).size).toBe(2);
      expect(text).toContain("2 nodes in 2 processes");
      const g = graph as EmbeddedGraph;
      // The launch process holds no node; it sees both through discovery.
      await until(() => ["/controller", "/safety"].every((n) => g.nodeNames().includes(n)), "both nodes in discovery");
      await until(() => g.topicNamesAndTypes().some((t) => t.name === "/cmd_vel" && t.types.includes("geometry_msgs/msg/TwistStamped")), "/cmd_vel in discovery");

      // A second launch (one node, so it runs inside its launch process: this one) meets the first.
      const second = join(dir, "second.launch.xml");
      writeFileSync(second, '<launch>\n  <node pkg="drone_harness" exec="safety" name="safety_b"/>\n</launch>\n');
      let releaseSecond: () => void = () => undefined;
      const secondStopped = new Promise<void>((resolve) => (releaseSecond = resolve));
      let secondGraph: EmbeddedGraph | undefined;
      const secondExit = new Promise<number>((resolve) => {
        runLaunch([second, "--middleware=dds", "--no-introspection"], { out: () => undefined, err: () => undefined }, {
          registry: NODE_REGISTRY,
          until: () => secondStopped,
          onReady: (info) => {
            secondGraph = info.graph;
          },
        }).then(resolve, () => resolve(-1));
      });
      await until(() => secondGraph !== undefined, "the second launch");
      const g2 = secondGraph as EmbeddedGraph;
      await until(() => ["/controller", "/safety", "/safety_b"].every((n) => g2.nodeNames().includes(n)), "the first launch's nodes from the second");
      await until(() => g.nodeNames().includes("/safety_b"), "the second launch's node from the first");
      releaseSecond();
      expect(await secondExit).toBe(0);
      release();
      await until(() => text.length > 0 && err.join("").includes("[test] exit 0"), "the launch to exit");
      await until(() => pids.every((p) => !isAlive(p.pid)), "the node processes to exit", 5000);
    } finally {
      release();
      if (saved === undefined) delete process.env["ROS_DOMAIN_ID"];
      else process.env["ROS_DOMAIN_ID"] = saved;
    }
  }, 30_000);
});
