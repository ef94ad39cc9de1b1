import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { LaunchPlan } from "./LaunchPlan";

/** The line a `--only-node` child prints once its node runs; the parent waits for it. */
export const NODE_STARTED = "[launch] node started:";

export type SpreadOptions = {
  /** The CLI script the children run (bin/drone-harness.js). */
  cliPath: string;
  /** The launch command's own arguments (file, name:=value, --middleware dds ...). */
  args: readonly string[];
  /** Each child's stdout and stderr lines. */
  log: (line: string) => void;
};

export type SpreadProcesses = {
  /** Fully qualified node name -> child pid. */
  readonly pids: ReadonlyMap<string, number>;
  /** SIGTERM to every child, then waits for them to exit. */
  stop(): Promise<void>;
};

/**
 * `launch --middleware dds`: one OS process per node of the plan, each a `drone-harness launch`
 * of the same file restricted with `--only-node` to one node, all meeting on the DDS domain. The
 * kernel's scheduler puts the processes on both cores (each Node.js process runs its callbacks on
 * one thread, so one process can never use more than one core for node work). Resolves when every
 * child has started its node; rejects (after stopping the others) if one exits before that.
 */
export async function startSpread(plan: LaunchPlan, options: SpreadOptions): Promise<SpreadProcesses> {
  const children = new Map<string, ChildProcess>();
  const stop = async (): Promise<void> => {
    const exits: Array<Promise<unknown>> = [];
    for (const child of children.values()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      exits.push(new Promise((resolve) => child.once("exit", resolve)));
      child.kill("SIGTERM");
    }
    await Promise.all(exits);
  };
  const started: Array<Promise<void>> = [];
  for (const node of plan.nodes) {
    const child = spawn(process.execPath, [options.cliPath, "launch", ...options.args, "--only-node", node.fullyQualifiedName, "--no-introspection"], {
      // stdin stays open while this process lives: the child stops when it closes (we died).
      stdio: ["pipe", "pipe", "pipe"],
      // Explicit, so ROS_DOMAIN_ID and CYCLONEDDS_URI as this process sees them reach the children.
      env: { ...process.env },
    });
    children.set(node.fullyQualifiedName, child);
    started.push(
      new Promise<void>((resolve, reject) => {
        for (const stream of [child.stdout, child.stderr]) {
          if (stream === null) continue;
          createInterface({ input: stream }).on("line", (line) => {
            if (line.startsWith(NODE_STARTED)) resolve();
            options.log(line);
          });
        }
        child.once("exit", (code, signal) => reject(new Error(`the process of node ${node.fullyQualifiedName} exited (${signal ?? String(code)}) before its node started`)));
      }),
    );
  }
  try {
    await Promise.all(started);
  } catch (error) {
    await stop();
    throw error;
  }
  const pids = new Map<string, number>();
  for (const [name, child] of children) pids.set(name, child.pid ?? -1);
  return { pids, stop };
}
