/**
 * `bag play` on a graph: the messages of a bag go out as raw CDR at their recorded pace
 * (PlayScheduler), each topic with the QoS its recorder offered (rosbag2 Player uses the
 * recorded offered_qos_profiles when they agree), and /clock as rosgraph_msgs/msg/Clock.
 * Recorded relative names go out as rosbag2's Player publishes them (selectPlayTopics.ts
 * playTopicName: "topic1" -> "/topic1"); a type the graph does not know is learnt from the
 * bag's schema first (RawPublishTarget.prepareType); what still cannot be published is skipped
 * with a warning (onSkip), the rest plays.
 */
import type { QoSProfile } from "../ros/graph/types";
import type { Bag } from "./BagReader";
import { parseOfferedQosProfiles } from "./offeredQosProfiles";
import { playMessages, type PlayClock, type PlayOptions, type PlayResult } from "./PlayScheduler";
import { errorText } from "./MessageDecoder";
import { choosePlayTopic, type PlayTopicChoice } from "./selectPlayTopics";
import { BagError, type BagMessage, type BagReadOptions } from "./types";

/**
 * Where played messages go: the embedded graph (RawTopicAccess, synchronous) or a running launch in
 * another process (GraphClient, which resolves once the launch has published; playback awaits it,
 * so messages keep their order and a slow launch slows playback instead of queueing without bound).
 */
export interface RawPublishTarget {
  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos?: QoSProfile): void | Promise<void>;
  /**
   * Called before the first message of each type: makes the type publishable (the graph learns a
   * type it does not know from the schema text the bag stores, see registerBagType), or throws
   * with the reason it cannot be; that type's topics are then skipped with a warning.
   */
  prepareType?(typeName: string, schemaText: string): void | Promise<void>;
}

export type PlayBagOptions = Omit<PlayOptions, "bagStartNs"> & {
  topics?: readonly string[];
  /** Topic for the clock; default "/clock". */
  clockTopic?: string;
  /** Reports a bag problem (the playback stops after the good messages). */
  onProblem?: (message: string) => void;
  /**
   * Whether a recorded topic is played and under which name (selectPlayTopics.ts
   * choosePlayTopic); default: every topic read, under playTopicName.
   */
  select?: (recordedTopic: string) => PlayTopicChoice;
  /** Reports a topic that is not played, with why (not selected, bad name, unknown type without schema). */
  onSkip?: (topic: string, reason: string) => void;
};

/**
 * CDR of rosgraph_msgs/msg/Clock {builtin_interfaces/Time clock}: the 4-byte little-endian CDR
 * encapsulation header (00 01 00 00), int32 sec, uint32 nanosec.
 */
export function encodeClock(bagTimeNs: bigint, out: Uint8Array = new Uint8Array(12)): Uint8Array {
  const view = new DataView(out.buffer, out.byteOffset, 12);
  view.setUint32(0, 0x00010000, false);
  view.setInt32(4, Number(bagTimeNs / 1_000_000_000n), true);
  view.setUint32(8, Number(bagTimeNs % 1_000_000_000n), true);
  return out;
}

function qosOf(message: BagMessage, cache: Map<string, QoSProfile | undefined>): QoSProfile | undefined {
  if (cache.has(message.topic)) return cache.get(message.topic);
  let qos: QoSProfile | undefined;
  try {
    const profiles = parseOfferedQosProfiles(message.channel.offeredQosProfiles);
    const first = profiles[0];
    if (first !== undefined && profiles.every((p) => JSON.stringify(p) === JSON.stringify(first))) qos = first;
  } catch {
    qos = undefined;
  }
  cache.set(message.topic, qos);
  return qos;
}

export async function playBag(bag: Bag, target: RawPublishTarget, clock: PlayClock, options: PlayBagOptions = {}): Promise<PlayResult> {
  const read: BagReadOptions = options.topics === undefined ? {} : { topics: options.topics };
  const qos = new Map<string, QoSProfile | undefined>();
  const clockTopic = options.clockTopic ?? "/clock";
  // Recorded topic -> the absolute name it is published under, or undefined when skipped.
  const names = new Map<string, string | undefined>();
  const types = new Map<string, string | undefined>();
  const select = options.select ?? ((topic: string): PlayTopicChoice => choosePlayTopic(topic, { all: true, nodePublishers: () => [] }));
  const skip = (topic: string, reason: string): undefined => {
    options.onSkip?.(topic, reason);
    return undefined;
  };
  /** At the first message of a topic: its choice and, for a new type, prepareType. */
  async function firstSight(m: BagMessage): Promise<string | undefined> {
    const choice = select(m.topic);
    let name = choice.play ? choice.name : skip(m.topic, choice.reason);
    if (name !== undefined && !types.has(m.channel.type)) {
      try {
        await target.prepareType?.(m.channel.type, m.channel.schemaText);
        types.set(m.channel.type, undefined);
      } catch (err) {
        types.set(m.channel.type, errorText(err));
      }
    }
    const typeProblem = types.get(m.channel.type);
    if (name !== undefined && typeProblem !== undefined) name = skip(m.topic, `cannot be published: ${typeProblem}`);
    names.set(m.topic, name);
    return name;
  }
  async function* source(): AsyncGenerator<BagMessage> {
    for await (const item of bag.items(read)) {
      if (item.type === "problem") {
        const err = new BagError(item.file, item.message);
        if (options.onProblem === undefined) throw err;
        options.onProblem(err.message);
        return;
      }
      // Synchronous after a topic's first message: playback adds no promise turn per message.
      const name = names.has(item.message.topic) ? names.get(item.message.topic) : await firstSight(item.message);
      if (name === undefined) continue;
      yield name === item.message.topic ? item.message : { ...item.message, topic: name };
    }
  }
  return await playMessages(
    source,
    clock,
    {
      publish: (m) => target.publishRaw(m.topic, m.channel.type, m.data, qosOf(m, qos)),
      publishClock: (t) => target.publishRaw(clockTopic, "rosgraph_msgs/msg/Clock", encodeClock(t)),
    },
    { ...options, bagStartNs: bag.metadata?.startingTimeNs },
  );
}
