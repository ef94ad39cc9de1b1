/** An in-memory BagFileSystem for tests (the mcap TempBuffer idea applied to a directory tree). */
import * as path from "node:path";
import type { BagFileSystem, Db3Database, ReadableFile, WritableFile } from "../../src/bag/BagStorage";

export class MemoryBagFileSystem implements BagFileSystem {
  readonly files = new Map<string, Uint8Array>();
  readonly dirs = new Set<string>(["/"]);

  async stat(p: string): Promise<"file" | "directory" | undefined> {
    if (this.files.has(p)) return "file";
    return this.dirs.has(p) ? "directory" : undefined;
  }
  async size(p: string): Promise<number> {
    return this.#get(p).byteLength;
  }
  async readText(p: string): Promise<string> {
    return new TextDecoder().decode(this.#get(p));
  }
  async writeText(p: string, text: string): Promise<void> {
    this.files.set(p, new TextEncoder().encode(text));
  }
  async listDirectory(p: string): Promise<string[]> {
    return [...this.files.keys(), ...this.dirs].filter((f) => path.dirname(f) === p && f !== p).map((f) => path.basename(f)).sort();
  }
  async makeDirectory(p: string): Promise<void> {
    for (let d = p; d !== "/" && d !== "."; d = path.dirname(d)) this.dirs.add(d);
  }
  async openRead(p: string): Promise<ReadableFile> {
    const data = this.#get(p);
    return {
      size: async () => BigInt(data.byteLength),
      read: async (offset: bigint, size: bigint) => {
        if (offset + size > BigInt(data.byteLength)) throw new RangeError("read past end");
        return data.slice(Number(offset), Number(offset + size));
      },
      close: async () => undefined,
    };
  }
  async openWrite(p: string): Promise<WritableFile> {
    const chunks: Uint8Array[] = [];
    let pos = 0n;
    // As the Node adapter ("wx"): a new file only.
    if (this.files.has(p) || this.dirs.has(p)) throw new Error(`EEXIST: file already exists, open '${p}'`);
    this.files.set(p, new Uint8Array(0));
    return {
      position: () => pos,
      write: async (buf: Uint8Array) => {
        chunks.push(buf.slice());
        pos += BigInt(buf.byteLength);
      },
      close: async () => {
        this.files.set(p, Buffer.concat(chunks));
      },
    };
  }
  openDb3(p: string): Db3Database {
    throw new Error(`${p}: the in-memory file system has no sqlite`);
  }
  join(...parts: string[]): string {
    return path.posix.join(...parts);
  }
  basename(p: string): string {
    return path.posix.basename(p);
  }
  #get(p: string): Uint8Array {
    const f = this.files.get(p);
    if (f === undefined) throw new Error(`ENOENT: ${p}`);
    return f;
  }
}

/** A ReadableFile over bytes (for McapIndexedReader in tests). */
export function bytesReadable(data: Uint8Array): ReadableFile {
  return {
    size: async () => BigInt(data.byteLength),
    read: async (offset: bigint, size: bigint) => data.slice(Number(offset), Number(offset + size)),
    close: async () => undefined,
  };
}
