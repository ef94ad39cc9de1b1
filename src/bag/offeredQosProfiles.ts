/**
 * The `offered_qos_profiles` string rosbag2 stores per topic (channel metadata in MCAP, a column
 * in .db3, a key in metadata.yaml): a YAML list of rmw_qos_profile_t with the policies as rmw
 * enum integers (rosbag2_storage qos.cpp, rosbag2 Iron/Jazzy format). Enum values from
 * rmw/types.h: history KEEP_LAST=1 KEEP_ALL=2; reliability RELIABLE=1 BEST_EFFORT=2; durability
 * TRANSIENT_LOCAL=1 VOLATILE=2; liveliness AUTOMATIC=1. Our profiles set no deadline, lifespan or
 * liveliness lease, i.e. the rmw defaults, RMW_DURATION_UNSPECIFIED = {sec: 0, nsec: 0}
 * (rmw/qos_profiles.h, RMW_QOS_DEADLINE_DEFAULT etc.): what rosbag2 itself stores for a default
 * publisher (../shared/fixtures/rosbag2/talker-mcap/metadata.yaml, /topic), and a value every
 * rosbag2 release parses (Foxy-era qos.cpp reads sec as a 32-bit unsigned).
 */
import { parse as parseYaml } from "yaml";
import type { QoSProfile } from "../ros/graph/types";

const UNSPECIFIED = "    sec: 0\n    nsec: 0";

function profileYaml(q: QoSProfile): string {
  const history = q.history === "keep_last" ? 1 : 2;
  const reliability = q.reliability === "reliable" ? 1 : 2;
  const durability = q.durability === "transient_local" ? 1 : 2;
  return [
    `- history: ${history}`,
    `  depth: ${q.depth}`,
    `  reliability: ${reliability}`,
    `  durability: ${durability}`,
    `  deadline:\n${UNSPECIFIED.replace(/^/gm, "  ")}`,
    `  lifespan:\n${UNSPECIFIED.replace(/^/gm, "  ")}`,
    "  liveliness: 1",
    `  liveliness_lease_duration:\n${UNSPECIFIED.replace(/^/gm, "  ")}`,
    "  avoid_ros_namespace_conventions: false",
  ].join("\n");
}

/** The rosbag2 string for the profiles offered by a topic's publishers. */
export function offeredQosProfilesYaml(profiles: readonly QoSProfile[]): string {
  return profiles.map(profileYaml).join("\n");
}

function policy<T>(value: unknown, map: Record<string, T>, fallback: T): T {
  const key = String(value).toLowerCase();
  return map[key] ?? fallback;
}

/**
 * Parses a rosbag2 offered_qos_profiles string (integer enums, or the names "keep_last",
 * "reliable", ... that version 9 writes). Unknown or system-default values map to the ROS 2
 * defaults (keep_last, reliable, volatile); depth 0 becomes 10 (rmw_qos_profile_default).
 */
export function parseOfferedQosProfiles(text: string): QoSProfile[] {
  if (text.trim() === "") return [];
  const list: unknown = parseYaml(text);
  if (!Array.isArray(list)) throw new Error(`offered_qos_profiles is not a YAML list: ${JSON.stringify(text.slice(0, 60))}`);
  return list.map((entry: unknown) => {
    const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    const depth = typeof e.depth === "number" && e.depth > 0 ? e.depth : 10;
    return {
      history: policy(e.history, { "1": "keep_last", "2": "keep_all", keep_last: "keep_last", keep_all: "keep_all" }, "keep_last"),
      depth,
      reliability: policy(e.reliability, { "1": "reliable", "2": "best_effort", reliable: "reliable", best_effort: "best_effort" }, "reliable"),
      durability: policy(
        e.durability,
        { "1": "transient_local", "2": "volatile", transient_local: "transient_local", volatile: "volatile" },
        "volatile",
      ),
    };
  });
}
