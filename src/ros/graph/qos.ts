import type { QoSProfile } from "./types";

/**
 * Request-vs-offered QoS compatibility as in ROS 2 (docs.ros.org "Quality of Service settings",
 * QoS compatibilities table): a best-effort publisher cannot serve a reliable subscription, and a
 * volatile publisher cannot serve a transient-local subscription. Returns the incompatible policy
 * name (as rclcpp's "Last incompatible policy") or undefined when compatible.
 */
export function incompatiblePolicy(offered: QoSProfile, requested: QoSProfile): "RELIABILITY" | "DURABILITY" | undefined {
  if (offered.reliability === "best_effort" && requested.reliability === "reliable") return "RELIABILITY";
  if (offered.durability === "volatile" && requested.durability === "transient_local") return "DURABILITY";
  return undefined;
}

/** Throws on a profile the graph cannot honour (depth must be a positive integer for keep_last). */
export function validateQoS(qos: QoSProfile, what: string): void {
  if (qos.history === "keep_last" && (!Number.isInteger(qos.depth) || qos.depth < 1)) {
    throw new Error(`${what}: QoS depth=${qos.depth}, expected an integer >= 1 for keep_last`);
  }
}
