/**
 * The metadata of a bag for `bag info`: its metadata.yaml when it has one, otherwise computed
 * from the file (MCAP statistics and channels when the file has a summary, else one streaming
 * pass over the messages, as rosbag2's `ros2 bag info` does for a bare .mcap or .db3 file).
 */
import type { BagFileSystem, Db3Database, Db3TopicRow } from "./BagStorage";
import type { BagMetadata, BagTopicInfo } from "./BagMetadata";
import type { Bag } from "./BagReader";
import { channelOf, tryIndexedReader } from "./McapFileSource";
import { loadDecompressHandlers } from "./mcap";
import { errorText } from "./MessageDecoder";
import { BagError } from "./types";

export async function bagSizeBytes(fs: BagFileSystem, bag: Bag): Promise<number> {
  let total = 0;
  for (const f of bag.files) total += await fs.size(f);
  return total;
}

export async function summarizeBag(fs: BagFileSystem, bag: Bag): Promise<BagMetadata> {
  if (bag.metadata !== undefined) return bag.metadata;
  const file = bag.files[0] ?? bag.path;
  const base: BagMetadata = {
    version: 0,
    storageIdentifier: bag.storageId,
    relativeFilePaths: [fs.basename(file)],
    durationNs: 0n,
    startingTimeNs: 0n,
    messageCount: 0,
    topics: [],
    compressionFormat: "",
    compressionMode: "",
    files: [],
    customData: {},
    rosDistro: "",
  };
  if (bag.storageId === "mcap") {
    const fromSummary = await mcapSummaryMetadata(fs, file, base);
    if (fromSummary !== undefined) return fromSummary;
  }
  // One pass over the messages (no summary, or a .db3 file).
  const counts = bag.storageId === "sqlite3" ? db3Topics(fs, file) : new Map<string, BagTopicInfo>();
  return await countMessages(bag, counts, base);
}

/** The metadata from an MCAP file's summary (statistics and channels); undefined when it has none. */
async function mcapSummaryMetadata(fs: BagFileSystem, file: string, base: BagMetadata): Promise<BagMetadata | undefined> {
  const readable = await fs.openRead(file);
  try {
    const reader = await tryIndexedReader(readable, await loadDecompressHandlers());
    const stats = reader?.statistics;
    if (reader === undefined || stats === undefined) return undefined;
    const topics: BagTopicInfo[] = [...reader.channelsById.values()].map((ch) => {
      const c = channelOf(ch, reader.schemasById.get(ch.schemaId));
      return {
        name: c.topic,
        type: c.type,
        serializationFormat: c.serializationFormat,
        offeredQosProfiles: c.offeredQosProfiles,
        typeDescriptionHash: c.typeHash,
        messageCount: Number(stats.channelMessageCounts.get(ch.id) ?? 0n),
      };
    });
    return {
      ...base,
      messageCount: Number(stats.messageCount),
      startingTimeNs: stats.messageCount > 0n ? stats.messageStartTime : 0n,
      durationNs: stats.messageCount > 0n ? stats.messageEndTime - stats.messageStartTime : 0n,
      topics,
    };
  } finally {
    await readable.close();
  }
}

/** The topics table of a .db3 file, each with a message count of 0. */
function db3Topics(fs: BagFileSystem, file: string): Map<string, BagTopicInfo> {
  // Topics without messages are listed too, as rosbag2 does from the topics table.
  const counts = new Map<string, BagTopicInfo>();
  let db: Db3Database;
  let topics: Db3TopicRow[];
  try {
    db = fs.openDb3(file);
  } catch (err) {
    throw new BagError(file, `cannot open as a rosbag2 sqlite3 file: ${errorText(err)}`);
  }
  try {
    topics = db.topics();
  } catch (err) {
    db.close();
    // sqlite's own text ("database disk image is malformed") does not name the file.
    throw new BagError(file, `not a readable rosbag2 sqlite3 file: ${errorText(err)}`);
  }
  try {
    for (const t of topics) {
      counts.set(t.name, {
        name: t.name,
        type: t.type,
        serializationFormat: t.serializationFormat,
        offeredQosProfiles: t.offeredQosProfiles,
        typeDescriptionHash: t.typeDescriptionHash,
        messageCount: 0,
      });
    }
  } finally {
    db.close();
  }
  return counts;
}

/** One pass over the bag's messages: counts per topic (added to `counts`), first and last log time. */
async function countMessages(bag: Bag, counts: Map<string, BagTopicInfo>, base: BagMetadata): Promise<BagMetadata> {
  let first: bigint | undefined;
  let last: bigint | undefined;
  let n = 0;
  for await (const item of bag.items()) {
    if (item.type === "problem") throw new BagError(item.file, item.message);
    const m = item.message;
    let t = counts.get(m.topic);
    if (t === undefined) {
      t = {
        name: m.topic,
        type: m.channel.type,
        serializationFormat: m.channel.serializationFormat,
        offeredQosProfiles: m.channel.offeredQosProfiles,
        typeDescriptionHash: m.channel.typeHash,
        messageCount: 0,
      };
      counts.set(m.topic, t);
    }
    t.messageCount++;
    n++;
    if (first === undefined || m.logTimeNs < first) first = m.logTimeNs;
    if (last === undefined || m.logTimeNs > last) last = m.logTimeNs;
  }
  return { ...base, messageCount: n, startingTimeNs: first ?? 0n, durationNs: first === undefined || last === undefined ? 0n : last - first, topics: [...counts.values()] };
}

/**
 * The recorded topic names without reading the messages: from metadata.yaml, the .db3 topics
 * tables or the MCAP summary; undefined when only a pass over the messages would tell (an MCAP
 * without summary, e.g. a killed recording) or a file cannot be read.
 */
export async function recordedTopicNames(fs: BagFileSystem, bag: Bag): Promise<string[] | undefined> {
  if (bag.metadata !== undefined) return bag.metadata.topics.map((t) => t.name);
  const file = bag.files[0] ?? bag.path;
  try {
    if (bag.storageId === "sqlite3") {
      const db = fs.openDb3(file);
      try {
        return db.topics().map((t) => t.name);
      } finally {
        db.close();
      }
    }
    const readable = await fs.openRead(file);
    try {
      const reader = await tryIndexedReader(readable, await loadDecompressHandlers());
      return reader === undefined ? undefined : [...reader.channelsById.values()].map((ch) => ch.topic);
    } finally {
      await readable.close();
    }
  } catch {
    return undefined;
  }
}
