/**
 * `drone-harness replay <bag> --launch <file> --compare <topics>`: regression replay. Starts the
 * launch file's nodes in this process on the embedded graph with use_sim_time:=true, plays the
 * bag's recorded input topics through them in lock-step (src/bag/replayBag.ts) and compares what
 * they publish on the compared topics with the outputs recorded in the bag, message by message
 * within the tolerances. Exit code 0 when they match, 1 with the first differences otherwise.
 */
import { Bag } from "../../bag/BagReader";
import { formatDifferences } from "../../bag/compareMessageStreams";
import { NodeBagFileSystem } from "../../bag/node/NodeBagFileSystem";
import { replayBag } from "../../bag/replayBag";
import { formatPlaySelection, selectPlayTopics } from "../../bag/selectPlayTopics";
import { summarizeBag } from "../../bag/summarizeBag";
import { BagError } from "../../bag/types";
import { EmbeddedGraph } from "../../ros/graph";
import { Launcher } from "../../ros/launch/Launcher";
import { LaunchFileError } from "../../ros/launch/LaunchFileError";
import { loadLaunchFile, resolveLaunchPath } from "../../ros/launch/loadLaunchFile";
import type { NodeRegistry } from "../../ros/launch/NodeFactory";
import { findPackageRoot } from "../../ros/launch/packageRoot";
import { defaultRegistry } from "../../ros/msgs";
import { parseParameterValue, type TypedParameterValue } from "../../ros/params";
import { SENSOR_INPUT_TOPICS } from "../../../sim/topics";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";

export const REPLAY_USAGE =
  "drone-harness replay <bag> --launch <file.launch.xml> --compare <topic>[,<topic>...] [--tolerance <abs>] [--rel-tolerance <rel>] " +
  "[--ignore <field>[,<field>...]] [--inputs <topic>[,<topic>...]] [--max-differences <n>] [--per-message] [name:=value ...]";

export type ReplayContext = {
  /** exec name -> factory (the CLI passes nodes/index.ts's NODE_REGISTRY). */
  registry: NodeRegistry;
  /** Package share directory (default: found from this file). */
  packageRoot?: string;
};

/**
 * metadata.yaml custom_data key with the global parameters (`<set_parameter>`) of the launch the
 * bag was recorded from, as "name:=value" words: what the nodes need to reproduce the recording
 * that the sensors do not carry (sim.launch.xml sets the simulator's ground altitude,
 * `use_first_fix_as_home:=false home_altitude_m:=488.0`; nodes.launch.xml alone takes the first
 * fix as the ground).
 */
export const LAUNCH_PARAMETERS_KEY = "launch_parameters";

function recordedLaunchParameters(bag: Bag): Record<string, TypedParameterValue> {
  const text = bag.metadata?.customData[LAUNCH_PARAMETERS_KEY];
  const out: Record<string, TypedParameterValue> = {};
  for (const word of (text ?? "").split(/\s+/).filter((w) => w !== "")) {
    const at = word.indexOf(":=");
    if (at <= 0) throw new BagError(bag.path, `custom_data ${LAUNCH_PARAMETERS_KEY}: "${word}" is not name:=value`);
    try {
      out[word.slice(0, at)] = parseParameterValue(word.slice(0, at), word.slice(at + 2));
    } catch (err) {
      throw new BagError(bag.path, `custom_data ${LAUNCH_PARAMETERS_KEY}: "${word}": ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return out;
}

const list = (v: string): string[] => v.split(",").map((s) => s.trim()).filter((s) => s !== "");

function nonNegative(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${name} ${v}: expected a number >= 0`);
  return n;
}

/** The parsed command line of `replay`. */
type ReplayArgs = {
  bagPath: string;
  launchFile: string;
  compare: string[];
  /** Input topics; undefined: chosen from the bag as `bag play` chooses them. */
  inputs: string[] | undefined;
  ignore: string[];
  abs: number;
  rel: number;
  maxDifferences: number;
  batchByLogTime: boolean;
  launchArgs: Record<string, string>;
};

function parseReplayArgs(args: string[]): ReplayArgs {
  let bagPath: string | undefined;
  let launchFile: string | undefined;
  let compare: string[] = [];
  let inputs: string[] | undefined;
  let ignore: string[] = [];
  let abs = 1e-6;
  let rel = 0;
  let maxDifferences = 10;
  // Inputs sharing one log time are published together, then the graph settles once: how the
  // lock-step simulator publishes a tick (src/bag/replayBag.ts batchByLogTime). --per-message
  // settles after every message instead.
  let batchByLogTime = true;
  const launchArgs: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--launch") launchFile = value();
    else if (a === "--compare") compare = list(value());
    else if (a === "--inputs") inputs = list(value());
    else if (a === "--ignore") ignore = list(value());
    else if (a === "--tolerance") abs = nonNegative(a, value());
    else if (a === "--rel-tolerance") rel = nonNegative(a, value());
    else if (a === "--max-differences") maxDifferences = Math.max(1, Math.floor(nonNegative(a, value())));
    else if (a === "--per-message") batchByLogTime = false;
    else if (a.startsWith("-")) throw new UsageError(`unknown option "${a}"`);
    else if (a.includes(":=")) launchArgs[a.slice(0, a.indexOf(":="))] = a.slice(a.indexOf(":=") + 2);
    else if (bagPath === undefined) bagPath = a;
    else throw new UsageError(`unexpected argument "${a}"`);
  }
  if (bagPath === undefined) throw new UsageError("missing the bag");
  if (launchFile === undefined) throw new UsageError("missing --launch <file>");
  if (compare.length === 0) throw new UsageError("missing --compare <topic>[,<topic>...]");
  return { bagPath, launchFile, compare, inputs, ignore, abs, rel, maxDifferences, batchByLogTime, launchArgs };
}

/** The error line and exit code 1 for an error of the `expected` class; anything else is rethrown. */
function failure(err: unknown, expected: abstract new (...args: never[]) => Error, io: CliIO): number {
  if (err instanceof expected) {
    io.err(`drone-harness replay: ${err.message}\n`);
    return 1;
  }
  throw err;
}

/**
 * The bag's inputs as `bag play` chooses them (src/bag/selectPlayTopics.ts): from a bag of this
 * package's launch the sensor topics only, never a recorded intermediate output (so a node that
 * did not start is not stood in for by its recording), never the recorded /clock (replayBag
 * publishes /clock at each input's log time). Undefined (after an error line) when none is left.
 */
async function defaultInputs(bag: Bag, graph: EmbeddedGraph, compare: readonly string[], io: CliIO): Promise<string[] | undefined> {
  const recorded = (await summarizeBag(new NodeBagFileSystem(), bag)).topics.map((t) => t.name);
  const selection = selectPlayTopics(
    recorded.filter((t) => !compare.includes(t)),
    { sensorTopics: SENSOR_INPUT_TOPICS, nodePublishers: (t) => graph.topicInfo(t).publishers.map((p) => p.node) },
  );
  io.err(`${formatPlaySelection(selection, "(--inputs <topic>[,<topic>...] chooses the inputs)").replace(/^playing/, "inputs:").replace(/^/gm, "replay: ")}\n`);
  if (selection.play.length === 0) {
    io.err(`drone-harness replay: no input topic to play from ${bag.path} (--inputs <topic>[,<topic>...] chooses them)\n`);
    return undefined;
  }
  return selection.play;
}

/** The summary line and the verdict: 0 when every compared topic matched, 1 otherwise or when one was never recorded. */
function reportReplay(result: Awaited<ReturnType<typeof replayBag>>, bag: Bag, nodes: number, a: ReplayArgs, io: CliIO): number {
  const counts = [...result.counts].map(([t, c]) => `${t} ${c.expected} recorded / ${c.actual} replayed`).join(", ");
  io.out(`replay ${bag.path}: ${result.played} input messages through ${nodes} nodes; ${counts}\n`);
  const empty = [...result.counts].filter(([, c]) => c.expected === 0).map(([t]) => t);
  if (empty.length > 0) {
    io.err(`drone-harness replay: the bag has no recorded messages on ${empty.join(", ")}: nothing to compare\n`);
    return 1;
  }
  if (result.equal) {
    io.out(`outputs match (abs tolerance ${a.abs}, rel tolerance ${a.rel})\n`);
    return 0;
  }
  io.out(`outputs differ; first differences:\n${formatDifferences(result)}\n`);
  return 1;
}

export async function runReplay(args: string[], io: CliIO, ctx: ReplayContext): Promise<number> {
  const a = parseReplayArgs(args);
  const msgs = defaultRegistry();
  let bag: Bag;
  try {
    bag = await Bag.open(new NodeBagFileSystem(), a.bagPath, {
      lookupSchema: (t) => {
        try {
          return msgs.ros2msgText(t);
        } catch {
          return undefined;
        }
      },
    });
  } catch (err) {
    return failure(err, BagError, io);
  }
  const packageRoot = ctx.packageRoot ?? findPackageRoot();
  let plan;
  try {
    plan = loadLaunchFile(resolveLaunchPath(packageRoot, a.launchFile), { packageRoot, arguments: { use_sim_time: "true", ...a.launchArgs } });
  } catch (err) {
    return failure(err, LaunchFileError, io);
  }
  let recordedParameters: Record<string, TypedParameterValue>;
  try {
    recordedParameters = recordedLaunchParameters(bag);
  } catch (err) {
    return failure(err, BagError, io);
  }
  if (Object.keys(recordedParameters).length > 0) {
    // As <set_parameter> at the top of the launch file: a node's own <param> still wins.
    for (const node of plan.nodes) node.parameters = { ...recordedParameters, ...node.parameters };
    io.err(`replay: the recorded launch's parameters (metadata.yaml custom_data ${LAUNCH_PARAMETERS_KEY}): ${bag.metadata?.customData[LAUNCH_PARAMETERS_KEY] ?? ""}\n`);
  }
  const graph = new EmbeddedGraph({ stderrLevel: "warn", writeLine: (line) => io.err(`${line}\n`) });
  const launcher = new Launcher({ graph, registry: ctx.registry, log: (line) => io.err(`${line}\n`) });
  try {
    await launcher.start(plan);
    const inputs = a.inputs ?? (await defaultInputs(bag, graph, a.compare, io));
    if (inputs === undefined) return 1;
    const result = await replayBag(bag, graph, {
      compareTopics: a.compare,
      inputTopics: inputs,
      absTolerance: a.abs,
      relTolerance: a.rel,
      ignoreFields: a.ignore,
      maxDifferences: a.maxDifferences,
      batchByLogTime: a.batchByLogTime,
      decode: (type, bytes) => msgs.deserialize(type, bytes),
    });
    return reportReplay(result, bag, plan.nodes.length, a, io);
  } catch (err) {
    return failure(err, BagError, io);
  } finally {
    await launcher.stop();
    await graph.shutdown();
  }
}

export const command: CliCommand = {
  usage: REPLAY_USAGE,
  run: async (args, io) => {
    // Loaded here, not at the top: the node registry pulls in TensorFlow.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NODE_REGISTRY } = require("../../../nodes/index") as typeof import("../../../nodes/index");
    return await runReplay(args, io, { registry: NODE_REGISTRY });
  },
};
