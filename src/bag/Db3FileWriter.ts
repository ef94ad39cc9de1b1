/**
 * Writes one rosbag2 sqlite3 (.db3) file, as rosbag2's sqlite3 storage plugin does when it
 * records (ros2/rosbag2 rosbag2_storage_sqlite3/src/rosbag2_storage_sqlite3/sqlite_storage.cpp):
 * the preset's pragmas, the schema-version-4 tables and index (db3Schema.ts), one `schema` row
 * (version, ROS distro), one `topics` row per topic, one `message_definitions` row per message
 * type (`create_topic`), one `messages` row per message with the receive time as `timestamp`
 * (`write_locked`), and on close the bag's metadata as YAML in the `metadata` table
 * (`update_metadata`).
 *
 * Messages are inserted in batched transactions (rosbag2 writes each cache flush in one
 * transaction, `write_messages`): a transaction is committed once it holds `batchBytes` of data
 * or spans `batchDurationNs` of log time, and on close, so a killed recording keeps every
 * committed batch and memory stays bounded by one batch.
 */
import type { BagTopic } from "./BagTopic";
import type { Db3Connection, Db3Statement } from "./BagStorage";
import {
  DB3_CREATE_STATEMENTS,
  DB3_INSERT_DEFINITION,
  DB3_INSERT_MESSAGE,
  DB3_INSERT_METADATA,
  DB3_INSERT_SCHEMA,
  DB3_INSERT_TOPIC,
  DB3_PRESET_PRAGMAS,
  DB3_ROW_OVERHEAD_BYTES,
  DB3_SCHEMA_VERSION,
  type Db3Preset,
} from "./db3Schema";

/** The largest `messages.timestamp` (a signed 64-bit sqlite INTEGER, rosbag2's int64 nanoseconds). */
const MAX_TIMESTAMP = (1n << 63n) - 1n;

export type Db3FileWriterOptions = {
  /** `schema.ros_distro` (rosbag2 stores $ROS_DISTRO). */
  rosDistro: string;
  preset: Db3Preset;
  /** Commit once the open transaction holds this many bytes of message data. */
  batchBytes: number;
  /** Commit once the open transaction spans this much log time. */
  batchDurationNs: bigint;
};

export class Db3FileWriter {
  readonly #topicIds = new Map<string, number>();
  readonly #definitions = new Set<string>();
  readonly #insertMessage: Db3Statement;
  readonly #insertTopic: Db3Statement;
  readonly #insertDefinition: Db3Statement;
  #inTransaction = false;
  #pendingBytes = 0;
  #pendingCount = 0;
  #transactionStartNs = 0n;
  #committedSize: number;

  private constructor(
    private readonly db: Db3Connection,
    private readonly options: Db3FileWriterOptions,
  ) {
    this.#insertMessage = db.prepare(DB3_INSERT_MESSAGE);
    this.#insertTopic = db.prepare(DB3_INSERT_TOPIC);
    this.#insertDefinition = db.prepare(DB3_INSERT_DEFINITION);
    this.#committedSize = db.sizeBytes();
  }

  /** Sets the pragmas and creates the tables in a new, empty database. */
  static create(db: Db3Connection, options: Db3FileWriterOptions): Db3FileWriter {
    try {
      for (const pragma of DB3_PRESET_PRAGMAS[options.preset]) db.exec(`PRAGMA ${pragma};`);
      for (const statement of DB3_CREATE_STATEMENTS) db.exec(statement);
      db.prepare(DB3_INSERT_SCHEMA).run(DB3_SCHEMA_VERSION, options.rosDistro);
      return new Db3FileWriter(db, options);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Inserts the topic (once per name) and its type's definition (once per type). The definition is
   * the ros2msg text with dependencies, as rosbag2's LocalMessageDefinitionSource gives it
   * (encoding "ros2msg"); a type without text is stored with encoding "unknown", as rosbag2 does.
   */
  addTopic(topic: BagTopic): void {
    if (this.#topicIds.has(topic.topic)) return;
    const hash = topic.typeHash ?? "";
    const id = this.#insertTopic.run(topic.topic, topic.type, "cdr", topic.offeredQosProfiles, hash);
    this.#topicIds.set(topic.topic, id);
    if (!this.#definitions.has(topic.type)) {
      const known = topic.schemaText !== "";
      this.#insertDefinition.run(topic.type, known ? "ros2msg" : "unknown", topic.schemaText, hash);
      this.#definitions.add(topic.type);
    }
  }

  /** Appends one serialized message; commits the batch when it is full. */
  write(topic: string, logTimeNs: bigint, data: Uint8Array): void {
    const topicId = this.#topicIds.get(topic);
    if (topicId === undefined) throw new Error(`topic ${topic} has no row in topics (addTopic first)`);
    if (logTimeNs < 0n || logTimeNs > MAX_TIMESTAMP) {
      throw new RangeError(`${topic}: timestamp ${String(logTimeNs)} ns, expected 0 .. ${String(MAX_TIMESTAMP)} (sqlite INTEGER, rosbag2 int64)`);
    }
    if (!this.#inTransaction) {
      this.db.exec("BEGIN TRANSACTION;");
      this.#inTransaction = true;
      this.#transactionStartNs = logTimeNs;
    }
    this.#insertMessage.run(logTimeNs, topicId, data);
    this.#pendingBytes += data.byteLength;
    this.#pendingCount++;
    if (this.#pendingBytes >= this.options.batchBytes || logTimeNs - this.#transactionStartNs >= this.options.batchDurationNs) {
      this.commit();
    }
  }

  /** Commits the open transaction, if any. */
  commit(): void {
    if (!this.#inTransaction) return;
    this.db.exec("COMMIT;");
    this.#inTransaction = false;
    this.#pendingBytes = 0;
    this.#pendingCount = 0;
    this.#committedSize = this.db.sizeBytes();
  }

  /**
   * The file size: exact at the last commit, plus rosbag2's estimate for the rows since
   * (data + three int64 columns each), so size splitting need not query sqlite per message.
   */
  sizeBytes(): number {
    return this.#committedSize + this.#pendingBytes + this.#pendingCount * DB3_ROW_OVERHEAD_BYTES;
  }

  /** Commits, stores the metadata YAML (`metadata` table) when given, and closes the file. */
  close(metadata?: { version: number; yaml: string }): void {
    this.commit();
    if (metadata !== undefined) this.db.prepare(DB3_INSERT_METADATA).run(metadata.version, metadata.yaml);
    this.db.close();
  }
}
