/**
 * The rosbag2 sqlite3 (.db3) layout we write: schema version 4, the one rosbag2 has created since
 * Iron (ros2/rosbag2 rosbag2_storage_sqlite3/src/rosbag2_storage_sqlite3/sqlite_storage.cpp,
 * `SqliteStorage::initialize()`, `create_topic()`, `prepare_for_writing()`, `update_metadata()`).
 * The statements are rosbag2's, character for character, so a reader that inspects the table SQL
 * (rosbag2's `SqliteWrapper::field_exists` searches `sqlite_master.sql` with INSTR) sees what it
 * expects. Humble's plugin reads the same tables with explicit column lists and ignores the
 * `message_definitions` table and the `type_description_hash` column it does not know.
 */

/** `kDBSchemaVersion_` of the sqlite3 plugin from Iron on. */
export const DB3_SCHEMA_VERSION = 4;

/** Table and index creation, in rosbag2's order. */
export const DB3_CREATE_STATEMENTS: readonly string[] = [
  "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);",
  "CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);",
  "CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL," +
    "offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);",
  "CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL," +
    "encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);",
  "CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);",
  "CREATE INDEX timestamp_idx ON messages (timestamp ASC);",
];

export const DB3_INSERT_SCHEMA = "INSERT INTO schema (schema_version, ros_distro) VALUES (?, ?)";
export const DB3_INSERT_TOPIC =
  "INSERT INTO topics(name, type, serialization_format, offered_qos_profiles, type_description_hash) VALUES (?, ?, ?, ?, ?)";
export const DB3_INSERT_DEFINITION =
  "INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)";
export const DB3_INSERT_MESSAGE = "INSERT INTO messages (timestamp, topic_id, data) VALUES (?, ?, ?);";
export const DB3_INSERT_METADATA = "INSERT INTO metadata (metadata_version, metadata) VALUES (?, ?)";

/**
 * Connection pragmas of rosbag2's storage presets (rosbag2_storage_sqlite3/sqlite_pragmas.hpp):
 * the default ("none", write-optimized) keeps the rollback journal in memory and does not sync;
 * "resilient" uses a write-ahead log with synchronous=NORMAL, so a crash loses at most the open
 * transaction and never corrupts the file.
 */
export type Db3Preset = "none" | "resilient";

export const DB3_PRESET_PRAGMAS: Readonly<Record<Db3Preset, readonly string[]>> = {
  none: ["journal_mode = MEMORY", "synchronous = OFF"],
  resilient: ["journal_mode = WAL", "synchronous = NORMAL"],
};

/**
 * rosbag2's estimate of the bytes one message adds to the file beyond its data (three int64
 * columns), used between exact page counts (sqlite_storage.cpp `write_messages`).
 */
export const DB3_ROW_OVERHEAD_BYTES = 24;
