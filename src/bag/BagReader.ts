/**
 * Opens a rosbag2 bag: a bag directory (metadata.yaml + one or more .mcap/.db3 files, split bags
 * included) or a single .mcap/.db3 file, and streams its messages in log-time order across files
 * (a k-way merge that holds one pending message per file: bounded memory).
 */
import { loadDecompressHandlers } from "./mcap";
import type { BagFileSystem, Db3Database, ReadableFile } from "./BagStorage";
import { parseBagMetadata, type BagMetadata } from "./BagMetadata";
import { commonSchemaText } from "./commonDefinitions";
import { readDb3File, type SchemaLookup } from "./Db3FileSource";
import { readMcapFile } from "./McapFileSource";
import { errorText } from "./MessageDecoder";
import { BagError, type BagMessage, type BagReadItem, type BagReadOptions } from "./types";

export type StorageId = "mcap" | "sqlite3";

export type OpenBagOptions = {
  /** Schema text of a type for .db3 files; default: the bundled Jazzy definitions. */
  lookupSchema?: SchemaLookup;
};

/** MCAP magic (foxglove/mcap docs/specification/README.md "Magic"). */
const MCAP_MAGIC = [0x89, 0x4d, 0x43, 0x41, 0x50, 0x30, 0x0d, 0x0a];
/** SQLite header string (sqlite.org/fileformat.html 1.3.1). */
const SQLITE_MAGIC = "SQLite format 3\0";

export function defaultSchemaLookup(type: string): string | undefined {
  try {
    return commonSchemaText(type);
  } catch {
    return undefined;
  }
}

/** The storage of a bag file from its first bytes; throws a BagError naming the file when neither. */
export async function sniffStorage(fs: BagFileSystem, path: string): Promise<StorageId> {
  const size = await fs.size(path);
  const file = await fs.openRead(path);
  try {
    const head = await file.read(0n, BigInt(Math.min(size, 16)));
    if (head.length >= 8 && MCAP_MAGIC.every((b, i) => head[i] === b)) return "mcap";
    if (head.length >= 16 && new TextDecoder().decode(head.subarray(0, 16)) === SQLITE_MAGIC) return "sqlite3";
  } finally {
    await file.close();
  }
  throw new BagError(path, `not a rosbag2 bag file: neither MCAP (magic \\x89MCAP0) nor SQLite 3 (${size} bytes)`);
}

function checkStorageId(metadataPath: string, id: string): StorageId {
  if (id === "mcap" || id === "sqlite3") return id;
  throw new BagError(metadataPath, `unknown storage_identifier "${id}", expected "mcap" or "sqlite3"`);
}

export class Bag {
  private constructor(
    private readonly fs: BagFileSystem,
    /** The path given to `open`. */
    readonly path: string,
    readonly storageId: StorageId,
    /** Absolute or caller-relative paths of the bag's files, in metadata order. */
    readonly files: readonly string[],
    /** metadata.yaml, or undefined for a single file opened without one. */
    readonly metadata: BagMetadata | undefined,
    private readonly lookupSchema: SchemaLookup,
  ) {}

  /** Opens a bag directory or a single bag file; throws a BagError naming the file and problem. */
  static async open(fs: BagFileSystem, path: string, options: OpenBagOptions = {}): Promise<Bag> {
    const lookup = options.lookupSchema ?? defaultSchemaLookup;
    const kind = await fs.stat(path);
    if (kind === undefined) throw new BagError(path, "no such file or directory");
    if (kind === "file") return new Bag(fs, path, await sniffStorage(fs, path), [path], undefined, lookup);
    const metadataPath = fs.join(path, "metadata.yaml");
    if ((await fs.stat(metadataPath)) !== "file") {
      throw new BagError(metadataPath, "missing: a rosbag2 bag directory needs its metadata.yaml");
    }
    let metadata: BagMetadata;
    try {
      metadata = parseBagMetadata(await fs.readText(metadataPath));
    } catch (err) {
      throw new BagError(metadataPath, `malformed: ${errorText(err)}`);
    }
    const storageId = checkStorageId(metadataPath, metadata.storageIdentifier);
    if (metadata.compressionMode === "file" || metadata.compressionMode === "message") {
      throw new BagError(
        metadataPath,
        `compression_mode "${metadata.compressionMode}" (${metadata.compressionFormat}) is not supported; only uncompressed files or MCAP chunk compression`,
      );
    }
    const files: string[] = [];
    for (const rel of metadata.relativeFilePaths) {
      const file = fs.join(path, rel);
      if ((await fs.stat(file)) !== "file") throw new BagError(file, `missing: listed in ${metadataPath}`);
      files.push(file);
    }
    if (files.length === 0) throw new BagError(metadataPath, "relative_file_paths is empty");
    return new Bag(fs, path, storageId, files, metadata, lookup);
  }

  /** Messages and problems, merged across files in log-time order. */
  async *items(options: BagReadOptions = {}): AsyncGenerator<BagReadItem> {
    const sources: { iter: AsyncGenerator<BagReadItem>; head: BagMessage | undefined }[] = [];
    const openFiles: (ReadableFile | Db3Database)[] = [];
    try {
      for (const file of this.files) {
        let iter: AsyncGenerator<BagReadItem>;
        try {
          if (this.storageId === "mcap") {
            const readable = await this.fs.openRead(file);
            openFiles.push(readable);
            iter = readMcapFile(file, readable, await loadDecompressHandlers(), options);
          } else {
            const db = this.fs.openDb3(file);
            openFiles.push(db);
            iter = readDb3File(file, db, this.lookupSchema, options);
          }
        } catch (err) {
          yield { type: "problem", file, message: `cannot open: ${errorText(err)}` };
          continue;
        }
        sources.push({ iter, head: undefined });
      }
      // Prime each source with its first message; problems are passed on as they appear.
      const live: typeof sources = [];
      for (const s of sources) {
        const problem = yield* advance(s);
        if (problem === "message") live.push(s);
      }
      while (live.length > 0) {
        let best = 0;
        for (let i = 1; i < live.length; i++) {
          const a = live[i]?.head;
          const b = live[best]?.head;
          if (a !== undefined && b !== undefined && a.logTimeNs < b.logTimeNs) best = i;
        }
        const src = live[best];
        if (src?.head === undefined) break;
        yield { type: "message", message: src.head };
        if ((yield* advance(src)) !== "message") live.splice(best, 1);
      }
    } finally {
      for (const f of openFiles) {
        if ("read" in f) await f.close();
        else f.close();
      }
    }
  }

  /** Messages in log-time order; throws a BagError after the last good message on a problem. */
  async *messages(options: BagReadOptions = {}): AsyncGenerator<BagMessage> {
    for await (const item of this.items(options)) {
      switch (item.type) {
        case "message":
          yield item.message;
          break;
        case "problem":
          throw new BagError(item.file, item.message);
      }
    }
  }
}

/** Moves a source to its next message, yielding any problem on the way. */
async function* advance(s: {
  iter: AsyncGenerator<BagReadItem>;
  head: BagMessage | undefined;
}): AsyncGenerator<BagReadItem, "message" | "end"> {
  for (;;) {
    const next = await s.iter.next();
    if (next.done === true) {
      s.head = undefined;
      return "end";
    }
    const item = next.value;
    switch (item.type) {
      case "message":
        s.head = item.message;
        return "message";
      case "problem":
        yield item;
        break;
    }
  }
}
