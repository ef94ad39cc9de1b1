import { defaultRegistry } from "../../ros/msgs";
import { absoluteName, connectOrReport, takeSocketOption, type IntrospectionContext } from "../../ros/ipc/cliSupport";
import { formatTopicInfo } from "../../ros/ipc/formatTopicInfo";
import type { GraphClient } from "../../ros/ipc/GraphClient";
import { HzStats } from "../../ros/ipc/HzStats";
import { messageToYaml } from "../../ros/ipc/messageToYaml";
import { untilSignal } from "../../ros/launch/standalone";
import { printedHelp } from "../args";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";

const USAGE = "drone-harness topic list [-t] | info <topic> [-v] | echo <topic> [--once] [--truncate-length N] | hz <topic> [--window N]  [--socket PATH] [--launch NAME]";

/** Waits for `until` or for the connection to close, whichever comes first. */
function untilDone(ctx: IntrospectionContext, onClose: (l: () => void) => void): Promise<void> {
  return Promise.race([(ctx.until ?? untilSignal)(), new Promise<void>((resolve) => onClose(resolve))]);
}

function intOption(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) throw new UsageError(`${name} must be an integer >= ${min}, got "${value ?? ""}"`);
  return n;
}

/** Messages the launch dropped for one of this client's subscriptions (0 when the stats op fails). */
async function droppedForSubscription(client: GraphClient, subscriptionId: number): Promise<number> {
  try {
    const s = (await client.stats()).subscriptions.find((x) => x.subscriptionId === subscriptionId);
    return s === undefined ? 0 : s.droppedSlowClient + s.droppedQueue;
  } catch {
    return 0;
  }
}

/** `topic echo`: each message as YAML followed by "---", until stopped (or the first with --once). */
async function echo(client: GraphClient, topic: string, opts: { once: boolean; truncate: number }, io: CliIO, ctx: IntrospectionContext): Promise<number> {
  const { once, truncate } = opts;
  const registry = defaultRegistry();
  let resolveOnce: () => void = () => undefined;
  const gotOne = new Promise<void>((resolve) => (resolveOnce = resolve));
  let printed = false;
  const sub = await client.subscribeRaw(topic, (m) => {
    if (once && printed) return;
    printed = true;
    if (m.typeName === undefined || !registry.has(m.typeName)) {
      io.out(`<${m.bytes.byteLength} bytes of ${m.typeName ?? "unknown type"}: no definition available>\n---\n`);
    } else {
      try {
        io.out(`${messageToYaml((t) => registry.definition(t), m.typeName, registry.deserialize(m.typeName, m.bytes), { truncateLength: truncate })}---\n`);
      } catch (err) {
        io.err(`cannot decode a ${m.typeName} message of ${m.bytes.byteLength} bytes: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
    if (once) resolveOnce();
  });
  await (once ? Promise.race([gotOne, untilDone(ctx, (l) => client.onClose(l))]) : untilDone(ctx, (l) => client.onClose(l)));
  await sub.unsubscribe().catch(() => undefined);
  return 0;
}

/** `topic hz`: the receive rate over the last `window` messages, every hzPeriodMs, until stopped. */
async function hz(client: GraphClient, topic: string, window: number, io: CliIO, ctx: IntrospectionContext): Promise<number> {
  const stats = new HzStats(window);
  const sub = await client.subscribeRaw(topic, (m) => stats.add(m.receiveTimeNs));
  let lastCount = 0;
  let reportedDrops = 0;
  const timer = setInterval(() => {
    const text = stats.count === lastCount ? undefined : stats.format();
    lastCount = stats.count;
    io.out(text === undefined ? "no new messages\n" : `${text}\n`);
    void droppedForSubscription(client, sub.subscriptionId).then((dropped) => {
      if (dropped > reportedDrops) io.out(`dropped ${dropped} messages in total (this client read too slowly or the launch's queue overflowed); the rate counts received messages only\n`);
      reportedDrops = Math.max(reportedDrops, dropped);
    });
  }, ctx.hzPeriodMs ?? 1000);
  try {
    await untilDone(ctx, (l) => client.onClose(l));
  } finally {
    clearInterval(timer);
  }
  await sub.unsubscribe().catch(() => undefined);
  return 0;
}

/** `drone-harness topic ...` against a running launch; output shaped like `ros2 topic`. */
export async function runTopic(argv: string[], io: CliIO, ctx: IntrospectionContext = {}): Promise<number> {
  // `topic --help` (or `topic list -h`): the usage on stdout, exit 0, as ros2 does.
  if (printedHelp(argv, USAGE, io.out)) return 0;
  const { rest, socketPath, launch } = takeSocketOption(argv);
  const [verb, ...args] = rest;
  if (verb !== "list" && verb !== "info" && verb !== "echo" && verb !== "hz") {
    throw new UsageError(verb === undefined ? "missing the verb (list, info, echo, hz)" : `unknown verb "${verb}"`);
  }
  let showTypes = false;
  let verbose = false;
  let once = false;
  let truncate = 128;
  let window = 10000;
  let topic: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (verb === "list" && (a === "-t" || a === "--show-types")) showTypes = true;
    else if (verb === "info" && (a === "-v" || a === "--verbose")) verbose = true;
    else if (verb === "echo" && a === "--once") once = true;
    else if (verb === "echo" && a === "--truncate-length") truncate = intOption(a, args[++i], 1);
    else if (verb === "hz" && (a === "--window" || a === "-w")) window = intOption(a, args[++i], 2);
    else if (a.startsWith("-")) throw new UsageError(`unknown option "${a}" for topic ${verb}`);
    else if (verb !== "list" && topic === undefined) topic = absoluteName(a);
    else throw new UsageError(`unexpected argument "${a}"`);
  }
  if (verb !== "list" && topic === undefined) throw new UsageError(`topic ${verb} needs a topic name`);
  const client = await connectOrReport(ctx, socketPath, io.err, launch);
  if (client === undefined) return 1;
  try {
    if (verb === "list") {
      const topics = (await client.listTopics()).sort((a, b) => a.name.localeCompare(b.name));
      for (const t of topics) io.out(showTypes ? `${t.name} [${t.types.join(", ")}]\n` : `${t.name}\n`);
      return 0;
    }
    if (verb === "info") {
      let info;
      try {
        info = await client.topicInfo(topic as string);
      } catch (err) {
        // ros2 topic info returns "Unknown topic '<name>'" (printed on stderr, exit 1).
        io.err(`${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
      }
      io.out(formatTopicInfo(info, { verbose }));
      return 0;
    }
    if (verb === "echo") return await echo(client, topic as string, { once, truncate }, io, ctx);
    return await hz(client, topic as string, window, io, ctx);
  } finally {
    client.close();
  }
}

export const command: CliCommand = { usage: USAGE, run: (args, io) => runTopic(args, io) };
