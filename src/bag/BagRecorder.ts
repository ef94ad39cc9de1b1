/**
 * The core of `bag record`: subscribes (raw CDR) to the chosen topics of a running graph and
 * writes every message to a BagWriter with its receive time as log time (rosbag2_transport
 * Recorder). With `all`, topics that appear later are picked up by polling the topic list.
 * The source is an interface that GraphClient (src/ros/ipc) and the embedded graph satisfy.
 */
import type { QoSProfile } from "../ros/graph/types";
import type { BagWriter } from "./BagWriter";
import { errorText } from "./MessageDecoder";
import { offeredQosProfilesYaml } from "./offeredQosProfiles";

/** A raw message as a graph tool receives it. */
export type RawTopicMessage = { bytes: Uint8Array; typeName: string | undefined; receiveTimeNs: bigint };

/** A topic listing entry; `publishers` (with their QoS) when the source reports them. */
export type SourceTopic = { name: string; types: string[]; publishers?: ReadonlyArray<{ qos: QoSProfile }> };

/** Where recorded messages come from (GraphClient's shape). */
export interface RawTopicSource {
  listTopics(): Promise<SourceTopic[]>;
  subscribeRaw(topic: string, callback: (message: RawTopicMessage) => void): Promise<{ unsubscribe(): Promise<void> }>;
}

export type BagRecorderOptions = {
  /** Record every topic (rosbag2 `-a`), including ones that appear later. */
  all?: boolean;
  /** Exact topic names to record (ignored with `all`). */
  topics?: readonly string[];
  /** ros2msg schema text of a type ("pkg/msg/Name"); throws when unknown. */
  schemaText: (type: string) => string;
  /**
   * offered_qos_profiles string of a topic. Default: the QoS of the topic's publishers from the
   * source's topic listing when the topic is first written (rosbag2_transport Recorder stores the
   * offered profiles of the publishers it found); "" when the listing has none, which rosbag2's
   * Player maps to its default QoS (rosbag2_transport player.cpp publisher_qos_for_topic).
   */
  offeredQos?: (topic: string, type: string) => string;
  /** Reports a message that could not be recorded (unknown type, write failure). */
  onProblem?: (message: string) => void;
};

export class BagRecorder {
  readonly #subs = new Map<string, { unsubscribe(): Promise<void> }>();
  readonly #declared = new Map<string, string>();
  readonly #problems = new Set<string>();
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;
  #received = 0;
  #written = 0;

  constructor(
    private readonly source: RawTopicSource,
    private readonly writer: BagWriter,
    private readonly options: BagRecorderOptions,
  ) {
    if (options.all !== true && (options.topics === undefined || options.topics.length === 0)) {
      throw new RangeError("BagRecorder needs `all` or at least one topic");
    }
  }

  get received(): number {
    return this.#received;
  }

  get written(): number {
    return this.#written;
  }

  /** Subscribes to the matching topics that exist now (and, for named topics, before they exist). */
  async refresh(): Promise<void> {
    if (this.#stopped) return;
    const wanted = new Set<string>(this.options.all === true ? [] : (this.options.topics ?? []));
    if (this.options.all === true) for (const t of await this.source.listTopics()) wanted.add(t.name);
    for (const topic of wanted) {
      if (this.#subs.has(topic)) continue;
      const sub = await this.source.subscribeRaw(topic, (m) => this.#onMessage(topic, m));
      this.#subs.set(topic, sub);
    }
  }

  /** The rosbag2 offered_qos_profiles of `topic`'s publishers as the source lists them now. */
  async #offeredFromListing(topic: string): Promise<string> {
    try {
      const entry = (await this.source.listTopics()).find((t) => t.name === topic);
      return offeredQosProfilesYaml((entry?.publishers ?? []).map((p) => p.qos));
    } catch (err) {
      this.#problem(`${topic}:qos`, `${topic}: publishers' QoS unknown (${errorText(err)}), offered_qos_profiles left empty`);
      return "";
    }
  }

  #problem(key: string, message: string): void {
    if (this.#problems.has(key)) return;
    this.#problems.add(key);
    this.options.onProblem?.(message);
  }

  #onMessage(topic: string, m: RawTopicMessage): void {
    if (this.#stopped) return;
    this.#received++;
    const type = m.typeName;
    if (type === undefined) {
      this.#problem(`${topic}:notype`, `${topic}: message without a type name, not recorded`);
      return;
    }
    // Writes are chained: McapWriter needs each call to finish before the next.
    this.#chain = this.#chain.then(async () => {
      try {
        const known = this.#declared.get(topic);
        if (known === undefined) {
          await this.writer.addTopic({
            topic,
            type,
            schemaText: this.options.schemaText(type),
            offeredQosProfiles: this.options.offeredQos?.(topic, type) ?? (await this.#offeredFromListing(topic)),
          });
          this.#declared.set(topic, type);
        } else if (known !== type) {
          this.#problem(`${topic}:type`, `${topic}: type changed from ${known} to ${type}, messages of ${type} not recorded`);
          return;
        }
        await this.writer.write(topic, m.receiveTimeNs, m.bytes);
        this.#written++;
      } catch (err) {
        this.#problem(`${topic}:write`, `${topic}: not recorded: ${errorText(err)}`);
      }
    });
  }

  /** Unsubscribes, writes what is pending and closes the bag. */
  async stop(): Promise<ReturnType<BagWriter["metadata"]>> {
    this.#stopped = true;
    for (const sub of this.#subs.values()) await sub.unsubscribe();
    this.#subs.clear();
    await this.#chain;
    return await this.writer.close();
  }
}
