/**
 * A launch running in this process as `drone-harness launch` runs it (runLaunch, with its
 * introspection socket), for tests of the tools that attach to it (`bag play`, `bag record`).
 */
import * as path from "node:path";
import type { EmbeddedGraph } from "../../src/ros/graph";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { runLaunch } from "../../src/cli/runLaunch";

export type RunningLaunch = { socketPath: string; graph: EmbeddedGraph; stop: () => Promise<number> };

/** Starts `launchFile` (sockets under `socketDir`); resolves once it is ready, with a stop function. */
export async function startRunningLaunch(launchFile: string, registry: NodeRegistry, socketDir: string, log: (line: string) => void = () => undefined): Promise<RunningLaunch> {
  let stopLaunch: () => void = () => undefined;
  const until = new Promise<void>((r) => (stopLaunch = r));
  let ready: (r: { socketPath: string; graph: EmbeddedGraph }) => void = () => undefined;
  const started = new Promise<{ socketPath: string; graph: EmbeddedGraph }>((r) => (ready = r));
  const done = runLaunch([launchFile], { out: log, err: log }, {
    registry,
    packageRoot: path.resolve(__dirname, "../.."),
    socketDir,
    until: () => until,
    onReady: (info) => ready({ socketPath: info.socketPath ?? "", graph: info.graph }),
  });
  const { socketPath, graph } = await started;
  return { socketPath, graph, stop: async () => (stopLaunch(), await done) };
}
