/**
 * Db3Database on better-sqlite3 (version 12; 13 crashes on Node 20), opened read-only.
 * Table layout: rosbag2_storage_sqlite3 sqlite_storage.cpp (topics, messages,
 * message_definitions from Iron on).
 */
import Database from "better-sqlite3";
import type { Db3Database, Db3MessageDefinitionRow, Db3MessageRow, Db3TopicRow } from "../BagStorage";

type TopicSqlRow = {
  id: number;
  name: string;
  type: string;
  serialization_format: string;
  offered_qos_profiles?: string;
  type_description_hash?: string;
};
type DefinitionSqlRow = { topic_type: string; encoding: string; encoded_message_definition: string };
type MessageSqlRow = { topic_id: bigint; timestamp: bigint; data: Buffer };

export class BetterSqliteDb3 implements Db3Database {
  readonly #db: Database.Database;

  constructor(path: string) {
    this.#db = new Database(path, { readonly: true, fileMustExist: true });
  }

  #hasTable(name: string): boolean {
    return this.#db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
  }

  topics(): Db3TopicRow[] {
    if (!this.#hasTable("topics")) throw new Error("no table \"topics\"");
    const rows = this.#db.prepare("SELECT * FROM topics ORDER BY id").all() as TopicSqlRow[];
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      type: r.type,
      serializationFormat: r.serialization_format,
      offeredQosProfiles: r.offered_qos_profiles ?? "",
      typeDescriptionHash: r.type_description_hash ?? "",
    }));
  }

  messageDefinitions(): Db3MessageDefinitionRow[] {
    if (!this.#hasTable("message_definitions")) return [];
    const rows = this.#db
      .prepare("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions")
      .all() as DefinitionSqlRow[];
    return rows.map((r) => ({ topicType: r.topic_type, encoding: r.encoding, encodedMessageDefinition: r.encoded_message_definition }));
  }

  *messages(filter: { topicIds: readonly number[]; startNs: bigint; endNs: bigint }): Iterable<Db3MessageRow> {
    if (filter.topicIds.length === 0) return;
    const placeholders = filter.topicIds.map(() => "?").join(",");
    const stmt = this.#db
      .prepare(
        `SELECT topic_id, timestamp, data FROM messages WHERE timestamp >= ? AND timestamp <= ? AND topic_id IN (${placeholders}) ORDER BY timestamp, id`,
      )
      .safeIntegers(true);
    for (const row of stmt.iterate(filter.startNs, filter.endNs, ...filter.topicIds) as Iterable<MessageSqlRow>) {
      yield { topicId: Number(row.topic_id), timestampNs: row.timestamp, data: row.data };
    }
  }

  close(): void {
    this.#db.close();
  }
}
