/**
 * Fast path for reading an indexed MCAP in log-time order when its chunks do not overlap in time
 * (what rosbag2 and our writer produce): each chunk is read with one call, decompressed, its CRC
 * checked when it has one, and its Message records are yielded as views into the chunk buffer
 * (no copy per message; McapIndexedReader copies each message and reads message indexes first).
 * A chunk whose messages are out of order is sorted in memory (it is in memory anyway). Record
 * layout: foxglove/mcap docs/specification/README.md ("Chunk", "Message").
 */
import { crc32 } from "./crc32";
import type { DecompressHandlers, IReadable, McapRecords } from "./mcap";

export type ChunkMessage = { channelId: number; sequence: number; logTime: bigint; publishTime: bigint; data: Uint8Array };

const OP_CHUNK = 0x06;
const OP_MESSAGE = 0x05;
/** Largest uncompressed chunk we allocate for (a corrupt size field must not allocate gigabytes). */
const MAX_UNCOMPRESSED = 1n << 31n;

/** True when the chunks, sorted by start time, do not overlap: reading them in turn is log-time order. */
export function chunksAreSequential(chunks: readonly McapRecords["ChunkIndex"][]): boolean {
  const sorted = [...chunks].sort((a, b) => (a.messageStartTime < b.messageStartTime ? -1 : a.messageStartTime > b.messageStartTime ? 1 : 0));
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.messageStartTime < sorted[i - 1]!.messageEndTime) return false;
  return true;
}

function parseChunk(bytes: Uint8Array, handlers: DecompressHandlers): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 49 || v.getUint8(0) !== OP_CHUNK) throw new Error("chunk index points at something that is not a Chunk record");
  const uncompressedSize = v.getBigUint64(25, true);
  const crc = v.getUint32(33, true);
  const compressionLength = v.getUint32(37, true);
  if (41 + compressionLength + 8 > bytes.byteLength) throw new Error(`chunk compression name length ${compressionLength} exceeds the chunk`);
  const compression = new TextDecoder().decode(bytes.subarray(41, 41 + compressionLength));
  const recordsLength = v.getBigUint64(41 + compressionLength, true);
  const start = 49 + compressionLength;
  if (BigInt(start) + recordsLength > BigInt(bytes.byteLength)) throw new Error(`chunk records length ${String(recordsLength)} exceeds the chunk`);
  const records = bytes.subarray(start, start + Number(recordsLength));
  if (uncompressedSize > MAX_UNCOMPRESSED) throw new Error(`chunk uncompressed size ${String(uncompressedSize)} is over 2 GiB`);
  let data = records;
  if (compression !== "") {
    const decompress = handlers[compression];
    if (decompress === undefined) throw new Error(`unsupported chunk compression "${compression}"`);
    data = decompress(records, uncompressedSize);
  }
  if (BigInt(data.byteLength) !== uncompressedSize) {
    throw new Error(`chunk holds ${data.byteLength} bytes, its header says ${String(uncompressedSize)}`);
  }
  if (crc !== 0) {
    const actual = crc32(data);
    if (actual !== crc) throw new Error(`Incorrect chunk CRC ${actual} (expected ${crc})`);
  }
  return data;
}

function parseMessages(data: Uint8Array): ChunkMessage[] {
  const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: ChunkMessage[] = [];
  let at = 0;
  let sorted = true;
  while (at < data.byteLength) {
    if (at + 9 > data.byteLength) throw new Error(`${data.byteLength - at} stray bytes at the end of a chunk`);
    const op = v.getUint8(at);
    const length = v.getBigUint64(at + 1, true);
    const body = at + 9;
    if (BigInt(body) + length > BigInt(data.byteLength)) throw new Error(`record length ${String(length)} exceeds its chunk`);
    const end = body + Number(length);
    if (op === OP_MESSAGE) {
      if (length < 22n) throw new Error(`Message record of ${String(length)} bytes, expected >= 22`);
      const m: ChunkMessage = {
        channelId: v.getUint16(body, true),
        sequence: v.getUint32(body + 2, true),
        logTime: v.getBigUint64(body + 6, true),
        publishTime: v.getBigUint64(body + 14, true),
        data: data.subarray(body + 22, end),
      };
      const prev = out[out.length - 1];
      if (prev !== undefined && m.logTime < prev.logTime) sorted = false;
      out.push(m);
    }
    at = end;
  }
  if (!sorted) out.sort((a, b) => (a.logTime < b.logTime ? -1 : a.logTime > b.logTime ? 1 : 0));
  return out;
}

/** Messages of every chunk (sequential chunks only: check chunksAreSequential first), in log-time order. */
export async function* readChunksInOrder(
  readable: IReadable,
  chunks: readonly McapRecords["ChunkIndex"][],
  handlers: DecompressHandlers,
  filter: { channels?: ReadonlySet<number>; startNs?: bigint; endNs?: bigint },
): AsyncGenerator<ChunkMessage> {
  const sorted = [...chunks].sort((a, b) => (a.messageStartTime < b.messageStartTime ? -1 : a.messageStartTime > b.messageStartTime ? 1 : 0));
  for (const ci of sorted) {
    if (filter.startNs !== undefined && ci.messageEndTime < filter.startNs) continue;
    if (filter.endNs !== undefined && ci.messageStartTime > filter.endNs) continue;
    if (filter.channels !== undefined && ci.messageIndexOffsets.size > 0 && ![...ci.messageIndexOffsets.keys()].some((id) => filter.channels?.has(id))) continue;
    const data = parseChunk(await readable.read(ci.chunkStartOffset, ci.chunkLength), handlers);
    for (const m of parseMessages(data)) {
      if (filter.channels !== undefined && !filter.channels.has(m.channelId)) continue;
      if (filter.startNs !== undefined && m.logTime < filter.startNs) continue;
      if (filter.endNs !== undefined && m.logTime > filter.endNs) continue;
      yield m;
    }
  }
}
