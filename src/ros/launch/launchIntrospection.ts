import type { RawTopicAccess } from "../graph/raw";
import type { Parameter, QoSProfile, RosGraph, RosNode, SetParametersResult } from "../graph/types";
import type { IntrospectionTarget } from "../ipc/IntrospectionTarget";
import type { EndpointInfo, LaunchInfo, TopicInfo } from "../ipc/protocol";
import type { MessageRegistry } from "../msgs/MessageRegistry";
import { parseParameterValue } from "../params";

/** A graph the introspection server can read: nodes, topics and raw bytes (EmbeddedGraph). */
export type IntrospectableGraph = RosGraph &
  RawTopicAccess & {
    /** The graph's message types (EmbeddedGraph); `registerType` adds to it. */
    registry?: MessageRegistry;
    node?(fullyQualifiedName: string): RosNode | undefined;
    topicInfo?(topic: string): {
      type: string | undefined;
      publishers: Array<{ node: string; qos: QoSProfile }>;
      subscriptions: Array<{ node: string; qos: QoSProfile }>;
    };
  };

/**
 * The QoS a tool subscription offers, chosen from the topic's publishers as ros2cli does
 * (ros2topic/api choose_qos): best effort if any publisher is best effort (a reliable reader would
 * be incompatible with it), transient local if every publisher is (to get latched messages).
 * A topic with no publisher yet (only the nodes' subscriptions, e.g. the sensor inputs before
 * `bag play` starts) gets best effort: the subscription is made once, and a best-effort reader
 * matches whatever publisher comes, where a reliable one missed every best-effort sensor message
 * (issue 16 item 11).
 */
export function toolQos(publishers: ReadonlyArray<{ qos: QoSProfile }>): QoSProfile {
  const bestEffort = publishers.length === 0 || publishers.some((p) => p.qos.reliability === "best_effort");
  const transientLocal = publishers.length > 0 && publishers.every((p) => p.qos.durability === "transient_local");
  return { history: "keep_last", depth: 100, reliability: bestEffort ? "best_effort" : "reliable", durability: transientLocal ? "transient_local" : "volatile" };
}

/** An endpoint as the protocol reports it (a copy: the graph's QoS object is not shared). */
const endpoint = (e: { node: string; qos: QoSProfile }): EndpointInfo => ({ node: e.node, qos: { ...e.qos } });

/** "harness" and "/harness" both name the root-namespace node, as in `ros2 param get`. */
const absolute = (name: string): string => (name.startsWith("/") ? name : `/${name}`);

/** Parameter names a node has declared (EmbeddedNode keeps them; other graphs may not expose them). */
function parameterNames(node: RosNode): string[] {
  const n = node as { listParameters?: () => unknown; parameterNames?: () => unknown };
  const list = typeof n.listParameters === "function" ? n.listParameters() : typeof n.parameterNames === "function" ? n.parameterNames() : undefined;
  if (Array.isArray(list)) return list.map((x) => (typeof x === "string" ? x : String((x as { name?: unknown }).name))).sort();
  throw new Error(`node ${node.fullyQualifiedName} does not expose its parameter list on this graph`);
}

/**
 * The IntrospectionTarget of a running launch: node and topic lists from the graph, raw CDR
 * subscriptions, and parameters of the launched nodes (found by fully qualified name).
 */
export function launchIntrospection(graph: IntrospectableGraph, findNode: (fqn: string) => RosNode | undefined, info: LaunchInfo): IntrospectionTarget {
  const nodeOrThrow = (name: string): RosNode => {
    const fqn = absolute(name);
    const node = findNode(fqn) ?? graph.node?.(fqn);
    if (node === undefined) throw new Error(`node ${fqn} not found (running: ${graph.nodeNames().join(", ") || "none"})`);
    return node;
  };
  return {
    info: () => info,
    listNodes: () => graph.nodeNames(),
    // Each topic with its publishers' QoS, so a remote `bag record` can store offered_qos_profiles.
    listTopics: () =>
      graph.topicNamesAndTypes().map((t) => {
        const info = graph.topicInfo?.(t.name);
        return info === undefined ? t : { ...t, publishers: info.publishers.map(endpoint) };
      }),
    topicInfo: (topic): TopicInfo => {
      const info = graph.topicInfo?.(topic);
      if (info === undefined) throw new Error(`topic info is not available on this graph (topic '${topic}')`);
      if (info.type === undefined && info.publishers.length === 0 && info.subscriptions.length === 0) throw new Error(`Unknown topic '${topic}'`);
      return { name: topic, type: info.type, publishers: info.publishers.map(endpoint), subscriptions: info.subscriptions.map(endpoint) };
    },
    publishRaw: (topic, typeName, bytes, qos) => {
      if (!topic.startsWith("/")) throw new RangeError(`topic "${topic}" must be an absolute name (start with "/")`);
      graph.publishRaw(topic, typeName, bytes, qos);
    },
    registerType: (typeName, schemaText) => {
      if (graph.registry === undefined) throw new Error(`this graph cannot learn message types (${typeName})`);
      graph.registry.addRos2MsgText(typeName, schemaText);
    },
    topicType: (topic) => graph.topicNamesAndTypes().find((t) => t.name === topic)?.types[0],
    subscribeRaw: (topic, callback) => {
      const sub = graph.subscribeRaw(topic, callback, { qos: toolQos(graph.topicInfo?.(topic).publishers ?? []) });
      return { topic: sub.topic, droppedCount: () => sub.droppedCount(), destroy: () => sub.destroy() };
    },
    listParams: (name) => parameterNames(nodeOrThrow(name)),
    getParam: (name, param): Parameter => {
      const node = nodeOrThrow(name);
      if (!node.hasParameter(param)) throw new Error(`Parameter not set: node ${node.fullyQualifiedName} has no parameter "${param}"`);
      return node.getParameter(param);
    },
    setParam: (name, param, text): SetParametersResult => {
      const node = nodeOrThrow(name);
      let typed = parseParameterValue(param, text);
      // "1" for a double parameter means 1.0 (ros2 param set would reject the integer type;
      // accepting it is friendlier and loses nothing).
      if (node.hasParameter(param)) {
        const current = node.getParameter(param);
        if (current.type === "double" && typed.type === "integer") typed = { type: "double", value: typed.value };
        if (current.type === "double_array" && typed.type === "integer_array") typed = { type: "double_array", value: typed.value };
      }
      const [result] = node.setParameters([{ name: param, type: typed.type, value: typed.value }]);
      return result ?? { successful: false, reason: "no result from setParameters" };
    },
  };
}
