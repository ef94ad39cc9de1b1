/**
 * Db3Connection on better-sqlite3 (version 12; 13 crashes on Node 20): a new .db3 file opened
 * read-write, as rosbag2's SqliteWrapper opens it for recording (SQLITE_OPEN_READWRITE |
 * SQLITE_OPEN_CREATE). Refuses a path that exists, as rosbag2's SqliteStorage::open does for
 * READ_WRITE ("Failed to create bag: File ... already exists!").
 */
import { lstatSync } from "node:fs";
import Database from "better-sqlite3";
import type { Db3Connection, Db3Statement, Db3Value } from "../BagStorage";

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** better-sqlite3 binds a BLOB only from a Buffer: wrap the bytes without copying them. */
function bindable(v: Db3Value): number | bigint | string | Buffer {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

export class BetterSqliteDb3Writer implements Db3Connection {
  readonly #db: Database.Database;

  constructor(path: string) {
    if (exists(path)) throw new Error("already exists");
    this.#db = new Database(path, { fileMustExist: false });
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  prepare(sql: string): Db3Statement {
    const stmt = this.#db.prepare(sql);
    return {
      run: (...params: Db3Value[]): number => {
        const res = stmt.run(...params.map(bindable));
        return Number(res.lastInsertRowid);
      },
    };
  }

  sizeBytes(): number {
    const count = this.#db.pragma("page_count", { simple: true }) as number;
    const size = this.#db.pragma("page_size", { simple: true }) as number;
    return count * size;
  }

  close(): void {
    this.#db.close();
  }
}
