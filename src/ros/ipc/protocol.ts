import type { Parameter, QoSProfile, SetParametersResult } from "../graph/types";

/** Requests a client sends (JSON frames); every request carries an id echoed in its response. */
export type Request =
  | { id: number; op: "info" }
  | { id: number; op: "listNodes" }
  | { id: number; op: "listTopics" }
  | { id: number; op: "topicInfo"; topic: string }
  | { id: number; op: "stats" }
  | { id: number; op: "subscribe"; topic: string }
  | { id: number; op: "unsubscribe"; subscriptionId: number }
  | { id: number; op: "getParam"; node: string; name: string }
  | { id: number; op: "listParams"; node: string }
  | { id: number; op: "setParam"; node: string; name: string; value: string }
  /** Teaches the launch a message type from its full ros2msg text (a bag's schema), before publishing it. */
  | { id: number; op: "registerType"; typeName: string; schemaText: string };

/** `domainId`: the launch's ROS_DOMAIN_ID (absent in launches older than the field: domain 0). */
export type LaunchInfo = { pid: number; launchFile: string; startedAtMs: number; domainId?: number };
/** A publisher or subscription of a topic: its node ("/_embedded_raw" for tools) and QoS. */
export type EndpointInfo = { node: string; qos: QoSProfile };
/** A topic in a listing; `publishers` when the launch knows them (what `bag record` stores as offered QoS). */
export type TopicEntry = { name: string; types: string[]; publishers?: EndpointInfo[] };
/** `ros2 topic info` of one topic. */
export type TopicInfo = { name: string; type: string | undefined; publishers: EndpointInfo[]; subscriptions: EndpointInfo[] };
/** Delivery counts of one client subscription (answer to the `stats` op). */
export type SubscriptionStats = {
  subscriptionId: number;
  topic: string;
  /** Messages written to this client. */
  sent: number;
  /** Dropped by the server because the client's socket queue was over its cap (a slow client). */
  droppedSlowClient: number;
  /** Dropped by the graph's keep_last queue of the server's subscription before it was serviced. */
  droppedQueue: number;
};
export type StatsResult = { subscriptions: SubscriptionStats[] };
/** Header of a PUBLISH frame (frames.ts); the CDR bytes follow it. */
export type PublishHeader = { topic: string; typeName: string; qos?: QoSProfile };
export type SubscribeResult = { subscriptionId: number; topic: string; typeName: string | undefined };
/** A Parameter on the wire (byte arrays as plain number arrays). */
export type WireParameter = Parameter;

export type ResponseResult =
  | LaunchInfo
  | string[]
  | TopicEntry[]
  | TopicInfo
  | StatsResult
  | SubscribeResult
  | WireParameter
  | SetParametersResult
  | null;

export type Response = { id: number; ok: true; result: ResponseResult } | { id: number; ok: false; error: string };

/** Unsolicited events: a subscription's type became known (first message) or it ended. */
export type ServerEvent = { event: "subscriptionType"; subscriptionId: number; typeName: string } | { event: "closing" };
