import { join } from "node:path";
import { EmbeddedGraph, MIDDLEWARES, createGraph, type Middleware, type RosGraph } from "../ros/graph";
import { DdsGraph } from "../ros/dds/DdsGraph";
import { domainIdOf } from "../ros/ipc/GraphClient";
import { GraphServer } from "../ros/ipc/GraphServer";
import { introspectionDir, socketFileName } from "../ros/ipc/socketDir";
import { Launcher } from "../ros/launch/Launcher";
import { launchIntrospection } from "../ros/launch/launchIntrospection";
import { LaunchFileError } from "../ros/launch/LaunchFileError";
import { loadLaunchFile, resolveLaunchPath } from "../ros/launch/loadLaunchFile";
import type { LaunchPlan } from "../ros/launch/LaunchPlan";
import type { NodeRegistry } from "../ros/launch/NodeFactory";
import { findPackageRoot } from "../ros/launch/packageRoot";
import { untilSignal } from "../ros/launch/standalone";
import { NODE_STARTED, startSpread } from "../ros/launch/spreadLaunch";
import { FOXGLOVE_DEFAULT_PORT, FoxgloveBridge } from "../ros/foxglove/FoxgloveBridge";
import { UsageError, type CliIO } from "./CliCommand";

export const LAUNCH_USAGE =
  "drone-harness launch <file.launch.xml> [name:=value ...] [--print-plan] [--allow-absolute-includes] [--no-introspection] [--middleware embedded|ros2|dds] [--one-process] [--foxglove [port]] [--foxglove-host addr]";

export type LaunchContext = {
  /** Resolves when the launch should shut down (default: SIGINT or SIGTERM). */
  until?: () => Promise<void>;
  /** exec name -> factory (the CLI passes nodes/index.ts's NODE_REGISTRY). */
  registry: NodeRegistry;
  /** Package share directory (default: found from this file). */
  packageRoot?: string;
  /** Introspection socket directory (default introspectionDir()). */
  socketDir?: string;
  /** The CLI script that `--middleware dds` starts one process of per node (default: bin/drone-harness.js). */
  cliPath?: string;
  /** Called once every node has started and the socket listens (tests). */
  onReady?: (info: { socketPath: string | undefined; graph: EmbeddedGraph; launcher: Launcher; foxglove?: { host: string; port: number } }) => void;
};

/** The parsed command line of `launch`. */
type LaunchArgs = {
  file: string;
  launchArgs: Record<string, string>;
  printPlan: boolean;
  allowAbsoluteIncludes: boolean;
  introspection: boolean;
  middleware: Middleware;
  /** The one node this process runs (a child process of a spread launch). */
  onlyNode: string | undefined;
  oneProcess: boolean;
  foxglove: { port: number; host: string } | undefined;
  /** The arguments a spread launch passes on to each node process. */
  childArgs: string[];
};

function parseLaunchArgs(args: string[]): LaunchArgs {
  let file: string | undefined;
  const launchArgs: Record<string, string> = {};
  let printPlan = false;
  let allowAbsoluteIncludes = false;
  let introspection = true;
  let middleware: Middleware = "embedded";
  let onlyNode: string | undefined;
  let oneProcess = false;
  let foxglove: { port: number; host: string } | undefined;
  let foxgloveHost = "127.0.0.1";
  const childArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--middleware" || a.startsWith("--middleware=")) {
      const value = a === "--middleware" ? args[++i] : a.slice("--middleware=".length);
      const known = MIDDLEWARES.find((m) => m === value);
      if (known === undefined) throw new UsageError(`--middleware=${value ?? "(missing)"}: expected one of ${MIDDLEWARES.join(", ")}`);
      middleware = known;
      childArgs.push("--middleware", known);
    } else if (a === "--only-node") {
      onlyNode = args[++i];
      if (onlyNode === undefined) throw new UsageError("--only-node needs a fully qualified node name");
    } else if (a === "--foxglove") {
      const next = args[i + 1];
      const port = next !== undefined && /^\d+$/.test(next) ? Number(args[++i]) : FOXGLOVE_DEFAULT_PORT;
      if (port > 65535) throw new UsageError(`--foxglove ${port}: expected a port in 0..65535`);
      foxglove = { port, host: foxgloveHost };
    } else if (a === "--foxglove-host") {
      const host = args[++i];
      if (host === undefined) throw new UsageError("--foxglove-host needs an address (default 127.0.0.1)");
      foxgloveHost = host;
    } else if (a === "--one-process") oneProcess = true;
    else if (a === "--print-plan") printPlan = true;
    else if (a === "--allow-absolute-includes") {
      allowAbsoluteIncludes = true;
      childArgs.push(a);
    } else if (a === "--no-introspection") introspection = false;
    else if (a.startsWith("-")) throw new UsageError(`unknown option "${a}"`);
    else if (a.includes(":=")) {
      const i = a.indexOf(":=");
      const name = a.slice(0, i);
      if (name === "") throw new UsageError(`argument "${a}" has no name before ":="`);
      launchArgs[name] = a.slice(i + 2);
      childArgs.push(a);
    } else if (file === undefined) {
      file = a;
      childArgs.unshift(a);
    } else throw new UsageError(`unexpected argument "${a}" (launch arguments are name:=value)`);
  }
  if (file === undefined) throw new UsageError("missing the launch file");
  if (foxglove !== undefined) foxglove.host = foxgloveHost;
  return { file, launchArgs, printPlan, allowAbsoluteIncludes, introspection, middleware, onlyNode, oneProcess, foxglove, childArgs };
}

/** `--print-plan`: the evaluated nodes with their parameters and remappings, and what was skipped. */
function printLaunchPlan(plan: LaunchPlan, io: CliIO): void {
  for (const s of plan.skipped) io.out(`# skipped ${s.what} (${s.file}:${s.line}): ${s.reason}\n`);
  for (const n of plan.nodes) {
    io.out(`${n.fullyQualifiedName}  ${n.package}/${n.executable}${n.respawn ? `  respawn(${n.respawnDelaySec}s)` : ""}\n`);
    for (const [k, v] of Object.entries(n.parameters)) io.out(`  param ${k} = ${JSON.stringify(v.value)} (${v.type})\n`);
    for (const r of n.remappings) io.out(`  remap ${r.from} -> ${r.to}\n`);
  }
}

/** The launch's introspection server (what `topic`, `node`, `param` and `bag record` connect to), not yet listening. */
function introspectionServer(graph: EmbeddedGraph, launcher: Launcher, file: string, io: CliIO): GraphServer {
  return new GraphServer(
    launchIntrospection(graph, (fqn) => launcher.node(fqn), { pid: process.pid, launchFile: file, startedAtMs: Date.now(), domainId: domainIdOf() }),
    { log: (line) => io.err(`[launch] ${line}\n`) },
  );
}

/** Listens on this process's socket in the introspection directory. */
async function listenIntrospection(server: GraphServer, io: CliIO, ctx: LaunchContext): Promise<void> {
  const socketPath = join(ctx.socketDir ?? introspectionDir(), socketFileName(process.pid));
  await server.listen(socketPath);
  io.err(`[launch] introspection socket: ${socketPath}\n`);
}

/** The Foxglove WebSocket server on the graph; undefined (after an error line) when it cannot start. */
async function startFoxglove(graph: EmbeddedGraph, address: { port: number; host: string }, io: CliIO): Promise<FoxgloveBridge | undefined> {
  let bridge: FoxgloveBridge;
  try {
    bridge = await FoxgloveBridge.start(graph, address);
  } catch (err) {
    io.err(`drone-harness launch: ${err instanceof Error ? err.message : String(err)}\n`);
    return undefined;
  }
  io.err(`[launch] Foxglove WebSocket: ws://${bridge.host}:${bridge.port} (open it in Foxglove or Lichtblick: "Foxglove WebSocket" connection)\n`);
  return bridge;
}

/** `drone-harness launch`: evaluates the launch file and runs its drone_harness nodes in this process. */
export async function runLaunch(args: string[], io: CliIO, ctx: LaunchContext): Promise<number> {
  const { file, launchArgs, printPlan, allowAbsoluteIncludes, introspection, middleware, onlyNode, oneProcess, foxglove, childArgs } = parseLaunchArgs(args);
  const packageRoot = ctx.packageRoot ?? findPackageRoot();
  let plan;
  try {
    plan = loadLaunchFile(resolveLaunchPath(packageRoot, file), { packageRoot, arguments: launchArgs, allowAbsoluteIncludes });
  } catch (err) {
    if (err instanceof LaunchFileError) {
      io.err(`drone-harness launch: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  if (printPlan) {
    printLaunchPlan(plan, io);
    return 0;
  }
  const registry = ctx.registry;
  if (middleware === "ros2") return runOnRos2(plan, io, ctx);
  if (onlyNode !== undefined) {
    const name = onlyNode;
    plan = { ...plan, nodes: plan.nodes.filter((n) => n.fullyQualifiedName === name) };
    if (plan.nodes.length === 0) throw new UsageError(`--only-node ${name}: no such node in ${file}`);
  }
  const spread = middleware === "dds" && onlyNode === undefined && !oneProcess && plan.nodes.length > 1;
  // A node process of a spread launch ends with its parent: the parent holds our stdin open.
  const parentGone = onlyNode === undefined ? undefined : stdinClosed();
  const writeLine = (line: string): void => io.err(`${line}\n`);
  let graph: EmbeddedGraph;
  try {
    graph = middleware === "dds" ? new DdsGraph({ writeLine }) : new EmbeddedGraph({ writeLine });
  } catch (err) {
    io.err(`drone-harness launch: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  if (graph instanceof DdsGraph && onlyNode === undefined) io.err(`[launch] on DDS domain ${graph.participant.domainId} (Cyclone DDS; ROS 2 peers see rt/ topics)\n`);
  const launcher = new Launcher({ graph, registry, log: (line) => io.err(`${line}\n`) });
  graph.spin();
  let server: GraphServer | undefined;
  let processes: Awaited<ReturnType<typeof startSpread>> | undefined;
  let bridge: FoxgloveBridge | undefined;
  try {
    try {
      if (spread) {
        // This process keeps no node: it is the launch's introspection point (the DDS graph's
        // discovery shows every process's topics and nodes) and the children's supervisor.
        processes = await startSpread(plan, { cliPath: ctx.cliPath ?? join(packageRoot, "bin", "drone-harness.js"), args: childArgs, log: (line) => io.err(`${line}\n`) });
        const list = [...processes.pids].map(([n, pid]) => `${n} (pid ${pid})`).join(", ");
        io.err(`[launch] ${processes.pids.size} nodes in ${processes.pids.size} processes: ${list}; the OS spreads them over the cores\n`);
      } else {
        await launcher.start(plan);
      }
    } catch (err) {
      io.err(`drone-harness launch: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    if (plan.nodes.length === 0) io.err("[launch] no drone_harness nodes to start in this launch file\n");
    if (onlyNode !== undefined) io.err(`${NODE_STARTED} ${onlyNode} pid ${process.pid}\n`);
    if (foxglove !== undefined) {
      bridge = await startFoxglove(graph, foxglove, io);
      if (bridge === undefined) return 1;
    }
    if (introspection) {
      server = introspectionServer(graph, launcher, file, io);
      await listenIntrospection(server, io, ctx);
    }
    ctx.onReady?.({ socketPath: server?.socketPath, graph, launcher, foxglove: bridge === undefined ? undefined : { host: bridge.host, port: bridge.port } });
    await Promise.race([(ctx.until ?? untilSignal)(), ...(parentGone === undefined ? [] : [parentGone])]);
    io.err("[launch] shutting down\n");
    return 0;
  } finally {
    await bridge?.close();
    await processes?.stop();
    await launcher.stop();
    await server?.close();
    await graph.shutdown();
  }
}

/** Resolves when this process's stdin reaches its end (the pipe's writer, our parent, is gone). */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    process.stdin.resume();
  });
}

/**
 * `--middleware ros2`: the same nodes in this one process, on real ROS 2 through rclnodejs
 * (loaded only now). Introspection is then ROS 2's own (`ros2 topic list`, ...), so no socket.
 */
async function runOnRos2(plan: Parameters<Launcher["start"]>[0], io: CliIO, ctx: LaunchContext): Promise<number> {
  let graph: RosGraph;
  try {
    graph = await createGraph({ middleware: "ros2" });
  } catch (err) {
    io.err(`drone-harness launch: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const launcher = new Launcher({ graph, registry: ctx.registry, log: (line) => io.err(`${line}\n`) });
  try {
    try {
      await launcher.start(plan);
    } catch (err) {
      io.err(`drone-harness launch: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    io.err("[launch] running on ROS 2 (rclnodejs); inspect with ros2 topic/node/param\n");
    await (ctx.until ?? untilSignal)();
    io.err("[launch] shutting down\n");
    return 0;
  } finally {
    await launcher.stop();
    await graph.shutdown();
  }
}
