/**
 * Shared records of the bag core. Times are bigint nanoseconds since the epoch (the unit of
 * rosbag2's `rcutils_time_point_value_t` and of MCAP log times).
 */

/** One topic of a bag: what rosbag2 calls `TopicMetadata` plus the schema it was written with. */
export type BagChannel = {
  topic: string;
  /** "pkg/msg/Name" */
  type: string;
  /** Full ros2msg text with dependencies (rosbag2 MCAP schema format); "" when unknown (db3). */
  schemaText: string;
  /** "ros2msg" for rosbag2; "" when the storage carries no schema. */
  schemaEncoding: string;
  /** Always "cdr" for rosbag2. */
  serializationFormat: string;
  /** The `offered_qos_profiles` YAML string as rosbag2 stores it. */
  offeredQosProfiles: string;
  /** REP-2011 type hash ("RIHS01_...") or "" when the recorder did not know it. */
  typeHash: string;
};

/** A serialized message as stored in a bag. */
export type RawBagMessage = {
  topic: string;
  logTimeNs: bigint;
  publishTimeNs: bigint;
  /** CDR bytes (with the 4-byte encapsulation header). */
  data: Uint8Array;
};

/** A message read from a bag, with the channel it belongs to. */
export type BagMessage = RawBagMessage & { channel: BagChannel; file: string };

/**
 * What a bag read yields: messages in log-time order, and a problem when a file cannot be read
 * further (Lichtblick `IteratorResult` style). Every message read before the problem is yielded.
 */
export type BagReadItem =
  | { type: "message"; message: BagMessage }
  | { type: "problem"; file: string; message: string };

/** Filters applied while reading (topics: exact names; times: inclusive, nanoseconds). */
export type BagReadOptions = {
  /** Only these topics; all when undefined. */
  topics?: readonly string[];
  /** Skip messages before this log time. */
  startNs?: bigint;
  /** Skip messages after this log time. */
  endNs?: bigint;
};

/** An error at the bag API boundary; names the file and the problem. */
export class BagError extends Error {
  override readonly name = "BagError";
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
