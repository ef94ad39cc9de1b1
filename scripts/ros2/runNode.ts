/**
 * Entry point of the ament executables (scripts/ros2/<exec>, installed into lib/drone_harness/):
 *   node dist/scripts/ros2/runNode.js <exec> [--ros-args -r __node:=... -p ... --params-file ...]
 * runs one node of the registry as its own process. The middleware is real ROS 2 through
 * rclnodejs unless DRONE_HARNESS_MIDDLEWARE=embedded (one node alone on an in-process graph,
 * useful only for trying a node; its graph is served on the introspection socket).
 */
import { join } from "node:path";
import { NODE_REGISTRY } from "../../nodes/index";
import { createGraph, EmbeddedGraph, type RosGraph } from "../../src/ros/graph";
import { GraphServer } from "../../src/ros/ipc/GraphServer";
import { introspectionDir, socketFileName } from "../../src/ros/ipc/socketDir";
import { launchIntrospection } from "../../src/ros/launch/launchIntrospection";
import { runNodeStandalone } from "../../src/ros/launch/standalone";

export async function main(argv: string[]): Promise<number> {
  const [exec, ...rest] = argv;
  const factory = exec === undefined ? undefined : NODE_REGISTRY[exec];
  if (exec === undefined || factory === undefined) {
    process.stderr.write(`runNode: unknown node executable "${exec ?? ""}" (known: ${Object.keys(NODE_REGISTRY).sort().join(", ") || "none"})\n`);
    return 2;
  }
  const middleware = process.env.DRONE_HARNESS_MIDDLEWARE === "embedded" ? "embedded" : "ros2";
  let server: GraphServer | undefined;
  const create = async (): Promise<RosGraph> => {
    const graph = await createGraph({ middleware });
    if (graph instanceof EmbeddedGraph) {
      graph.spin();
      server = new GraphServer(launchIntrospection(graph, (fqn) => graph.node(fqn), { pid: process.pid, launchFile: `runNode ${exec}`, startedAtMs: Date.now() }));
      await server.listen(join(introspectionDir(), socketFileName(process.pid)));
    }
    return graph;
  };
  try {
    return await runNodeStandalone(factory, rest, { createGraph: create, defaultName: exec });
  } finally {
    await server?.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`runNode: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
