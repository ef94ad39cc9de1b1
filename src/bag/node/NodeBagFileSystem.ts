/** BagFileSystem on Node's fs (the only place the bag code touches files). */
import { constants as fsConstants, promises as fsp } from "node:fs";
import * as nodePath from "node:path";
import type { BagFileSystem, Db3Connection, Db3Database, ReadableFile, WritableFile } from "../BagStorage";
import { BetterSqliteDb3 } from "./BetterSqliteDb3";
import { BetterSqliteDb3Writer } from "./BetterSqliteDb3Writer";

/**
 * "wx" (create a new file, fail with EEXIST when something is at the path, symlinks included):
 * bag files and recovered files never replace an existing file (issue 16 items 2 and 3).
 */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

/**
 * "w" (create or truncate) that refuses a symlink as the file itself (O_NOFOLLOW, open(2): ELOOP),
 * so a link planted in an output directory cannot redirect a bag file or metadata.yaml to a file
 * outside it (test/faults/outputPaths.test.ts).
 */
const WRITE_NOFOLLOW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW;

/** Appends through a 1 MiB staging buffer so small MCAP records do not each cost a syscall. */
class BufferedFileWritable implements WritableFile {
  readonly #buf = Buffer.allocUnsafe(1 << 20);
  #used = 0;
  #pos = 0n;

  constructor(private readonly handle: fsp.FileHandle) {}

  position(): bigint {
    return this.#pos;
  }

  async write(data: Uint8Array): Promise<void> {
    this.#pos += BigInt(data.byteLength);
    // Large pieces (chunks) go straight to the file: no copy through the staging buffer.
    if (data.byteLength >= 64 * 1024) {
      await this.#flush();
      await this.handle.write(data);
      return;
    }
    if (this.#used + data.byteLength > this.#buf.length) await this.#flush();
    this.#buf.set(data, this.#used);
    this.#used += data.byteLength;
  }

  async #flush(): Promise<void> {
    if (this.#used === 0) return;
    await this.handle.write(this.#buf, 0, this.#used);
    this.#used = 0;
  }

  async close(): Promise<void> {
    await this.#flush();
    await this.handle.close();
  }
}

class FileReadable implements ReadableFile {
  constructor(private readonly handle: fsp.FileHandle) {}

  async size(): Promise<bigint> {
    return BigInt((await this.handle.stat()).size);
  }

  async read(offset: bigint, size: bigint): Promise<Uint8Array> {
    if (size > BigInt(Number.MAX_SAFE_INTEGER) || offset > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RangeError(`read of ${String(size)} bytes at ${String(offset)} exceeds 2^53`);
    }
    const out = Buffer.allocUnsafe(Number(size));
    let done = 0;
    while (done < out.length) {
      const { bytesRead } = await this.handle.read(out, done, out.length - done, Number(offset) + done);
      if (bytesRead === 0) throw new RangeError(`read past the end of the file at ${Number(offset) + done}`);
      done += bytesRead;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

export class NodeBagFileSystem implements BagFileSystem {
  async stat(path: string): Promise<"file" | "directory" | undefined> {
    try {
      const s = await fsp.stat(path);
      return s.isDirectory() ? "directory" : s.isFile() ? "file" : undefined;
    } catch {
      return undefined;
    }
  }

  async size(path: string): Promise<number> {
    return (await fsp.stat(path)).size;
  }

  async readText(path: string): Promise<string> {
    return await fsp.readFile(path, "utf8");
  }

  async writeText(path: string, text: string): Promise<void> {
    await fsp.writeFile(path, text, { encoding: "utf8", flag: WRITE_NOFOLLOW });
  }

  async listDirectory(path: string): Promise<string[]> {
    return (await fsp.readdir(path)).sort();
  }

  async makeDirectory(path: string): Promise<void> {
    await fsp.mkdir(path, { recursive: true });
  }

  async openRead(path: string): Promise<ReadableFile> {
    return new FileReadable(await fsp.open(path, "r"));
  }

  async openWrite(path: string): Promise<WritableFile> {
    return new BufferedFileWritable(await fsp.open(path, CREATE_NEW));
  }

  async sameFile(a: string, b: string): Promise<boolean> {
    try {
      const [sa, sb] = await Promise.all([fsp.stat(a, { bigint: true }), fsp.stat(b, { bigint: true })]);
      return sa.dev === sb.dev && sa.ino === sb.ino;
    } catch {
      return false;
    }
  }

  openDb3(path: string): Db3Database {
    return new BetterSqliteDb3(path);
  }

  createDb3(path: string): Db3Connection {
    return new BetterSqliteDb3Writer(path);
  }

  async removeFile(path: string): Promise<void> {
    await fsp.rm(path, { force: true });
  }

  join(...parts: string[]): string {
    return nodePath.join(...parts);
  }

  basename(path: string): string {
    return nodePath.basename(path);
  }
}
