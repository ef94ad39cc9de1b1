/**
 * metadata.yaml of a rosbag2 bag (`rosbag2_bagfile_information`), as read and written by
 * rosbag2_storage's metadata_io.cpp. Versions 1..9 are read; we write version 8 (rosbag2 Iron,
 * read by Humble's rosbag2 too, which ignores unknown keys): files, custom_data, ros_distro and
 * type_description_hash present, offered_qos_profiles as a YAML string.
 */
import { parse as parseYaml } from "yaml";

export type BagFileInfo = { path: string; startingTimeNs: bigint; durationNs: bigint; messageCount: number };

export type BagTopicInfo = {
  name: string;
  type: string;
  serializationFormat: string;
  offeredQosProfiles: string;
  typeDescriptionHash: string;
  messageCount: number;
};

export type BagMetadata = {
  version: number;
  storageIdentifier: string;
  relativeFilePaths: string[];
  durationNs: bigint;
  startingTimeNs: bigint;
  messageCount: number;
  topics: BagTopicInfo[];
  compressionFormat: string;
  compressionMode: string;
  /** Present from version 5. */
  files: BagFileInfo[];
  customData: Record<string, string>;
  rosDistro: string;
};

/** The version this writer emits. */
export const METADATA_VERSION = 8;

type Obj = Record<string, unknown>;

function obj(value: unknown, what: string): Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} is not a mapping`);
  return value as Obj;
}

function big(value: unknown, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  throw new Error(`${what} is ${JSON.stringify(String(value))}, expected an integer`);
}

function num(value: unknown, what: string): number {
  const b = big(value, what);
  if (b < 0n || b > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${what}=${b} is outside [0, 2^53)`);
  return Number(b);
}

function str(value: unknown, fallback = ""): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  // Version 9 may store offered_qos_profiles as a YAML sequence rather than a string.
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
}

/** Parses metadata.yaml text; throws an Error naming the missing or malformed key. */
export function parseBagMetadata(text: string): BagMetadata {
  const root = obj(parseYaml(text, { intAsBigInt: true }), "metadata.yaml");
  const info = obj(root.rosbag2_bagfile_information, "rosbag2_bagfile_information");
  const duration = obj(info.duration, "duration");
  const starting = obj(info.starting_time, "starting_time");
  const topicsRaw = info.topics_with_message_count ?? [];
  if (!Array.isArray(topicsRaw)) throw new Error("topics_with_message_count is not a list");
  const topics: BagTopicInfo[] = topicsRaw.map((t: unknown, i) => {
    const entry = obj(t, `topics_with_message_count[${i}]`);
    const md = obj(entry.topic_metadata, `topics_with_message_count[${i}].topic_metadata`);
    return {
      name: str(md.name),
      type: str(md.type),
      serializationFormat: str(md.serialization_format, "cdr"),
      offeredQosProfiles: str(md.offered_qos_profiles),
      typeDescriptionHash: str(md.type_description_hash),
      messageCount: num(entry.message_count, `topics_with_message_count[${i}].message_count`),
    };
  });
  const pathsRaw = info.relative_file_paths ?? [];
  if (!Array.isArray(pathsRaw)) throw new Error("relative_file_paths is not a list");
  const filesRaw = info.files ?? [];
  if (!Array.isArray(filesRaw)) throw new Error("files is not a list");
  const files: BagFileInfo[] = filesRaw.map((f: unknown, i) => {
    const e = obj(f, `files[${i}]`);
    return {
      path: str(e.path),
      startingTimeNs: big(obj(e.starting_time, `files[${i}].starting_time`).nanoseconds_since_epoch, `files[${i}].starting_time`),
      durationNs: big(obj(e.duration, `files[${i}].duration`).nanoseconds, `files[${i}].duration`),
      messageCount: num(e.message_count, `files[${i}].message_count`),
    };
  });
  const custom: Record<string, string> = {};
  if (info.custom_data !== undefined && info.custom_data !== null) {
    for (const [k, v] of Object.entries(obj(info.custom_data, "custom_data"))) custom[k] = str(v);
  }
  return {
    version: num(info.version, "version"),
    storageIdentifier: str(info.storage_identifier),
    relativeFilePaths: pathsRaw.map((p: unknown) => str(p)),
    durationNs: big(duration.nanoseconds, "duration.nanoseconds"),
    startingTimeNs: big(starting.nanoseconds_since_epoch, "starting_time.nanoseconds_since_epoch"),
    messageCount: num(info.message_count, "message_count"),
    topics,
    compressionFormat: str(info.compression_format),
    compressionMode: str(info.compression_mode),
    files,
    customData: custom,
    rosDistro: str(info.ros_distro),
  };
}

/** A YAML double-quoted scalar (JSON strings are valid YAML 1.2 double-quoted scalars). */
function q(s: string): string {
  return JSON.stringify(s);
}

/** Serializes in the layout rosbag2's metadata_io.cpp (yaml-cpp, block style) writes. */
export function stringifyBagMetadata(md: BagMetadata): string {
  const L: string[] = ["rosbag2_bagfile_information:"];
  L.push(`  version: ${md.version}`);
  L.push(`  storage_identifier: ${md.storageIdentifier}`);
  L.push("  duration:", `    nanoseconds: ${md.durationNs}`);
  L.push("  starting_time:", `    nanoseconds_since_epoch: ${md.startingTimeNs}`);
  L.push(`  message_count: ${md.messageCount}`);
  L.push(md.topics.length === 0 ? "  topics_with_message_count: []" : "  topics_with_message_count:");
  for (const t of md.topics) {
    L.push("    - topic_metadata:");
    L.push(`        name: ${q(t.name)}`);
    L.push(`        type: ${q(t.type)}`);
    L.push(`        serialization_format: ${q(t.serializationFormat)}`);
    L.push(`        offered_qos_profiles: ${q(t.offeredQosProfiles)}`);
    L.push(`        type_description_hash: ${q(t.typeDescriptionHash)}`);
    L.push(`      message_count: ${t.messageCount}`);
  }
  L.push(`  compression_format: ${q(md.compressionFormat)}`);
  L.push(`  compression_mode: ${q(md.compressionMode)}`);
  L.push(md.relativeFilePaths.length === 0 ? "  relative_file_paths: []" : "  relative_file_paths:");
  for (const p of md.relativeFilePaths) L.push(`    - ${q(p)}`);
  L.push(md.files.length === 0 ? "  files: []" : "  files:");
  for (const f of md.files) {
    L.push(`    - path: ${q(f.path)}`);
    L.push("      starting_time:", `        nanoseconds_since_epoch: ${f.startingTimeNs}`);
    L.push("      duration:", `        nanoseconds: ${f.durationNs}`);
    L.push(`      message_count: ${f.messageCount}`);
  }
  const custom = Object.entries(md.customData);
  L.push(custom.length === 0 ? "  custom_data: ~" : "  custom_data:");
  for (const [k, v] of custom) L.push(`    ${q(k)}: ${q(v)}`);
  L.push(`  ros_distro: ${q(md.rosDistro)}`);
  return L.join("\n") + "\n";
}
