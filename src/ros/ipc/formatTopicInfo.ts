import type { QoSProfile } from "../graph/types";
import type { EndpointInfo, TopicInfo } from "./protocol";

/** "/drone1/camera" -> ["camera", "/drone1"]; "/talker" -> ["talker", "/"]. */
function splitNodeName(fqn: string): [string, string] {
  const i = fqn.lastIndexOf("/");
  return [fqn.slice(i + 1), i <= 0 ? "/" : fqn.slice(0, i)];
}

/**
 * The QoS block of rclpy's TopicEndpointInfo.__str__ (Jazzy): policies as the rmw enum names, the
 * depth after KEEP_LAST. The embedded graph has no deadline, lifespan or liveliness policies, so
 * they are the rmw defaults: infinite durations and AUTOMATIC liveliness.
 */
function qosLines(q: QoSProfile): string[] {
  return [
    "QoS profile:",
    `  Reliability: ${q.reliability.toUpperCase()}`,
    `  History (Depth): ${q.history === "keep_last" ? `KEEP_LAST (${q.depth})` : "KEEP_ALL"}`,
    `  Durability: ${q.durability.toUpperCase()}`,
    "  Lifespan: Infinite",
    "  Deadline: Infinite",
    "  Liveliness: AUTOMATIC",
    "  Liveliness lease duration: Infinite",
  ];
}

function endpointLines(e: EndpointInfo, type: string, kind: "PUBLISHER" | "SUBSCRIPTION"): string[] {
  const [name, namespace] = splitNodeName(e.node);
  return [`Node name: ${name}`, `Node namespace: ${namespace}`, `Topic type: ${type}`, `Endpoint type: ${kind}`, ...qosLines(e.qos), ""];
}

/**
 * `ros2 topic info <topic> [-v]` output (ros2cli ros2topic/verb/info.py; endpoint text as rclpy
 * TopicEndpointInfo): Type, Publisher count, Subscription count, and with `verbose` a blank line
 * after each and every endpoint's node, type and QoS. The embedded graph has no DDS GIDs or type
 * hashes, so the "GID" and "Topic type hash" lines are left out.
 */
export function formatTopicInfo(info: TopicInfo, options: { verbose?: boolean } = {}): string {
  const type = info.type ?? "unknown";
  if (options.verbose !== true) {
    return `Type: ${type}\nPublisher count: ${info.publishers.length}\nSubscription count: ${info.subscriptions.length}\n`;
  }
  const lines = [`Type: ${type}`, "", `Publisher count: ${info.publishers.length}`, ""];
  for (const p of info.publishers) lines.push(...endpointLines(p, type, "PUBLISHER"));
  lines.push(`Subscription count: ${info.subscriptions.length}`, "");
  for (const s of info.subscriptions) lines.push(...endpointLines(s, type, "SUBSCRIPTION"));
  return lines.join("\n");
}
