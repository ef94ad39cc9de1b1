/**
 * A running launch with one talker node (publishing /chatter) and its introspection socket, in a
 * fresh temporary directory: what `drone-harness bag record` connects to in the record tests.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph } from "../../src/ros/graph";
import { GraphServer } from "../../src/ros/ipc/GraphServer";
import { Launcher } from "../../src/ros/launch/Launcher";
import { launchIntrospection } from "../../src/ros/launch/launchIntrospection";
import { talker } from "../ros/launch/testNodes";

export type TalkerLaunch = { dir: string; socket: string; stop: () => Promise<void> };

export async function startTalkerLaunch(prefix: string): Promise<TalkerLaunch> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  graph.spin();
  const launcher = new Launcher({ graph, registry: { talker }, log: () => undefined });
  await launcher.start({
    nodes: [
      {
        package: "drone_harness",
        executable: "talker",
        name: "talker",
        namespace: "/",
        fullyQualifiedName: "/talker",
        parameters: {},
        remappings: [],
        respawn: false,
        respawnDelaySec: 0,
        output: "screen",
        args: [],
        source: { file: "t.launch.xml", line: 1 },
      },
    ],
    skipped: [],
    arguments: [],
    warnings: [],
  });
  const server = new GraphServer(launchIntrospection(graph, (f) => launcher.node(f), { pid: process.pid, launchFile: "t.launch.xml", startedAtMs: 1 }));
  const socket = join(dir, "sockets", "launch-1.sock");
  await server.listen(socket);
  return {
    dir,
    socket,
    stop: async () => {
      await server.close();
      await launcher.stop();
      await graph.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

