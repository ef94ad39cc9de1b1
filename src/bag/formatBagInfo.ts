/**
 * `ros2 bag info` output, after rosbag2_py format_bag_metadata.cpp (ros2/rosbag2): the field
 * labels padded to 19 columns, file size in B/KiB/MiB with one decimal, start and end as local
 * time "%b %e %Y %H:%M:%S.<fraction> (<sec>.<fraction>)", one line per topic. The fraction is
 * printed with nine digits (nanoseconds) as rosbag2 Iron and later do; Humble printed
 * milliseconds.
 */
import type { BagMetadata } from "./BagMetadata";

const INDENT = " ".repeat(19);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export type FormatBagInfoOptions = {
  /** Total size of the bag's files in bytes. */
  bagSizeBytes: number;
  /** Minutes east of UTC for local time (default: this machine's zone at that instant). */
  utcOffsetMinutes?: (epochMs: number) => number;
};

export function formatFileSize(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let size = bytes;
  let i = 0;
  while (size >= 1024 && i < 4) {
    size /= 1024;
    i++;
  }
  return `${size.toFixed(i === 0 ? 0 : 1)} ${units[i] ?? "B"}`;
}

function secFrac(ns: bigint): { sec: bigint; frac: string } {
  const sec = ns / 1_000_000_000n;
  const frac = (ns % 1_000_000_000n).toString().padStart(9, "0");
  return { sec, frac };
}

/** "Apr  2 2020 22:23:55.112411371 (1585866235.112411371)" */
export function formatTimePoint(ns: bigint, utcOffsetMinutes: (epochMs: number) => number): string {
  const { sec, frac } = secFrac(ns);
  const ms = Number(sec) * 1000;
  const local = new Date(ms + utcOffsetMinutes(ms) * 60_000);
  const p2 = (n: number): string => String(n).padStart(2, "0");
  const date = `${MONTHS[local.getUTCMonth()] ?? ""} ${String(local.getUTCDate()).padStart(2, " ")} ${local.getUTCFullYear()}`;
  const time = `${p2(local.getUTCHours())}:${p2(local.getUTCMinutes())}:${p2(local.getUTCSeconds())}.${frac}`;
  return `${date} ${time} (${sec.toString()}.${frac})`;
}

const localOffset = (epochMs: number): number => -new Date(epochMs).getTimezoneOffset();

export function formatBagInfo(md: BagMetadata, options: FormatBagInfoOptions): string {
  const offset = options.utcOffsetMinutes ?? localOffset;
  const d = secFrac(md.durationNs);
  const lines: string[] = [""];
  const files = md.relativeFilePaths;
  lines.push(`Files:             ${files[0] ?? ""}`);
  for (const f of files.slice(1)) lines.push(INDENT + f);
  lines.push(`Bag size:          ${formatFileSize(options.bagSizeBytes)}`);
  lines.push(`Storage id:        ${md.storageIdentifier}`);
  lines.push(`ROS Distro:        ${md.rosDistro === "" ? "unknown" : md.rosDistro}`);
  lines.push(`Duration:          ${d.sec.toString()}.${d.frac}s`);
  lines.push(`Start:             ${formatTimePoint(md.startingTimeNs, offset)}`);
  lines.push(`End:               ${formatTimePoint(md.startingTimeNs + md.durationNs, offset)}`);
  lines.push(`Messages:          ${md.messageCount}`);
  const topicLine = (t: BagMetadata["topics"][number]): string =>
    `Topic: ${t.name} | Type: ${t.type} | Count: ${t.messageCount} | Serialization Format: ${t.serializationFormat}`;
  const [first, ...rest] = md.topics;
  lines.push(`Topic information: ${first === undefined ? "" : topicLine(first)}`);
  for (const t of rest) lines.push(INDENT + topicLine(t));
  return lines.join("\n") + "\n";
}
