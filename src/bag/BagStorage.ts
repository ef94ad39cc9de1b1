/**
 * The file access the bag core needs, as small interfaces (STYLE.md: pure core, thin adapters).
 * The Node adapters live in ./node/; tests use in-memory fakes of the same interfaces.
 * IReadable/IWritable are @mcap/core's (foxglove/mcap typescript/core/src/types.ts).
 */
import type { IReadable, IWritable } from "./mcap";

/** A row of the rosbag2 sqlite3 `topics` table (rosbag2_storage_sqlite3 sqlite_storage.cpp). */
export type Db3TopicRow = {
  id: number;
  name: string;
  type: string;
  serializationFormat: string;
  offeredQosProfiles: string;
  typeDescriptionHash: string;
};

/** A row of the `message_definitions` table (rosbag2 Iron and later). */
export type Db3MessageDefinitionRow = {
  topicType: string;
  encoding: string;
  encodedMessageDefinition: string;
};

/** A row of the `messages` table. */
export type Db3MessageRow = { topicId: number; timestampNs: bigint; data: Uint8Array };

/** Read-only access to one rosbag2 .db3 file. */
export interface Db3Database {
  topics(): Db3TopicRow[];
  /** Empty when the file predates the table. */
  messageDefinitions(): Db3MessageDefinitionRow[];
  /** Messages ordered by timestamp, streamed (not loaded at once). */
  messages(filter: { topicIds: readonly number[]; startNs: bigint; endNs: bigint }): Iterable<Db3MessageRow>;
  close(): void;
}

/** A value bound to a sqlite statement parameter (INTEGER, TEXT or BLOB). */
export type Db3Value = number | bigint | string | Uint8Array;

/** A prepared statement of a writable .db3; `run` returns the inserted row's id. */
export interface Db3Statement {
  run(...params: Db3Value[]): number;
}

/**
 * A newly created .db3 file opened for writing (the Node adapter is better-sqlite3). The rosbag2
 * layout and statements live in the core (db3Schema.ts, Db3FileWriter.ts); this only runs SQL.
 */
export interface Db3Connection {
  /** Runs statements without results (CREATE, BEGIN, COMMIT, PRAGMA assignments). */
  exec(sql: string): void;
  prepare(sql: string): Db3Statement;
  /** `PRAGMA page_count` x `PRAGMA page_size`: the file size the database occupies now. */
  sizeBytes(): number;
  close(): void;
}

/** A file opened for random-access reading. */
export interface ReadableFile extends IReadable {
  close(): Promise<void>;
}

/** A file opened for appending. */
export interface WritableFile extends IWritable {
  close(): Promise<void>;
}

/** Where bags live: a directory tree of files (the Node adapter maps it to `fs`). */
export interface BagFileSystem {
  /** "file", "directory" or undefined when nothing is at the path. */
  stat(path: string): Promise<"file" | "directory" | undefined>;
  /** Size in bytes of a file. */
  size(path: string): Promise<number>;
  readText(path: string): Promise<string>;
  writeText(path: string, text: string): Promise<void>;
  listDirectory(path: string): Promise<string[]>;
  makeDirectory(path: string): Promise<void>;
  openRead(path: string): Promise<ReadableFile>;
  /**
   * Creates a new file for appending; throws when something is already at `path`, never
   * truncates (a killed recording's file or a recovery's input survives a repeated command).
   */
  openWrite(path: string): Promise<WritableFile>;
  /**
   * True when both paths reach the same file (device and inode), through symlinked folders or
   * hard links included; false when either does not exist. Optional: the in-memory test file
   * system compares paths.
   */
  sameFile?(a: string, b: string): Promise<boolean>;
  openDb3(path: string): Db3Database;
  /**
   * Creates a new .db3 file for writing; throws if something is already at `path`. Optional: a
   * file system without sqlite (the in-memory test one) cannot write sqlite3 bags.
   */
  createDb3?(path: string): Db3Connection;
  /** Deletes a file (used to remove a .db3 whose setup failed); optional like createDb3. */
  removeFile?(path: string): Promise<void>;
  /** Joins path segments with "/" (POSIX). */
  join(...parts: string[]): string;
  basename(path: string): string;
}
