/**
 * Regression replay in lock-step: the recorded input topics of a bag are published into a graph
 * one message at a time (each preceded by /clock at its log time, so nodes on sim time see the
 * recorded time), the graph is run until idle after each, and the outputs the nodes publish on
 * the compared topics are checked, message by message, against the outputs recorded in the bag.
 *
 * With `batchByLogTime`, all input messages that share one log time are published before the
 * graph is settled, as a lock-step simulator publishes one tick's messages together (nodes/sim.ts
 * publishDue, then one spinUntilIdle): timers due at that instant then run after every message of
 * the instant, as they did when the bag was recorded, instead of between them.
 */
import type { RawTopicAccess } from "../ros/graph/raw";
import type { QoSProfile } from "../ros/graph/types";
import type { Bag } from "./BagReader";
import { compareMessageStreams, type CompareOptions, type CompareResult, type StreamMessage } from "./compareMessageStreams";
import { MessageDecoder } from "./MessageDecoder";
import { parseOfferedQosProfiles } from "./offeredQosProfiles";
import { encodeClock } from "./playBag";
import { BagError } from "./types";

/** A graph that can be driven in lock-step (EmbeddedGraph). */
export type LockStepGraph = Pick<RawTopicAccess, "publishRaw" | "subscribeRaw"> & { spinUntilIdle(): number };

export type ReplayOptions = CompareOptions & {
  /** Output topics whose recorded messages are the expectation. */
  compareTopics: readonly string[];
  /** Topics to play; default every bag topic that is not compared (and not /clock). */
  inputTopics?: readonly string[];
  /** Publish /clock before each input message; default true. */
  publishClock?: boolean;
  clockTopic?: string;
  /** Decodes what the nodes publish (typeName "pkg/msg/Name", CDR bytes). */
  decode: (typeName: string, bytes: Uint8Array) => unknown;
  /**
   * Settle once per log time instead of once per message (see the file comment); default false.
   * The /clock published before a batch carries its log time.
   */
  batchByLogTime?: boolean;
  /**
   * The bag topic that holds the recorded outputs of a compared topic, when it is not the topic
   * itself (e.g. {"/cmd_vel": "/off/cmd_vel"} for a second arm recorded in the same bag).
   */
  expectedTopics?: Readonly<Record<string, string>>;
  /** Lets asynchronous callbacks finish between messages; default: spin and yield until idle. */
  settle?: (graph: LockStepGraph) => Promise<void>;
};

export type ReplayResult = CompareResult & { played: number };

const yieldTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Spins, yields a macrotask turn (promise continuations of callbacks), repeats until nothing ran. */
export async function settleGraph(graph: LockStepGraph, maxTurns = 1000): Promise<void> {
  for (let i = 0; i < maxTurns; i++) {
    const ran = graph.spinUntilIdle();
    await yieldTurn();
    if (ran === 0 && graph.spinUntilIdle() === 0) return;
  }
  throw new Error(`replay: the graph is still busy after ${maxTurns} turns`);
}

export async function replayBag(bag: Bag, graph: LockStepGraph, options: ReplayOptions): Promise<ReplayResult> {
  if (options.compareTopics.length === 0) throw new RangeError("replay needs at least one topic to compare");
  const expectedTopics = options.expectedTopics ?? {};
  // Recorded topic -> the compared topic its messages are the expectation of.
  const expectationOf = new Map(options.compareTopics.map((t) => [expectedTopics[t] ?? t, t]));
  const batch = options.batchByLogTime ?? false;
  // By default every other topic is played, never a compared one (its recording may sit elsewhere).
  const notInputs = new Set(options.compareTopics);
  const clockTopic = options.clockTopic ?? "/clock";
  const publishClock = options.publishClock ?? true;
  const inputs = options.inputTopics === undefined ? undefined : new Set(options.inputTopics);
  const settle = options.settle ?? ((g: LockStepGraph) => settleGraph(g));
  const actual: StreamMessage[] = [];
  const expected: StreamMessage[] = [];
  const problems: string[] = [];
  const subs = options.compareTopics.map((topic) =>
    graph.subscribeRaw(topic, (bytes, typeName) => {
      try {
        actual.push({ topic, value: options.decode(typeName, bytes) });
      } catch (err) {
        problems.push(`${topic}: cannot decode a ${typeName} output: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
  const decoder = new MessageDecoder();
  const qos = new Map<string, QoSProfile | undefined>();
  let played = 0;
  let batchTimeNs: bigint | undefined;
  try {
    for await (const item of bag.items()) {
      if (item.type === "problem") throw new BagError(item.file, item.message);
      const m = item.message;
      const comparedAs = expectationOf.get(m.topic);
      if (comparedAs !== undefined) {
        expected.push({ topic: comparedAs, value: decoder.decode(m.channel, m.data) });
        continue;
      }
      const isInput = inputs === undefined ? !(publishClock && m.topic === clockTopic) && !notInputs.has(m.topic) : inputs.has(m.topic);
      if (!isInput) continue;
      if (!qos.has(m.topic)) {
        let profile: QoSProfile | undefined;
        try {
          profile = parseOfferedQosProfiles(m.channel.offeredQosProfiles)[0];
        } catch {
          profile = undefined;
        }
        qos.set(m.topic, profile);
      }
      if (batch) {
        if (batchTimeNs !== m.logTimeNs) {
          if (batchTimeNs !== undefined) await settle(graph);
          batchTimeNs = m.logTimeNs;
          if (publishClock) graph.publishRaw(clockTopic, "rosgraph_msgs/msg/Clock", encodeClock(m.logTimeNs));
        }
        graph.publishRaw(m.topic, m.channel.type, m.data, qos.get(m.topic));
        played++;
        continue;
      }
      if (publishClock) graph.publishRaw(clockTopic, "rosgraph_msgs/msg/Clock", encodeClock(m.logTimeNs));
      graph.publishRaw(m.topic, m.channel.type, m.data, qos.get(m.topic));
      played++;
      await settle(graph);
    }
    await settle(graph);
  } finally {
    for (const s of subs) s.destroy();
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const result = await compareMessageStreams(expected, actual, { ...options, topics: options.compareTopics });
  return { ...result, played };
}
