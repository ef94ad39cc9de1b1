/**
 * Reads the messages of one rosbag2 MCAP file in log-time order. Uses the summary and chunk
 * indexes when present (McapIndexedReader, which loads one chunk at a time: bounded memory), and
 * falls back to a streaming scan of the records (McapStreamReader) when the file has no summary
 * or index, e.g. a recording that was killed. In the fallback, messages come in file order,
 * which is receive order for rosbag2 (mcap_storage.cpp writes as messages arrive).
 */
import { McapIndexedReader, McapStreamReader, type DecompressHandlers, type IReadable, type McapRecords } from "./mcap";
import { BoundedReadable } from "./BoundedReadable";
import { chunksAreSequential, readChunksInOrder } from "./readChunksInOrder";
import { errorText } from "./MessageDecoder";
import type { BagChannel, BagReadItem, BagReadOptions } from "./types";


/** Bytes read per step in the streaming fallback. */
const STREAM_SLICE_BYTES = 4n * 1024n * 1024n;

export function channelOf(
  channel: McapRecords["Channel"],
  schema: McapRecords["Schema"] | undefined,
): BagChannel {
  return {
    topic: channel.topic,
    type: schema?.name ?? "",
    schemaText: schema === undefined ? "" : new TextDecoder().decode(schema.data),
    schemaEncoding: schema?.encoding ?? "",
    serializationFormat: channel.messageEncoding,
    offeredQosProfiles: channel.metadata.get("offered_qos_profiles") ?? "",
    typeHash: channel.metadata.get("topic_type_hash") ?? "",
  };
}

function inRange(topic: string, logTime: bigint, options: BagReadOptions, topics: Set<string> | undefined): boolean {
  if (topics !== undefined && !topics.has(topic)) return false;
  if (options.startNs !== undefined && logTime < options.startNs) return false;
  if (options.endNs !== undefined && logTime > options.endNs) return false;
  return true;
}

/** Opens the indexed reader, or undefined when the file has no usable summary/index. */
export async function tryIndexedReader(
  readable: IReadable,
  decompressHandlers: DecompressHandlers,
): Promise<McapIndexedReader | undefined> {
  try {
    const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers });
    // A file written with chunks but without chunk indexes cannot be read through the index.
    if (reader.chunkIndexes.length === 0 && (reader.statistics?.messageCount ?? 0n) > 0n) return undefined;
    return reader;
  } catch {
    return undefined;
  }
}

/** Messages of one MCAP file; a problem item ends the stream. */
export async function* readMcapFile(
  file: string,
  readable: IReadable,
  decompressHandlers: DecompressHandlers,
  options: BagReadOptions = {},
): AsyncGenerator<BagReadItem> {
  const bounded = new BoundedReadable(readable, file);
  const topics = options.topics === undefined ? undefined : new Set(options.topics);
  const indexed = await tryIndexedReader(bounded, decompressHandlers);
  if (indexed !== undefined) {
    const channels = new Map<number, BagChannel>();
    for (const [id, ch] of indexed.channelsById) channels.set(id, channelOf(ch, indexed.schemasById.get(ch.schemaId)));
    try {
      const sequential = chunksAreSequential(indexed.chunkIndexes);
      let wanted: Set<number> | undefined;
      if (topics !== undefined) {
        wanted = new Set();
        for (const [id, ch] of channels) if (topics.has(ch.topic)) wanted.add(id);
      }
      const messages = sequential
        ? readChunksInOrder(bounded, indexed.chunkIndexes, decompressHandlers, { channels: wanted, startNs: options.startNs, endNs: options.endNs })
        : indexed.readMessages({ topics: options.topics, startTime: options.startNs, endTime: options.endNs, validateCrcs: true });
      for await (const msg of messages) {
        const channel = channels.get(msg.channelId);
        if (channel === undefined) {
          yield { type: "problem", file, message: `message refers to unknown channel id ${msg.channelId}` };
          return;
        }
        yield {
          type: "message",
          message: { topic: channel.topic, logTimeNs: msg.logTime, publishTimeNs: msg.publishTime, data: msg.data, channel, file },
        };
      }
    } catch (err) {
      yield { type: "problem", file, message: errorText(err) };
    }
    return;
  }
  yield* streamMcapFile(file, bounded, decompressHandlers, options, topics);
}

async function* streamMcapFile(
  file: string,
  readable: IReadable,
  decompressHandlers: DecompressHandlers,
  options: BagReadOptions,
  topics: Set<string> | undefined,
): AsyncGenerator<BagReadItem> {
  const stream = new McapStreamReader({ decompressHandlers, validateCrcs: true });
  const schemas = new Map<number, McapRecords["Schema"]>();
  const channels = new Map<number, BagChannel>();
  const size = await readable.size();
  let offset = 0n;
  try {
    while (offset < size) {
      const n = size - offset < STREAM_SLICE_BYTES ? size - offset : STREAM_SLICE_BYTES;
      stream.append(await readable.read(offset, n));
      offset += n;
      for (let record = stream.nextRecord(); record !== undefined; record = stream.nextRecord()) {
        if (record.type === "Schema") {
          schemas.set(record.id, record);
        } else if (record.type === "Channel") {
          channels.set(record.id, channelOf(record, schemas.get(record.schemaId)));
        } else if (record.type === "Message") {
          const channel = channels.get(record.channelId);
          if (channel === undefined) {
            yield { type: "problem", file, message: `message refers to unknown channel id ${record.channelId}` };
            return;
          }
          if (!inRange(channel.topic, record.logTime, options, topics)) continue;
          yield {
            type: "message",
            message: {
              topic: channel.topic,
              logTimeNs: record.logTime,
              publishTimeNs: record.publishTime,
              data: record.data,
              channel,
              file,
            },
          };
        }
      }
    }
  } catch (err) {
    yield { type: "problem", file, message: `corrupt record: ${errorText(err)}` };
    return;
  }
  if (!stream.done()) {
    const rest = stream.bytesRemaining();
    yield {
      type: "problem",
      file,
      message:
        rest > 0
          ? `truncated: the file (${size} bytes) ends inside a record (${rest} bytes of it present); the recording was not closed`
          : `truncated: the file (${size} bytes) has no footer; the recording was not closed`,
    };
  }
}
