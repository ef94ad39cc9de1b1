import { readFileSync } from "node:fs";
import type { LogLevel, RosGraph } from "../graph/types";
import { parametersForNode, parseParameterFile, toOverrides, type TypedParameters } from "../params";
import { activateIfLifecycle, type LaunchedNode, type NodeFactory, type NodeFactoryOptions } from "./NodeFactory";
import { parseRosArgs, type RosArgs } from "./RosArgs";

/** Joins a namespace and a node name into "/ns/name". */
export function fullyQualifiedName(namespace: string, name: string): string {
  return namespace === "/" ? `/${name}` : `${namespace}/${name}`;
}

/**
 * Resolves a node's `--ros-args` into factory options, in rcl's precedence: parameter files in
 * order (each as parametersForNode gives them), then `-p` values; rules prefixed with another
 * node's name are ignored.
 */
export function nodeOptionsFromRosArgs(
  args: RosArgs,
  defaults: { name: string; namespace?: string },
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): NodeFactoryOptions {
  const name = args.nodeName ?? defaults.name;
  const namespace = args.namespace ?? defaults.namespace ?? "/";
  const fqn = fullyQualifiedName(namespace, name);
  const params: TypedParameters = new Map();
  for (const path of args.paramsFiles) {
    for (const [k, v] of parametersForNode(parseParameterFile(readFile(path), path), fqn)) params.set(k, v);
  }
  for (const p of args.parameters) if (p.node === undefined || p.node === name) params.set(p.name, p.value);
  const remappings: Record<string, string> = {};
  for (const r of args.remappings) if (r.node === undefined || r.node === name) remappings[r.from] = r.to;
  return { name, namespace, parameterOverrides: toOverrides(params), remappings };
}

export type StandaloneOptions = {
  /** Creates the graph the node joins (the rclnodejs adapter on ROS 2, or the embedded graph). */
  createGraph: () => RosGraph | Promise<RosGraph>;
  /** Node name when no `-r __node:=` is given. */
  defaultName: string;
  /** Resolves when the process should stop; default: the first SIGINT or SIGTERM. */
  untilShutdown?: Promise<void>;
  readFile?: (path: string) => string;
  log?: (line: string) => void;
};

/** Resolves on the first SIGINT or SIGTERM (then removes both handlers). */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const handler = (): void => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
      resolve();
    };
    process.on("SIGINT", handler);
    process.on("SIGTERM", handler);
  });
}

/**
 * Runs one node as its own process (`ros2 run drone_harness <exec> --ros-args ...`): parses argv as
 * rcl does, creates the node from `factory`, configures and activates it if it is a lifecycle node,
 * waits for shutdown, then stops the node and the graph. Returns the process exit code.
 */
export async function runNodeStandalone(factory: NodeFactory, argv: readonly string[], options: StandaloneOptions): Promise<number> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rosArgs = parseRosArgs(argv);
  const nodeOptions = nodeOptionsFromRosArgs(rosArgs, { name: options.defaultName }, options.readFile);
  const graph = await options.createGraph();
  let launched: LaunchedNode | undefined;
  try {
    launched = await factory(graph, nodeOptions);
    // --log-level LEVEL, or --log-level <node name>:=LEVEL for this node ("unset" keeps the default).
    for (const l of rosArgs.logLevels) {
      if (l.level === "unset" || (l.logger !== undefined && l.logger !== nodeOptions.name)) continue;
      launched.node.getLogger().setLevel(l.level as LogLevel);
    }
    await activateIfLifecycle(launched);
    log(`[INFO] [${launched.node.fullyQualifiedName}]: running (Ctrl-C to stop)`);
    await (options.untilShutdown ?? untilSignal());
    return 0;
  } catch (err) {
    log(`[FATAL] [${fullyQualifiedName(nodeOptions.namespace, nodeOptions.name)}]: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    if (launched !== undefined) await launched.stop();
    await graph.shutdown();
  }
}
