/**
 * A lean MCAP writer for rosbag2 recording: the record layout of the MCAP specification
 * (foxglove/mcap docs/specification/README.md) with the defaults rosbag2's mcap plugin sets
 * (rosbag2_storage_mcap mcap_storage.cpp: chunked, `noChunkCRC = true`; the MCAP C++ writer
 * leaves the data-section CRC off unless `enableDataCRC`), summary CRC on.
 *
 * Why not @mcap/core's McapWriter: it always computes the chunk CRC and a data-section CRC over
 * every byte (two JS CRC passes) and copies each message three times; on 256x256 images that
 * halves write throughput. Here a message is copied once, into the chunk buffer, and the chunk
 * goes to the file as is (or through the compressor). Schema and Channel records are written in
 * the data section before the first chunk that uses them, so a killed recording stays readable
 * by a streaming reader, and repeated in the summary.
 */
import { crc32, crc32Final, crc32Update, CRC32_INIT } from "./crc32";
import type { ChunkCompressor } from "./zstdChunkCompressor";
import { McapRecordBuilder, type IWritable, type McapRecords } from "./mcap";

export type Ros2McapWriterOptions = {
  writable: IWritable;
  /** Flush a chunk once its uncompressed records reach this size. */
  chunkSizeBytes: number;
  compressChunk?: ChunkCompressor;
  /** Compute each chunk's uncompressed CRC (rosbag2 default: off). */
  chunkCrc?: boolean;
  profile: string;
  library: string;
};

const OP_MESSAGE = 0x05;
const OP_CHUNK = 0x06;
const OP_MESSAGE_INDEX = 0x07;
const OP_FOOTER = 0x02;
const OPCODES = { Schema: 0x03, Channel: 0x04, ChunkIndex: 0x08, Statistics: 0x0b } as const;
/** Message record header: opcode u8, length u64, channel_id u16, sequence u32, log_time u64, publish_time u64. */
const MESSAGE_HEADER = 1 + 8 + 2 + 4 + 8 + 8;

type MessageIndexEntries = { times: bigint[]; offsets: number[] };

export class Ros2McapWriter {
  #chunk: Uint8Array;
  #view: DataView;
  #used = 0;
  #chunkStart = 0n;
  #chunkEnd = 0n;
  #chunkMessages = 0;
  readonly #index = new Map<number, MessageIndexEntries>();
  readonly #schemas: McapRecords["Schema"][] = [];
  readonly #channels: McapRecords["Channel"][] = [];
  readonly #chunkIndexes: McapRecords["ChunkIndex"][] = [];
  readonly #channelCounts = new Map<number, bigint>();
  #messageCount = 0n;
  #messageStart = 0n;
  #messageEnd = 0n;
  readonly #records = new McapRecordBuilder();
  readonly #compression: Uint8Array;

  constructor(private readonly options: Ros2McapWriterOptions) {
    this.#chunk = new Uint8Array(Math.max(1024, options.chunkSizeBytes + 64 * 1024));
    this.#view = new DataView(this.#chunk.buffer);
    this.#compression = new Uint8Array(0);
  }

  async start(): Promise<void> {
    this.#records.writeMagic();
    this.#records.writeHeader({ profile: this.options.profile, library: this.options.library });
    await this.#flushRecords();
  }

  async registerSchema(schema: Omit<McapRecords["Schema"], "id" | "type">): Promise<number> {
    const record: McapRecords["Schema"] = { type: "Schema", id: this.#schemas.length + 1, ...schema };
    this.#schemas.push(record);
    this.#records.writeSchema(record);
    await this.#flushRecords();
    return record.id;
  }

  async registerChannel(channel: Omit<McapRecords["Channel"], "id" | "type">): Promise<number> {
    const record: McapRecords["Channel"] = { type: "Channel", id: this.#channels.length + 1, ...channel };
    this.#channels.push(record);
    this.#channelCounts.set(record.id, 0n);
    // Written to the file now, before the chunk in progress (which is written when full), so the
    // Channel record precedes every message of the channel even when it appears mid-chunk.
    this.#records.writeChannel(record);
    await this.#flushRecords();
    return record.id;
  }

  async addMessage(channelId: number, sequence: number, logTime: bigint, publishTime: bigint, data: Uint8Array): Promise<void> {
    const size = MESSAGE_HEADER + data.byteLength;
    if (this.#used + size > this.#chunk.length) this.#grow(this.#used + size);
    const at = this.#used;
    const v = this.#view;
    v.setUint8(at, OP_MESSAGE);
    v.setBigUint64(at + 1, BigInt(size - 9), true);
    v.setUint16(at + 9, channelId, true);
    v.setUint32(at + 11, sequence, true);
    v.setBigUint64(at + 15, logTime, true);
    v.setBigUint64(at + 23, publishTime, true);
    this.#chunk.set(data, at + MESSAGE_HEADER);
    this.#used += size;
    let idx = this.#index.get(channelId);
    if (idx === undefined) {
      idx = { times: [], offsets: [] };
      this.#index.set(channelId, idx);
    }
    idx.times.push(logTime);
    idx.offsets.push(at);
    if (this.#chunkMessages === 0 || logTime < this.#chunkStart) this.#chunkStart = logTime;
    if (this.#chunkMessages === 0 || logTime > this.#chunkEnd) this.#chunkEnd = logTime;
    this.#chunkMessages++;
    if (this.#messageCount === 0n || logTime < this.#messageStart) this.#messageStart = logTime;
    if (this.#messageCount === 0n || logTime > this.#messageEnd) this.#messageEnd = logTime;
    this.#messageCount++;
    this.#channelCounts.set(channelId, (this.#channelCounts.get(channelId) ?? 0n) + 1n);
    if (this.#used >= this.options.chunkSizeBytes) await this.#finishChunk();
  }

  /** Writes the last chunk, the summary and the footer. */
  async end(): Promise<void> {
    await this.#finishChunk();
    const w = this.options.writable;
    this.#records.writeDataEnd({ dataSectionCrc: 0 });
    await this.#flushRecords();
    const summaryStart = w.position();
    const offsets: McapRecords["SummaryOffset"][] = [];
    const group = (opcode: number, write: () => void): void => {
      const start = summaryStart + BigInt(this.#records.length);
      write();
      const length = summaryStart + BigInt(this.#records.length) - start;
      if (length > 0n) offsets.push({ type: "SummaryOffset", groupOpcode: opcode, groupStart: start, groupLength: length });
    };
    group(OPCODES.Schema, () => this.#schemas.forEach((s) => this.#records.writeSchema(s)));
    group(OPCODES.Channel, () => this.#channels.forEach((c) => this.#records.writeChannel(c)));
    group(OPCODES.Statistics, () =>
      this.#records.writeStatistics({
        messageCount: this.#messageCount,
        schemaCount: this.#schemas.length,
        channelCount: this.#channels.length,
        attachmentCount: 0,
        metadataCount: 0,
        chunkCount: this.#chunkIndexes.length,
        messageStartTime: this.#messageStart,
        messageEndTime: this.#messageEnd,
        channelMessageCounts: this.#channelCounts,
      }),
    );
    group(OPCODES.ChunkIndex, () => this.#chunkIndexes.forEach((c) => this.#records.writeChunkIndex(c)));
    const summaryOffsetStart = summaryStart + BigInt(this.#records.length);
    for (const o of offsets) this.#records.writeSummaryOffset(o);
    // Footer CRC: everything from the summary start through summary_offset_start of the footer.
    const footerPrefix = new Uint8Array(1 + 8 + 8 + 8);
    const fv = new DataView(footerPrefix.buffer);
    fv.setUint8(0, OP_FOOTER);
    fv.setBigUint64(1, 20n, true);
    fv.setBigUint64(9, this.#records.length === 0 ? 0n : summaryStart, true);
    fv.setBigUint64(17, summaryOffsetStart, true);
    const summaryCrc = crc32Final(crc32Update(crc32Update(CRC32_INIT, this.#records.buffer), footerPrefix));
    this.#records.writeFooter({ summaryStart, summaryOffsetStart, summaryCrc });
    this.#records.writeMagic();
    await this.#flushRecords();
  }

  #grow(needed: number): void {
    const next = new Uint8Array(Math.max(needed, this.#chunk.length * 2));
    next.set(this.#chunk.subarray(0, this.#used));
    this.#chunk = next;
    this.#view = new DataView(next.buffer);
  }

  async #flushRecords(): Promise<void> {
    if (this.#records.length === 0) return;
    await this.options.writable.write(this.#records.buffer);
    this.#records.reset();
  }

  async #finishChunk(): Promise<void> {
    if (this.#chunkMessages === 0) return;
    const w = this.options.writable;
    const raw = this.#chunk.subarray(0, this.#used);
    const crc = this.options.chunkCrc === true ? crc32(raw) : 0;
    const packed = this.options.compressChunk?.(raw);
    const records = packed?.compressedData ?? raw;
    const compression = packed === undefined ? this.#compression : new TextEncoder().encode(packed.compression);
    // Chunk: opcode, length, start, end, uncompressed_size, uncompressed_crc, compression, records
    const headerLen = 1 + 8 + 8 + 8 + 8 + 4 + 4 + compression.length + 8;
    const header = new Uint8Array(headerLen);
    const hv = new DataView(header.buffer);
    const bodyLen = BigInt(headerLen - 9 + records.byteLength);
    hv.setUint8(0, OP_CHUNK);
    hv.setBigUint64(1, bodyLen, true);
    hv.setBigUint64(9, this.#chunkStart, true);
    hv.setBigUint64(17, this.#chunkEnd, true);
    hv.setBigUint64(25, BigInt(raw.byteLength), true);
    hv.setUint32(33, crc, true);
    hv.setUint32(37, compression.length, true);
    header.set(compression, 41);
    hv.setBigUint64(41 + compression.length, BigInt(records.byteLength), true);
    const chunkStartOffset = w.position();
    await w.write(header);
    await w.write(records);
    const chunkLength = w.position() - chunkStartOffset;
    // Message indexes, one record per channel, right after the chunk.
    const messageIndexStart = w.position();
    const messageIndexOffsets = new Map<number, bigint>();
    let total = 0;
    for (const e of this.#index.values()) total += 1 + 8 + 2 + 4 + e.times.length * 16;
    const mi = new Uint8Array(total);
    const mv = new DataView(mi.buffer);
    let at = 0;
    for (const [channelId, e] of this.#index) {
      messageIndexOffsets.set(channelId, messageIndexStart + BigInt(at));
      const n = e.times.length;
      mv.setUint8(at, OP_MESSAGE_INDEX);
      mv.setBigUint64(at + 1, BigInt(2 + 4 + n * 16), true);
      mv.setUint16(at + 9, channelId, true);
      mv.setUint32(at + 11, n * 16, true);
      at += 15;
      for (let i = 0; i < n; i++) {
        mv.setBigUint64(at, e.times[i]!, true);
        mv.setBigUint64(at + 8, BigInt(e.offsets[i]!), true);
        at += 16;
      }
    }
    await w.write(mi);
    this.#chunkIndexes.push({
      type: "ChunkIndex",
      messageStartTime: this.#chunkStart,
      messageEndTime: this.#chunkEnd,
      chunkStartOffset,
      chunkLength,
      messageIndexOffsets,
      messageIndexLength: BigInt(total),
      compression: packed?.compression ?? "",
      compressedSize: BigInt(records.byteLength),
      uncompressedSize: BigInt(raw.byteLength),
    });
    this.#index.clear();
    this.#used = 0;
    this.#chunkMessages = 0;
  }
}
