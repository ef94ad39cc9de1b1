/**
 * Writes a rosbag2 bag in MCAP storage (default) or sqlite3 storage (`storage: "sqlite3"`, one
 * .db3 per file, see Db3FileWriter.ts). MCAP is written as rosbag2's mcap storage plugin does
 * (ros2/rosbag2 rosbag2_storage_mcap/src/mcap_storage.cpp): header profile "ros2", one Schema
 * per message type (encoding "ros2msg", full .msg text with dependencies), one Channel per
 * topic (message encoding "cdr", metadata `offered_qos_profiles` and `topic_type_hash`),
 * chunked (optionally zstd), with message indexes, chunk indexes, statistics and summary
 * offsets; log time = publish time = receive time. A metadata.yaml is written on close.
 *
 * Files are <dir>/<basename(dir)>_<n>.mcap (or .db3), split by size or duration like rosbag2's
 * SequentialWriter (`max_bag_size`, `max_bag_duration`). Memory stays bounded: a chunk is
 * flushed to the file when it reaches `chunkSizeBytes` and only indexes are kept (MCAP); a
 * transaction is committed every `db3BatchBytes` (sqlite3).
 */
import type { BagFileSystem, WritableFile } from "./BagStorage";
import type { BagTopic } from "./BagTopic";
import { METADATA_VERSION, stringifyBagMetadata, type BagFileInfo, type BagMetadata } from "./BagMetadata";
import { Db3FileWriter } from "./Db3FileWriter";
import type { Db3Preset } from "./db3Schema";
import { errorText } from "./MessageDecoder";
import { Ros2McapWriter } from "./Ros2McapWriter";
import { zstdChunkCompressor, type ChunkCompressor } from "./zstdChunkCompressor";
import { BagError } from "./types";

export type BagWriterOptions = {
  fs: BagFileSystem;
  /** Bag directory; created; must not contain a metadata.yaml or a first bag file (<name>_0.mcap / .db3) already. */
  directory: string;
  /** rosbag2 storage plugin: "mcap" (default) or "sqlite3" (`ros2 bag record -s sqlite3`). */
  storage?: "mcap" | "sqlite3";
  /** sqlite3 only: rosbag2's `--storage-preset-profile`, "none" (default) or "resilient". */
  storagePreset?: Db3Preset;
  /** sqlite3 only: commit a transaction once it holds this much message data; default 4 MiB. */
  db3BatchBytes?: number;
  /** sqlite3 only: commit once a transaction spans this much log time; default 1 s. */
  db3BatchDurationNs?: bigint;
  /** MCAP chunk compression: "zstd" (default for MCAP) or "none" (sqlite3 accepts only "none"). */
  compression?: "zstd" | "none";
  /** zstd level 1..19; default 1. */
  zstdLevel?: number;
  /** Store each chunk's CRC-32; default false, as rosbag2's mcap plugin (noChunkCRC). */
  chunkCrc?: boolean;
  /** Uncompressed chunk size before flushing; default 768 KiB (the MCAP C++ writer's default). */
  chunkSizeBytes?: number;
  /** Start a new file once the current one reaches this size; 0 (default) = never. */
  maxBagSizeBytes?: number;
  /** Start a new file once a message is this much later than the file's first; 0n = never. */
  maxBagDurationNs?: bigint;
  /** metadata.yaml `ros_distro`; default "jazzy" (the message definitions we write). */
  rosDistro?: string;
  customData?: Record<string, string>;
  /** MCAP header library string. */
  library?: string;
};

export type { BagTopic };

type TopicState = BagTopic & { count: number; sequence: number };

type OpenFileBase = { name: string; count: number; startNs: bigint; endNs: bigint };
type OpenMcap = OpenFileBase & {
  kind: "mcap";
  file: WritableFile;
  writer: Ros2McapWriter;
  channelIds: Map<string, number>;
  schemaIds: Map<string, number>;
};
type OpenDb3 = OpenFileBase & { kind: "sqlite3"; db: Db3FileWriter };
type OpenFile = OpenMcap | OpenDb3;

const DEFAULT_CHUNK = 768 * 1024;
const DEFAULT_DB3_BATCH = 4 * 1024 * 1024;
const DEFAULT_DB3_BATCH_NS = 1_000_000_000n;
/** rosbag2's smallest split size for sqlite3 (sqlite_storage.cpp MIN_SPLIT_FILE_SIZE, 84 KiB). */
export const DB3_MIN_SPLIT_BYTES = 86016;

export class BagWriter {
  readonly #topics = new Map<string, TopicState>();
  readonly #files: BagFileInfo[] = [];
  #current: OpenFile | undefined;
  #closed = false;

  private constructor(
    private readonly options: Required<Omit<BagWriterOptions, "customData">> & { customData: Record<string, string> },
    private readonly compressor: ChunkCompressor | undefined,
    private readonly baseName: string,
  ) {}

  static async create(options: BagWriterOptions): Promise<BagWriter> {
    const { fs, directory } = options;
    const chunk = options.chunkSizeBytes ?? DEFAULT_CHUNK;
    if (!Number.isInteger(chunk) || chunk < 1) throw new RangeError(`chunkSizeBytes=${chunk}, expected an integer >= 1`);
    const maxSize = options.maxBagSizeBytes ?? 0;
    if (!Number.isFinite(maxSize) || maxSize < 0) throw new RangeError(`maxBagSizeBytes=${maxSize}, expected >= 0`);
    const maxDur = options.maxBagDurationNs ?? 0n;
    if (maxDur < 0n) throw new RangeError(`maxBagDurationNs=${String(maxDur)}, expected >= 0`);
    const storage = options.storage ?? "mcap";
    if (storage !== "mcap" && storage !== "sqlite3") throw new RangeError(`storage=${String(storage)}, expected "mcap" or "sqlite3"`);
    const preset = options.storagePreset ?? "none";
    if (preset !== "none" && preset !== "resilient") throw new RangeError(`storagePreset=${String(preset)}, expected "none" or "resilient"`);
    const batch = options.db3BatchBytes ?? DEFAULT_DB3_BATCH;
    if (!Number.isInteger(batch) || batch < 1) throw new RangeError(`db3BatchBytes=${batch}, expected an integer >= 1`);
    const batchNs = options.db3BatchDurationNs ?? DEFAULT_DB3_BATCH_NS;
    if (batchNs < 1n) throw new RangeError(`db3BatchDurationNs=${String(batchNs)}, expected >= 1`);
    if (storage === "sqlite3") {
      if (options.compression === "zstd") {
        throw new RangeError('compression="zstd" is MCAP chunk compression; storage "sqlite3" stores messages uncompressed, expected "none"');
      }
      // rosbag2's SequentialWriter refuses a split size below the plugin's minimum.
      if (maxSize > 0 && maxSize < DB3_MIN_SPLIT_BYTES) {
        throw new RangeError(`maxBagSizeBytes=${maxSize} is below the sqlite3 minimum split size, expected 0 or >= ${DB3_MIN_SPLIT_BYTES}`);
      }
      if (fs.createDb3 === undefined) throw new BagError(directory, "this file system cannot write sqlite3 (.db3) files");
    }
    // Refuse before creating anything, so a refused bag leaves nothing behind.
    const metadataPath = fs.join(directory, "metadata.yaml");
    if ((await fs.stat(metadataPath)) !== undefined) throw new BagError(metadataPath, "exists: refusing to overwrite a bag");
    const baseName = fs.basename(directory);
    // Neither storage opens an existing file for writing (rosbag2: "File ... already exists"): the
    // folder of a killed recording has its first file but no metadata.yaml, and that file holds
    // the recoverable messages (issue 16 item 2). Later split files are created exclusively too.
    const firstFile = fs.join(directory, `${baseName}_0.${storage === "sqlite3" ? "db3" : "mcap"}`);
    if ((await fs.stat(firstFile)) !== undefined) {
      const hint = storage === "mcap" ? " (a killed recording? `drone-harness bag recover` rebuilds it)" : "";
      throw new BagError(firstFile, `exists: refusing to overwrite a bag file${hint}`);
    }
    try {
      await fs.makeDirectory(directory);
    } catch (err) {
      throw new BagError(directory, `cannot create the bag directory: ${errorText(err)}`);
    }
    const compression = storage === "sqlite3" ? "none" : (options.compression ?? "zstd");
    const compressor = compression === "zstd" ? await zstdChunkCompressor(options.zstdLevel ?? 1) : undefined;
    const writer = new BagWriter(
      {
        fs,
        directory,
        storage,
        storagePreset: preset,
        db3BatchBytes: batch,
        db3BatchDurationNs: batchNs,
        compression,
        zstdLevel: options.zstdLevel ?? 1,
        chunkCrc: options.chunkCrc ?? false,
        chunkSizeBytes: chunk,
        maxBagSizeBytes: maxSize,
        maxBagDurationNs: maxDur,
        rosDistro: options.rosDistro ?? "jazzy",
        customData: options.customData ?? {},
        library: options.library ?? "drone-harness rosbag2 writer",
      },
      compressor,
      baseName,
    );
    // sqlite3: create the first file now, so an unwritable directory fails here, not mid-recording.
    if (storage === "sqlite3") await writer.#openFile(0n);
    return writer;
  }

  /** Declares a topic; messages can then be written to it. Re-declaring the same topic is a no-op. */
  async addTopic(topic: BagTopic): Promise<void> {
    this.#checkOpen();
    const known = this.#topics.get(topic.topic);
    if (known !== undefined) {
      if (known.type !== topic.type) {
        throw new BagError(this.options.directory, `topic ${topic.topic} is ${known.type}, cannot record it as ${topic.type}`);
      }
      return;
    }
    this.#topics.set(topic.topic, { ...topic, count: 0, sequence: 0 });
    if (this.#current !== undefined) await this.#registerChannel(this.#current, topic);
  }

  /** Appends one serialized (CDR) message received at `logTimeNs`. */
  async write(topic: string, logTimeNs: bigint, data: Uint8Array): Promise<void> {
    this.#checkOpen();
    const t = this.#topics.get(topic);
    if (t === undefined) throw new BagError(this.options.directory, `topic ${topic} was not added (addTopic) before writing`);
    let file = this.#current;
    if (file !== undefined && this.#shouldSplit(file, logTimeNs)) {
      await this.#closeFile(file);
      file = undefined;
    }
    file ??= await this.#openFile(logTimeNs);
    if (file.kind === "mcap") {
      const channelId = file.channelIds.get(topic);
      if (channelId === undefined) throw new Error(`channel of ${topic} missing in ${file.name}`);
      await file.writer.addMessage(channelId, t.sequence, logTimeNs, logTimeNs, data);
    } else {
      file.db.write(topic, logTimeNs, data);
    }
    t.sequence = (t.sequence + 1) >>> 0;
    t.count++;
    file.count++;
    if (file.count === 1 || logTimeNs < file.startNs) file.startNs = logTimeNs;
    if (file.count === 1 || logTimeNs > file.endNs) file.endNs = logTimeNs;
  }

  /** Finishes the current file and writes metadata.yaml; returns what it wrote. */
  async close(): Promise<BagMetadata> {
    this.#checkOpen();
    if (this.#current === undefined) await this.#openFile(0n);
    if (this.#current !== undefined) await this.#closeFile(this.#current);
    this.#closed = true;
    const md = this.metadata();
    await this.options.fs.writeText(this.options.fs.join(this.options.directory, "metadata.yaml"), stringifyBagMetadata(md));
    return md;
  }

  /** The metadata of the files closed so far. */
  metadata(): BagMetadata {
    const withMessages = this.#files.filter((f) => f.messageCount > 0);
    const start = withMessages.reduce<bigint | undefined>((m, f) => (m === undefined || f.startingTimeNs < m ? f.startingTimeNs : m), undefined);
    const end = withMessages.reduce<bigint | undefined>(
      (m, f) => (m === undefined || f.startingTimeNs + f.durationNs > m ? f.startingTimeNs + f.durationNs : m),
      undefined,
    );
    return {
      version: METADATA_VERSION,
      storageIdentifier: this.options.storage,
      relativeFilePaths: this.#files.map((f) => f.path),
      durationNs: start === undefined || end === undefined ? 0n : end - start,
      startingTimeNs: start ?? 0n,
      messageCount: this.#files.reduce((n, f) => n + f.messageCount, 0),
      topics: [...this.#topics.values()].map((t) => ({
        name: t.topic,
        type: t.type,
        serializationFormat: "cdr",
        offeredQosProfiles: t.offeredQosProfiles,
        typeDescriptionHash: t.typeHash ?? "",
        messageCount: t.count,
      })),
      // rosbag2 reports MCAP chunk compression only in the storage config, not here: the files
      // themselves are plain .mcap (compression_mode "" means no file/message compression).
      compressionFormat: "",
      compressionMode: "",
      files: [...this.#files],
      customData: { ...this.options.customData },
      rosDistro: this.options.rosDistro,
    };
  }

  #checkOpen(): void {
    if (this.#closed) throw new BagError(this.options.directory, "writer is closed");
  }

  #shouldSplit(file: OpenFile, logTimeNs: bigint): boolean {
    if (file.count === 0) return false;
    const { maxBagSizeBytes, maxBagDurationNs } = this.options;
    const size = file.kind === "mcap" ? file.file.position() : BigInt(file.db.sizeBytes());
    if (maxBagSizeBytes > 0 && size >= BigInt(maxBagSizeBytes)) return true;
    return maxBagDurationNs > 0n && logTimeNs - file.startNs >= maxBagDurationNs;
  }

  async #openFile(startNs: bigint): Promise<OpenFile> {
    if (this.options.storage === "sqlite3") return await this.#openDb3(startNs);
    const name = `${this.baseName}_${this.#files.length}.mcap`;
    const path = this.options.fs.join(this.options.directory, name);
    let file: WritableFile;
    try {
      file = await this.options.fs.openWrite(path);
    } catch (err) {
      throw new BagError(path, `cannot create the bag file: ${errorText(err)}`);
    }
    const writer = new Ros2McapWriter({
      writable: file,
      chunkSizeBytes: this.options.chunkSizeBytes,
      compressChunk: this.compressor,
      chunkCrc: this.options.chunkCrc,
      profile: "ros2",
      library: this.options.library,
    });
    await writer.start();
    const open: OpenMcap = { kind: "mcap", name, file, writer, channelIds: new Map(), schemaIds: new Map(), count: 0, startNs, endNs: startNs };
    for (const t of this.#topics.values()) await this.#registerChannel(open, t);
    this.#current = open;
    return open;
  }

  async #openDb3(startNs: bigint): Promise<OpenDb3> {
    const { fs, directory } = this.options;
    const name = `${this.baseName}_${this.#files.length}.db3`;
    const path = fs.join(directory, name);
    if (fs.createDb3 === undefined) throw new BagError(directory, "this file system cannot write sqlite3 (.db3) files");
    let db: Db3FileWriter;
    try {
      db = Db3FileWriter.create(fs.createDb3(path), {
        rosDistro: this.options.rosDistro,
        preset: this.options.storagePreset,
        batchBytes: this.options.db3BatchBytes,
        batchDurationNs: this.options.db3BatchDurationNs,
      });
    } catch (err) {
      // Remove what sqlite may have created, so a failed setup leaves no half-made .db3 behind.
      if ((await fs.stat(path)) === "file") await fs.removeFile?.(path).catch(() => undefined);
      throw new BagError(path, `cannot create the sqlite3 file: ${errorText(err)}`);
    }
    for (const t of this.#topics.values()) db.addTopic(t);
    const open: OpenDb3 = { kind: "sqlite3", name, db, count: 0, startNs, endNs: startNs };
    this.#current = open;
    return open;
  }

  async #registerChannel(file: OpenFile, t: BagTopic): Promise<void> {
    if (file.kind === "sqlite3") {
      file.db.addTopic(t);
      return;
    }
    let schemaId = file.schemaIds.get(t.type);
    if (schemaId === undefined) {
      schemaId = await file.writer.registerSchema({ name: t.type, encoding: "ros2msg", data: new TextEncoder().encode(t.schemaText) });
      file.schemaIds.set(t.type, schemaId);
    }
    const channelId = await file.writer.registerChannel({
      topic: t.topic,
      schemaId,
      messageEncoding: "cdr",
      metadata: new Map([
        ["offered_qos_profiles", t.offeredQosProfiles],
        ["topic_type_hash", t.typeHash ?? ""],
      ]),
    });
    file.channelIds.set(t.topic, channelId);
  }

  async #closeFile(file: OpenFile): Promise<void> {
    if (file.kind === "mcap") {
      await file.writer.end();
      await file.file.close();
    }
    this.#files.push({
      path: file.name,
      startingTimeNs: file.count === 0 ? 0n : file.startNs,
      durationNs: file.count === 0 ? 0n : file.endNs - file.startNs,
      messageCount: file.count,
    });
    this.#current = undefined;
    // rosbag2 stores the bag's metadata so far in each .db3 it closes (SqliteStorage::update_metadata).
    if (file.kind === "sqlite3") file.db.close({ version: METADATA_VERSION, yaml: metadataTableYaml(this.metadata()) });
  }
}

/**
 * The YAML rosbag2 puts in the .db3 `metadata` table: the BagMetadata node itself
 * (`YAML::convert<BagMetadata>::encode`), i.e. metadata.yaml without its
 * `rosbag2_bagfile_information` root key.
 */
export function metadataTableYaml(md: BagMetadata): string {
  const lines = stringifyBagMetadata(md).split("\n").slice(1);
  return lines.map((l) => (l.startsWith("  ") ? l.slice(2) : l)).join("\n");
}
