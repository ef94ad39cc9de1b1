import type { Clock, QoSProfile } from "./types";

/** A raw (CDR bytes) subscription of a tool: the bag recorder, the introspection server. */
export type RawSubscription = {
  readonly topic: string;
  /** Messages discarded because the keep_last queue was full. */
  droppedCount(): number;
  destroy(): void;
};

/**
 * Byte-level access for tools that do not know message types at compile time (rosbag2 record and
 * play, `topic echo`). Bytes are CDR with the 4-byte encapsulation header, as on the ROS 2 wire.
 */
export interface RawTopicAccess {
  /**
   * Every message on `topic`, any type, as CDR bytes with its type and receive time: by default
   * the wall time at publish; with `clock`, that clock's time when the callback runs (as
   * rosbag2's recorder stamps messages with its node clock, sim time under use_sim_time).
   */
  subscribeRaw(
    topic: string,
    callback: (bytes: Uint8Array, typeName: string, receiveTimeNs: bigint) => void,
    options?: { qos?: QoSProfile; clock?: Clock },
  ): RawSubscription;
  /** Publishes CDR bytes; typed subscribers get them decoded. */
  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos?: QoSProfile): void;
  topicNamesAndTypes(): Array<{ name: string; types: string[] }>;
}
