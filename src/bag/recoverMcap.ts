/**
 * Rebuilds a valid, indexed MCAP from one whose recording was killed (no summary, no footer, or
 * a torn last record), like `mcap recover` (foxglove/mcap go/cli/mcap/cmd/recover.go): stream
 * the records until the first incomplete or corrupt one, and rewrite every complete chunk's
 * messages (and messages outside chunks) with fresh chunk/message indexes, statistics and
 * summary. A chunk whose data fails its CRC or does not parse is dropped whole.
 */
import { McapStreamReader, McapWriter, type DecompressHandlers, type IReadable, type IWritable, type McapRecord, type McapRecords } from "./mcap";
import { errorText } from "./MessageDecoder";
import type { ChunkCompressor } from "./zstdChunkCompressor";

export type RecoverOptions = {
  decompressHandlers: DecompressHandlers;
  /** Chunk compression of the output; undefined = uncompressed. */
  compressChunk?: ChunkCompressor;
  /** Uncompressed chunk size of the output; default 768 KiB. */
  chunkSizeBytes?: number;
  /** Bytes read per step; default 4 MiB. */
  readSliceBytes?: number;
};

export type RecoverResult = {
  /** Messages written to the output. */
  messages: number;
  /** Complete chunks whose messages were kept. */
  chunks: number;
  /** True when the input ended with a valid footer (nothing was lost). */
  complete: boolean;
  /** Why reading stopped early, or undefined. */
  problem: string | undefined;
};

type Pending = McapRecords["Message"][];

/**
 * The output side of a recovery: the schemas and channels of the input registered again under the
 * writer's ids, and the messages of the current chunk (or outside chunks) held until it ends.
 */
class RecoveredOutput {
  readonly writer: McapWriter;
  private readonly schemaIds = new Map<number, number>();
  private readonly channelIds = new Map<number, number>();
  private readonly schemas = new Map<number, McapRecords["Schema"]>();
  private started = false;
  private pending: Pending = [];
  private inChunk = false;
  messages = 0;
  chunks = 0;

  constructor(output: IWritable, options: RecoverOptions) {
    this.writer = new McapWriter({
      writable: output,
      useStatistics: true,
      useSummaryOffsets: true,
      useChunks: true,
      useChunkIndex: true,
      useMessageIndex: true,
      chunkSize: options.chunkSizeBytes ?? 768 * 1024,
      compressChunk: options.compressChunk,
    });
  }

  /** Takes one record of the input. */
  async add(r: McapRecord): Promise<void> {
    if (r.type === "Header") await this.start(r);
    else if (r.type === "Schema") this.schemas.set(r.id, r);
    else if (r.type === "Channel") await this.channel(r);
    else if (r.type === "Message") this.pending.push(r);
    else if (r.type === "Chunk") {
      await this.flush();
      this.inChunk = true;
    } else if (r.type !== "Unknown") await this.flush();
  }

  async start(header: McapRecords["Header"] | undefined): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.writer.start({ profile: header?.profile ?? "", library: header?.library ?? "" });
  }

  private async channel(ch: McapRecords["Channel"]): Promise<void> {
    if (this.channelIds.has(ch.id)) return;
    let schemaId = 0;
    if (ch.schemaId !== 0) {
      const known = this.schemaIds.get(ch.schemaId);
      const schema = this.schemas.get(ch.schemaId);
      if (known !== undefined) schemaId = known;
      else if (schema !== undefined) {
        schemaId = await this.writer.registerSchema({ name: schema.name, encoding: schema.encoding, data: schema.data });
        this.schemaIds.set(ch.schemaId, schemaId);
      } else throw new Error(`channel ${ch.id} (${ch.topic}) refers to schema ${ch.schemaId}, which precedes no message`);
    }
    this.channelIds.set(ch.id, await this.writer.registerChannel({ topic: ch.topic, messageEncoding: ch.messageEncoding, schemaId, metadata: ch.metadata }));
  }

  /** Writes the pending messages: their chunk (if any) was read completely. */
  async flush(): Promise<void> {
    for (const m of this.pending) {
      const id = this.channelIds.get(m.channelId);
      if (id === undefined) throw new Error(`message on unknown channel ${m.channelId}`);
      await this.writer.addMessage({ ...m, channelId: id });
      this.messages++;
    }
    if (this.inChunk) this.chunks++;
    this.pending = [];
    this.inChunk = false;
  }
}

export async function recoverMcap(input: IReadable, output: IWritable, options: RecoverOptions): Promise<RecoverResult> {
  const stream = new McapStreamReader({ decompressHandlers: options.decompressHandlers, validateCrcs: true, includeChunks: true });
  const out = new RecoveredOutput(output, options);
  const size = await input.size();
  const slice = BigInt(options.readSliceBytes ?? 4 * 1024 * 1024);
  let problem: string | undefined;
  let offset = 0n;
  try {
    while (offset < size && !stream.done()) {
      const n = size - offset < slice ? size - offset : slice;
      stream.append(await input.read(offset, n));
      offset += n;
      for (let r = stream.nextRecord(); r !== undefined; r = stream.nextRecord()) await out.add(r);
    }
    // The stream ended: the last chunk (if any) was parsed completely, so it counts.
    await out.flush();
  } catch (err) {
    problem = `stopped at a corrupt record: ${errorText(err)}`;
  }
  if (problem === undefined && !stream.done()) {
    const rest = stream.bytesRemaining();
    problem = rest > 0 ? `truncated: ${rest} bytes of an incomplete record at the end (file size ${String(size)})` : "truncated: no footer";
  }
  await out.start(undefined);
  await out.writer.end();
  return { messages: out.messages, chunks: out.chunks, complete: problem === undefined, problem };
}
