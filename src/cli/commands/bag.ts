/**
 * `drone-harness bag <info|recover|record|play>`: rosbag2 bags from the command line, shaped like
 * `ros2 bag` (ros2/rosbag2 ros2bag/verb/*.py). The work is done by src/bag; this file parses
 * arguments and wires files (NodeBagFileSystem) and the running launch (GraphClient).
 */
import * as path from "node:path";
import { Bag, sniffStorage } from "../../bag/BagReader";
import { BagRecorder } from "../../bag/BagRecorder";
import { BagWriter, DB3_MIN_SPLIT_BYTES } from "../../bag/BagWriter";
import { formatBagInfo } from "../../bag/formatBagInfo";
import { loadDecompressHandlers } from "../../bag/mcap";
import { NodeBagFileSystem } from "../../bag/node/NodeBagFileSystem";
import { recoverMcap } from "../../bag/recoverMcap";
import { bagSizeBytes, recordedTopicNames, summarizeBag } from "../../bag/summarizeBag";
import { BagError } from "../../bag/types";
import { zstdChunkCompressor } from "../../bag/zstdChunkCompressor";
import { playBag, type PlayBagOptions, type RawPublishTarget } from "../../bag/playBag";
import { choosePlayTopic, chosenIn, formatPlaySelection, NOT_IN_TOPICS, selectPlayTopics, type PlayTopicRules } from "../../bag/selectPlayTopics";
import { timerPlayClock, type PlayResult } from "../../bag/PlayScheduler";
import { EmbeddedGraph } from "../../ros/graph";
import { GraphClient } from "../../ros/ipc/GraphClient";
import { Launcher } from "../../ros/launch/Launcher";
import { LaunchFileError } from "../../ros/launch/LaunchFileError";
import { loadLaunchFile, resolveLaunchPath } from "../../ros/launch/loadLaunchFile";
import type { NodeRegistry } from "../../ros/launch/NodeFactory";
import { findPackageRoot } from "../../ros/launch/packageRoot";
import { defaultRegistry } from "../../ros/msgs";
import { SENSOR_INPUT_TOPICS } from "../../../sim/topics";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";
import { FROM_IMAGES_FLAGS, FROM_IMAGES_USAGE, fromImages } from "./bagFromImages";

const USAGE = [
  "bag info <bag>",
  "bag recover <file.mcap> [-o <out.mcap>]",
  "bag record -o <dir> (-a | <topic>...) [-s|--storage mcap|sqlite3] [--storage-preset-profile none|resilient] [--max-bag-size <bytes>] [--max-bag-duration <s>] [--compression zstd|none] [--duration <s>] [--socket <path>]",
  "bag play <bag> [--socket <path>] [--rate <R>] [--loop] [--clock [<Hz>]] [--topics <topic>... | --all-topics] [--start-offset <s>]",
  "bag play <bag> --launch <file.launch.xml> [--rate <R>] [--loop] [--clock [<Hz>]] [--topics <topic>... | --all-topics] [--start-offset <s>] [name:=value ...]",
  "  (default: every recorded topic except the recorded /clock and the topics the running nodes publish)",
  FROM_IMAGES_USAGE,
].join("\n       ");

/** Schema text from the message registry (ros2jazzy + msgs/), for .db3 bags that carry none. */
function registryLookup(type: string): string | undefined {
  try {
    return defaultRegistry().ros2msgText(type);
  } catch {
    return undefined;
  }
}

type Parsed = { positional: string[]; flags: Map<string, string[]> };

/** Splits args into positionals and `--flag [values...]` groups (values run until the next flag). */
function parseArgs(args: string[], valued: Set<string>, multi: Set<string>): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a.startsWith("-") && a.length > 1 && Number.isNaN(Number(a))) {
      const values: string[] = [];
      if (multi.has(a)) {
        while (i + 1 < args.length && !(args[i + 1] ?? "").startsWith("-")) values.push(args[++i] ?? "");
      } else if (valued.has(a)) {
        const v = args[i + 1];
        if (v === undefined) throw new UsageError(`${a} needs a value`);
        values.push(v);
        i++;
      }
      flags.set(a, values);
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

function numberFlag(p: Parsed, name: string, min: number, fallback: number): number {
  const v = p.flags.get(name)?.[0];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${name} ${v}: expected a number >= ${min}`);
  return n;
}

async function info(args: string[], io: CliIO): Promise<number> {
  const p = parseArgs(args, new Set(), new Set());
  const target = p.positional[0];
  if (target === undefined || p.positional.length > 1) throw new UsageError("bag info takes one bag (directory or file)");
  const fs = new NodeBagFileSystem();
  const bag = await Bag.open(fs, target, { lookupSchema: registryLookup });
  const md = await summarizeBag(fs, bag);
  io.out(formatBagInfo(md, { bagSizeBytes: await bagSizeBytes(fs, bag) }));
  return 0;
}

async function recover(args: string[], io: CliIO): Promise<number> {
  const p = parseArgs(args, new Set(["-o", "--output"]), new Set());
  const input = p.positional[0];
  if (input === undefined || p.positional.length > 1) throw new UsageError("bag recover takes one .mcap file");
  const output = p.flags.get("-o")?.[0] ?? p.flags.get("--output")?.[0] ?? input.replace(/(\.mcap)?$/, ".recovered.mcap");
  if (path.resolve(output) === path.resolve(input)) throw new UsageError("the output must differ from the input");
  const fs = new NodeBagFileSystem();
  if ((await fs.stat(input)) !== "file") throw new BagError(input, "no such file");
  // Refuse before creating anything: only an MCAP file can be rebuilt (a .db3 keeps its committed
  // transactions and is read as it is), and the output never replaces a file (issue 16 items 3, 9).
  if ((await sniffStorage(fs, input)) === "sqlite3") {
    throw new BagError(input, "is a SQLite 3 (.db3) file: bag recover rebuilds MCAP files only (`bag info` / `bag play` read a .db3 as it is)");
  }
  if (await fs.sameFile(input, output)) throw new BagError(output, `is the input ${input} (same device and inode): refusing to overwrite it`);
  if ((await fs.stat(output)) !== undefined) throw new BagError(output, "exists: refusing to overwrite it (choose another -o)");
  const src = await fs.openRead(input);
  let dst;
  try {
    dst = await fs.openWrite(output);
  } catch (err) {
    await src.close();
    throw new BagError(output, `cannot create: ${err instanceof Error ? err.message : String(err)}`);
  }
  let result;
  try {
    result = await recoverMcap(src, dst, { decompressHandlers: await loadDecompressHandlers(), compressChunk: await zstdChunkCompressor() });
  } finally {
    await src.close();
    await dst.close();
  }
  if (result.messages === 0 && !result.complete) {
    // Nothing was rebuilt: the file this command created holds no message, so it goes.
    await fs.removeFile(output);
    throw new BagError(input, `no complete message to recover (${result.problem ?? "no footer"}); nothing written`);
  }
  io.out(`${input}: recovered ${result.messages} messages from ${result.chunks} complete chunks into ${output}\n`);
  io.out(result.complete ? "the input was complete (valid footer); nothing was lost\n" : `the input ended early: ${result.problem ?? ""}\n`);
  return 0;
}

/**
 * The abort of a play: SIGINT/SIGTERM, or `stop` when the caller owns the signals (tests, an
 * embedding program). `dispose` removes whichever listeners were added.
 */
function playAbort(stop: AbortSignal | undefined): { abort: AbortController; dispose: () => void } {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  if (stop === undefined) {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  } else {
    stop.addEventListener("abort", onSignal);
  }
  return {
    abort,
    dispose: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      stop?.removeEventListener("abort", onSignal);
    },
  };
}

/** Resolves on SIGINT/SIGTERM or after `seconds` (when given). */
function untilStopped(seconds: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      if (timer !== undefined) clearTimeout(timer);
      resolve();
    };
    const timer = seconds === undefined ? undefined : setTimeout(done, seconds * 1000);
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}

async function record(args: string[], io: CliIO): Promise<number> {
  const p = parseArgs(
    args,
    new Set(["-o", "--output", "-s", "--storage", "--storage-preset-profile", "--max-bag-size", "--max-bag-duration", "--compression", "--duration", "--socket"]),
    new Set(),
  );
  const out = p.flags.get("-o")?.[0] ?? p.flags.get("--output")?.[0];
  if (out === undefined) throw new UsageError("bag record needs -o <dir>");
  const all = p.flags.has("-a") || p.flags.has("--all");
  if (!all && p.positional.length === 0) throw new UsageError("bag record needs -a or at least one topic");
  // ros2 bag record -s/--storage (rosbag2 ros2bag/verb/record.py); our default is mcap, as Iron's.
  const storage = p.flags.get("--storage")?.[0] ?? p.flags.get("-s")?.[0] ?? "mcap";
  if (storage !== "mcap" && storage !== "sqlite3") throw new UsageError(`--storage ${storage}: expected mcap or sqlite3`);
  const preset = p.flags.get("--storage-preset-profile")?.[0];
  if (preset !== undefined && preset !== "none" && preset !== "resilient") {
    throw new UsageError(`--storage-preset-profile ${preset}: expected none or resilient`);
  }
  if (preset !== undefined && storage !== "sqlite3") throw new UsageError("--storage-preset-profile applies to --storage sqlite3 only");
  const compressionFlag = p.flags.get("--compression")?.[0];
  const compression = compressionFlag ?? (storage === "sqlite3" ? "none" : "zstd");
  if (compression !== "zstd" && compression !== "none") throw new UsageError(`--compression ${compression}: expected zstd or none`);
  if (storage === "sqlite3" && compression === "zstd") {
    throw new UsageError("--compression zstd is MCAP chunk compression; --storage sqlite3 stores messages uncompressed (expected none)");
  }
  const maxBagSize = numberFlag(p, "--max-bag-size", 0, 0);
  if (storage === "sqlite3" && maxBagSize > 0 && maxBagSize < DB3_MIN_SPLIT_BYTES) {
    throw new UsageError(`--max-bag-size ${maxBagSize}: below the sqlite3 minimum split size, expected 0 or >= ${DB3_MIN_SPLIT_BYTES}`);
  }
  const duration = p.flags.has("--duration") ? numberFlag(p, "--duration", 0, 0) : undefined;
  const socketPath = p.flags.get("--socket")?.[0];
  let client: GraphClient;
  try {
    client = await GraphClient.connect(socketPath === undefined ? {} : { socketPath });
  } catch (err) {
    io.err(`drone-harness bag record: ${err instanceof Error ? err.message : String(err)} (start one with \`drone-harness launch <file>\`)\n`);
    return 1;
  }
  let writer: BagWriter;
  try {
    writer = await BagWriter.create({
      fs: new NodeBagFileSystem(),
      directory: out,
      storage,
      ...(preset === undefined ? {} : { storagePreset: preset }),
      compression,
      maxBagSizeBytes: maxBagSize,
      maxBagDurationNs: BigInt(Math.round(numberFlag(p, "--max-bag-duration", 0, 0) * 1e9)),
    });
  } catch (err) {
    client.close();
    throw err;
  }
  const registry = defaultRegistry();
  const recorder = new BagRecorder(client, writer, {
    all,
    topics: p.positional,
    schemaText: (t) => registry.ros2msgText(t),
    onProblem: (m) => io.err(`bag record: ${m}\n`),
  });
  await recorder.refresh();
  io.out(`recording ${all ? "all topics" : p.positional.join(" ")} from ${client.socketPath} into ${out} (${storage}; Ctrl-C to stop)\n`);
  // -a: pick up topics that appear later, like rosbag2's topic polling (default 100 ms).
  const poll = all ? setInterval(() => void recorder.refresh().catch(() => undefined), 100) : undefined;
  let lost = false;
  client.onClose(() => {
    lost = true;
  });
  await Promise.race([untilStopped(duration), new Promise<void>((resolve) => client.onClose(resolve))]);
  if (poll !== undefined) clearInterval(poll);
  // Read before this command closes the connection itself (which also fires onClose).
  const launchWentAway = lost;
  const md = await recorder.stop().finally(() => client.close());
  io.out(`wrote ${md.messageCount} messages on ${md.topics.length} topics to ${md.relativeFilePaths.length} file(s) in ${out}${launchWentAway ? " (the launch went away)" : ""}\n`);
  return 0;
}

export type BagPlayContext = {
  /** exec name -> factory for `--launch` (the CLI passes nodes/index.ts's NODE_REGISTRY). */
  registry: () => NodeRegistry;
  /** Package share directory (default: found from this file). */
  packageRoot?: string;
  /** Stops playback early (default: SIGINT or SIGTERM). */
  stop?: AbortSignal;
  /** Where to look for a running launch without --launch (default introspectionDir()). */
  socketDir?: string;
};

/**
 * `bag play <bag> --launch <file>`: starts the launch file's nodes in this process (embedded graph,
 * real-time executor) and plays the bag into it at the recorded pace. Without --launch it
 * publishes into a running launch (the newest, or `--socket`) over its introspection socket.
 */
export async function runBagPlay(args: string[], io: CliIO, ctx: BagPlayContext): Promise<number> {
  const p = parseArgs(args, new Set(["--rate", "-r", "--start-offset", "--socket", "--launch"]), new Set(["--topics", "--clock"]));
  if (p.flags.has("--all-topics") && p.flags.has("--topics")) throw new UsageError("--all-topics and --topics exclude each other");
  const launchArgs: Record<string, string> = {};
  const positional: string[] = [];
  for (const a of p.positional) {
    if (a.includes(":=")) launchArgs[a.slice(0, a.indexOf(":="))] = a.slice(a.indexOf(":=") + 2);
    else positional.push(a);
  }
  const target = positional[0];
  if (target === undefined || positional.length > 1) throw new UsageError("bag play takes one bag");
  const rate = numberFlag(p, p.flags.has("-r") ? "-r" : "--rate", Number.MIN_VALUE, 1);
  const startOffsetNs = BigInt(Math.round(numberFlag(p, "--start-offset", 0, 0) * 1e9));
  const clockFlag = p.flags.get("--clock");
  // rosbag2: `--clock` alone publishes at 40 Hz (ros2bag play verb default).
  const hz = clockFlag === undefined ? undefined : clockFlag.length === 0 ? 40 : Number(clockFlag[0]);
  if (hz !== undefined && !(hz > 0 && Number.isFinite(hz))) throw new UsageError(`--clock ${clockFlag?.[0] ?? ""}: expected a frequency in Hz > 0`);
  const topicsFlag = p.flags.get("--topics");
  if (topicsFlag !== undefined && topicsFlag.length === 0) throw new UsageError("--topics needs at least one topic");
  const bag = await Bag.open(new NodeBagFileSystem(), target, { lookupSchema: registryLookup });
  const launchFile = p.flags.get("--launch")?.[0];
  // Problems of the bag (truncated, corrupt): playback stops there and the exit code is 1.
  const problems: string[] = [];
  const playOptions: CliPlayOptions = {
    rate,
    loop: p.flags.has("--loop") || p.flags.has("-l"),
    startOffsetNs,
    clockPeriodNs: hz === undefined ? undefined : BigInt(Math.round(1e9 / hz)),
    rules: { ...(topicsFlag === undefined ? {} : { topics: topicsFlag }), all: p.flags.has("--all-topics"), sensorTopics: SENSOR_INPUT_TOPICS },
    recordedTopics: await recordedTopicNames(new NodeBagFileSystem(), bag),
    onProblem: (m: string) => {
      problems.push(m);
      io.err(`bag play: ${m}\n`);
    },
  };
  if (launchFile === undefined) {
    if (Object.keys(launchArgs).length > 0) throw new UsageError(`launch arguments (${Object.keys(launchArgs).join(", ")}:=...) need --launch <file>`);
    return await playIntoRunningLaunch(bag, p.flags.get("--socket")?.[0], playOptions, problems, io, ctx);
  }
  return await playIntoLaunchFile(bag, { file: launchFile, args: launchArgs }, playOptions, problems, io, ctx);
}

/** What both `bag play` modes pass to playSelected. */
type CliPlayOptions = Omit<PlayBagOptions, "signal" | "select" | "onSkip" | "topics"> & {
  rules: Omit<PlayTopicRules, "nodePublishers">;
  /** The bag's topics when known before playing (metadata.yaml or an MCAP summary). */
  recordedTopics: string[] | undefined;
};

const PLAY_HINT = "(--all-topics plays every recorded topic, --topics <topic>... exactly those)";

/**
 * Plays the topics the rules select (selectPlayTopics.ts: by default not the recorded clock and
 * not what a running node publishes), after saying which; the same for `--launch` and a running
 * launch. Undefined (after an error line) when no recorded topic is left to play.
 */
async function playSelected(
  bag: Bag,
  target: RawPublishTarget,
  nodePublishers: (topic: string) => readonly string[],
  options: CliPlayOptions & { signal: AbortSignal },
  io: CliIO,
): Promise<PlayResult | undefined> {
  const rules: PlayTopicRules = { ...options.rules, nodePublishers };
  const told = new Set<string>();
  const selection = options.recordedTopics === undefined ? undefined : selectPlayTopics(options.recordedTopics, rules);
  // With --topics the user said what plays; otherwise say it before playing.
  if (selection !== undefined && rules.topics === undefined) {
    io.err(`${formatPlaySelection(selection, PLAY_HINT).replace(/^/gm, "bag play: ")}\n`);
    for (const s of selection.skipped) told.add(s.topic);
  }
  if (selection !== undefined && selection.play.length === 0) {
    io.err(`drone-harness bag play: nothing to play from ${bag.path}: no recorded topic is selected ${PLAY_HINT}\n`);
    return undefined;
  }
  return await playBag(bag, target, wallPlayClock(), {
    ...options,
    // Read only what plays when the topics are known up front.
    ...(selection === undefined ? {} : { topics: selection.play }),
    select: (topic) => (selection === undefined ? choosePlayTopic(topic, rules) : chosenIn(selection, topic)),
    onSkip: (topic, reason) => {
      if (!told.has(topic) && reason !== NOT_IN_TOPICS) io.err(`bag play: not playing ${topic}: ${reason}\n`);
    },
  });
}

/**
 * The summary line of `bag play`; exit 1 when the bag had a problem (truncated, corrupt), as
 * `replay` does: the messages before it were played, the rest of the bag was not.
 */
function reportPlayed(res: PlayResult, problems: readonly string[], how: { where: string; withClock: boolean }, io: CliIO): number {
  const { where, withClock } = how;
  const clockText = withClock ? ` and ${res.clockTicks} /clock ticks` : "";
  io.out(`played ${res.published} messages${clockText} ${where}${res.loops > 1 ? `, ${res.loops} loops` : ""})\n`);
  if (problems.length === 0) return 0;
  io.err(`drone-harness bag play: stopped at a damaged bag after ${res.published} of its messages: ${problems[0] ?? ""}\n`);
  return 1;
}

/** Wall-clock playback (process.hrtime and setTimeout). */
function wallPlayClock(): ReturnType<typeof timerPlayClock> {
  return timerPlayClock(
    () => process.hrtime.bigint(),
    (cb, ms) => void setTimeout(cb, ms),
  );
}

/**
 * `bag play <bag> --launch <file>`: the launch file's nodes in this process on an embedded graph
 * (real-time executor, use_sim_time:=true with --clock), the bag played into it.
 */
async function playIntoLaunchFile(
  bag: Bag,
  launch: { file: string; args: Record<string, string> },
  options: CliPlayOptions,
  problems: readonly string[],
  io: CliIO,
  ctx: BagPlayContext,
): Promise<number> {
  const withClock = options.clockPeriodNs !== undefined;
  const packageRoot = ctx.packageRoot ?? findPackageRoot();
  let plan;
  try {
    plan = loadLaunchFile(resolveLaunchPath(packageRoot, launch.file), {
      packageRoot,
      arguments: { ...(withClock ? { use_sim_time: "true" } : {}), ...launch.args },
    });
  } catch (err) {
    if (err instanceof LaunchFileError) {
      io.err(`drone-harness bag play: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const graph = new EmbeddedGraph({ writeLine: (line) => io.err(`${line}\n`) });
  const launcher = new Launcher({ graph, registry: ctx.registry(), log: (line) => io.err(`${line}\n`) });
  graph.spin();
  const { abort, dispose } = playAbort(ctx.stop);
  try {
    await launcher.start(plan);
    const target: RawPublishTarget = {
      publishRaw: (topic, type, bytes, qos) => graph.publishRaw(topic, type, bytes, qos),
      prepareType: (type, schemaText) => void graph.registry.addRos2MsgText(type, schemaText),
    };
    const nodePublishers = (topic: string): string[] => graph.topicInfo(topic).publishers.map((x) => x.node);
    const res = await playSelected(bag, target, nodePublishers, { ...options, signal: abort.signal }, io);
    if (res === undefined) return 1;
    // Deliver what is still queued before the nodes stop.
    graph.stop();
    graph.spinUntilIdle();
    return reportPlayed(res, problems, { where: `from ${bag.path} into ${plan.nodes.length} nodes (rate ${options.rate ?? 1}`, withClock }, io);
  } finally {
    dispose();
    await launcher.stop();
    await graph.shutdown();
  }
}

/**
 * `bag play <bag>` without --launch: publishes into a launch running in another process through
 * its introspection socket (GraphClient.publishRaw), as `ros2 bag play` publishes into a running
 * ROS 2 graph. The launch's nodes follow /clock when they run with use_sim_time.
 */
async function playIntoRunningLaunch(
  bag: Bag,
  socketPath: string | undefined,
  options: CliPlayOptions,
  problems: readonly string[],
  io: CliIO,
  ctx: BagPlayContext,
): Promise<number> {
  let client: GraphClient;
  try {
    client = await GraphClient.connect({ ...(socketPath === undefined ? {} : { socketPath }), ...(ctx.socketDir === undefined ? {} : { dir: ctx.socketDir }) });
  } catch (err) {
    io.err(
      `drone-harness bag play: ${err instanceof Error ? err.message : String(err)} (start one with \`drone-harness launch <file>\`, or use --launch <file> to run the nodes in this process)\n`,
    );
    return 1;
  }
  const { abort, dispose } = playAbort(ctx.stop);
  let lost = false;
  client.onClose(() => {
    lost = true;
    abort.abort();
  });
  try {
    // The same rules as --launch, on the publishers the launch reports now.
    const listing = new Map((await client.listTopics()).map((t) => [t.name, (t.publishers ?? []).map((x) => x.node)]));
    const target: RawPublishTarget = {
      publishRaw: (topic, type, bytes, qos) => client.publishRaw(topic, type, bytes, qos),
      prepareType: (type, schemaText) => client.registerType(type, schemaText),
    };
    const res = await playSelected(bag, target, (topic) => listing.get(topic) ?? [], { ...options, signal: abort.signal }, io);
    if (res === undefined) return 1;
    if (lost) {
      io.err(`drone-harness bag play: the launch at ${client.socketPath} went away after ${res.published} messages\n`);
      return 1;
    }
    return reportPlayed(res, problems, { where: `from ${bag.path} into the launch at ${client.socketPath} (rate ${options.rate ?? 1}`, withClock: options.clockPeriodNs !== undefined }, io);
  } catch (err) {
    if (lost) {
      io.err(`drone-harness bag play: the launch at ${client.socketPath} went away: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    throw err;
  } finally {
    dispose();
    client.close();
  }
}

async function play(args: string[], io: CliIO): Promise<number> {
  return await runBagPlay(args, io, {
    // Loaded only when needed: the node registry pulls in TensorFlow.js.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    registry: () => (require("../../../nodes/index") as typeof import("../../../nodes/index")).NODE_REGISTRY,
  });
}

export const command: CliCommand = {
  usage: USAGE,
  run: async (args, io) => {
    const [verb, ...rest] = args;
    try {
      const verbs: Record<string, (a: string[], o: CliIO) => Promise<number>> = {
        info,
        recover,
        record,
        play,
        "from-images": (a, o) => fromImages(parseArgs(a, new Set(FROM_IMAGES_FLAGS), new Set()), o),
      };
      const handler = verb === undefined ? undefined : verbs[verb];
      if (handler === undefined) throw new UsageError(verb === undefined ? "missing verb" : `unknown verb "${verb}"`);
      return await handler(rest, io);
    } catch (err) {
      if (err instanceof BagError) {
        io.err(`drone-harness bag ${verb ?? ""}: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  },
};
