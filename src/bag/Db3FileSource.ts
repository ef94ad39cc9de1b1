/**
 * Reads one rosbag2 sqlite3 (.db3) file: tables `topics` and `messages` (rosbag2_storage_sqlite3,
 * sqlite_storage.cpp), and `message_definitions` from Iron on. A .db3 of Humble or older carries
 * no schema, so channels get the schema text of our definitions (`lookupSchema`), falling back to
 * the file's `message_definitions` row for types we do not know.
 */
import type { Db3Database } from "./BagStorage";
import { errorText } from "./MessageDecoder";
import type { BagChannel, BagReadItem, BagReadOptions } from "./types";

/** Schema text of a type from our definitions; undefined when unknown. */
export type SchemaLookup = (type: string) => string | undefined;

const MAX_TIME = (1n << 63n) - 1n;

/** The channels of a .db3 file, by topic id. */
export function db3Channels(db: Db3Database, lookupSchema: SchemaLookup): Map<number, BagChannel> {
  const fileDefs = new Map<string, { encoding: string; text: string }>();
  for (const row of db.messageDefinitions()) {
    fileDefs.set(row.topicType, { encoding: row.encoding, text: row.encodedMessageDefinition });
  }
  const channels = new Map<number, BagChannel>();
  for (const t of db.topics()) {
    const ours = lookupSchema(t.type);
    const theirs = fileDefs.get(t.type);
    channels.set(t.id, {
      topic: t.name,
      type: t.type,
      schemaText: ours ?? theirs?.text ?? "",
      schemaEncoding: ours !== undefined ? "ros2msg" : (theirs?.encoding ?? ""),
      serializationFormat: t.serializationFormat,
      offeredQosProfiles: t.offeredQosProfiles,
      typeHash: t.typeDescriptionHash,
    });
  }
  return channels;
}

/** Messages of one .db3 file in timestamp order; a problem item ends the stream. */
export async function* readDb3File(
  file: string,
  db: Db3Database,
  lookupSchema: SchemaLookup,
  options: BagReadOptions = {},
): AsyncGenerator<BagReadItem> {
  let channels: Map<number, BagChannel>;
  try {
    channels = db3Channels(db, lookupSchema);
  } catch (err) {
    yield { type: "problem", file, message: `not a rosbag2 sqlite3 file: ${errorText(err)}` };
    return;
  }
  const wanted = options.topics === undefined ? undefined : new Set(options.topics);
  const topicIds = [...channels].filter(([, ch]) => wanted === undefined || wanted.has(ch.topic)).map(([id]) => id);
  try {
    for (const row of db.messages({ topicIds, startNs: options.startNs ?? 0n, endNs: options.endNs ?? MAX_TIME })) {
      const channel = channels.get(row.topicId);
      if (channel === undefined) {
        yield { type: "problem", file, message: `message refers to unknown topic id ${row.topicId}` };
        return;
      }
      // SQLite columns are dynamically typed: a damaged file can hold NULL, text or a float here
      // (found by test/fuzz/bag.fuzz.test.ts).
      const data: unknown = row.data;
      const stamp: unknown = row.timestampNs;
      if (!(data instanceof Uint8Array) || typeof stamp !== "bigint") {
        yield { type: "problem", file, message: `message row on ${channel.topic}: ${badRow(data, stamp)}` };
        return;
      }
      yield {
        type: "message",
        message: { topic: channel.topic, logTimeNs: stamp, publishTimeNs: stamp, data, channel, file },
      };
    }
  } catch (err) {
    yield { type: "problem", file, message: `cannot read messages: ${errorText(err)}` };
  }
}

/** What is wrong with a messages row whose data is not a BLOB or whose timestamp is not an integer. */
function badRow(data: unknown, stamp: unknown): string {
  const problems: string[] = [];
  if (!(data instanceof Uint8Array)) problems.push(`data is ${data === null ? "NULL" : typeof data}, expected a BLOB`);
  if (typeof stamp !== "bigint") problems.push(`timestamp is ${String(stamp)}, expected an integer`);
  return problems.join("; ");
}
