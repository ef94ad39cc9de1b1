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
  openWrite(path: string): Promise<WritableFile>;
  openDb3(path: string): Db3Database;
  /** Joins path segments with "/" (POSIX). */
  join(...parts: string[]): string;
  basename(path: string): string;
}
