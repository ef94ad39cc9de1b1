/**
 * Rebuilds a valid, indexed MCAP from one whose recording was killed (no summary, no footer, or
 * a torn last record), like `mcap recover` (foxglove/mcap go/cli/mcap/cmd/recover.go): stream
 * the records until the first incomplete or corrupt one, and rewrite every complete chunk's
 * messages (and messages outside chunks) with fresh chunk/message indexes, statistics and
 * summary. A chunk whose data fails its CRC or does not parse is dropped whole.
 */
import { McapStreamReader, McapWriter, type DecompressHandlers, type IReadable, type IWritable, type McapRecords } from "./mcap";
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

export async function recoverMcap(input: IReadable, output: IWritable, options: RecoverOptions): Promise<RecoverResult> {
  const stream = new McapStreamReader({ decompressHandlers: options.decompressHandlers, validateCrcs: true, includeChunks: true });
  const writer = new McapWriter({
    writable: output,
    useStatistics: true,
    useSummaryOffsets: true,
    useChunks: true,
    useChunkIndex: true,
    useMessageIndex: true,
    chunkSize: options.chunkSizeBytes ?? 768 * 1024,
    compressChunk: options.compressChunk,
  });
  const size = await input.size();
  const slice = BigInt(options.readSliceBytes ?? 4 * 1024 * 1024);
  const schemaIds = new Map<number, number>();
  const channelIds = new Map<number, number>();
  const schemas = new Map<number, McapRecords["Schema"]>();
  let started = false;
  let pending: Pending = [];
  let inChunk = false;
  let messages = 0;
  let chunks = 0;
  let problem: string | undefined;

  const start = async (header: McapRecords["Header"] | undefined): Promise<void> => {
    if (started) return;
    started = true;
    await writer.start({ profile: header?.profile ?? "", library: header?.library ?? "" });
  };
  const channel = async (ch: McapRecords["Channel"]): Promise<void> => {
    if (channelIds.has(ch.id)) return;
    let schemaId = 0;
    if (ch.schemaId !== 0) {
      const known = schemaIds.get(ch.schemaId);
      const schema = schemas.get(ch.schemaId);
      if (known !== undefined) schemaId = known;
      else if (schema !== undefined) {
        schemaId = await writer.registerSchema({ name: schema.name, encoding: schema.encoding, data: schema.data });
        schemaIds.set(ch.schemaId, schemaId);
      } else throw new Error(`channel ${ch.id} (${ch.topic}) refers to schema ${ch.schemaId}, which precedes no message`);
    }
    channelIds.set(ch.id, await writer.registerChannel({ topic: ch.topic, messageEncoding: ch.messageEncoding, schemaId, metadata: ch.metadata }));
  };
  const flush = async (): Promise<void> => {
    for (const m of pending) {
      const id = channelIds.get(m.channelId);
      if (id === undefined) throw new Error(`message on unknown channel ${m.channelId}`);
      await writer.addMessage({ ...m, channelId: id });
      messages++;
    }
    if (inChunk) chunks++;
    pending = [];
    inChunk = false;
  };

  let offset = 0n;
  try {
    while (offset < size && !stream.done()) {
      const n = size - offset < slice ? size - offset : slice;
      stream.append(await input.read(offset, n));
      offset += n;
      for (let r = stream.nextRecord(); r !== undefined; r = stream.nextRecord()) {
        if (r.type === "Header") await start(r);
        else if (r.type === "Schema") schemas.set(r.id, r);
        else if (r.type === "Channel") await channel(r);
        else if (r.type === "Message") pending.push(r);
        else if (r.type === "Chunk") {
          await flush();
          inChunk = true;
        } else if (r.type !== "Unknown") await flush();
      }
    }
    // The stream ended: the last chunk (if any) was parsed completely, so it counts.
    await flush();
  } catch (err) {
    problem = `stopped at a corrupt record: ${errorText(err)}`;
  }
  if (problem === undefined && !stream.done()) {
    const rest = stream.bytesRemaining();
    problem = rest > 0 ? `truncated: ${rest} bytes of an incomplete record at the end (file size ${String(size)})` : "truncated: no footer";
  }
  await start(undefined);
  await writer.end();
  return { messages, chunks, complete: problem === undefined, problem };
}
