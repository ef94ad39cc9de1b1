import type { Parameter, SetParametersResult } from "../graph/types";

/** Requests a client sends (JSON frames); every request carries an id echoed in its response. */
export type Request =
  | { id: number; op: "info" }
  | { id: number; op: "listNodes" }
  | { id: number; op: "listTopics" }
  | { id: number; op: "subscribe"; topic: string }
  | { id: number; op: "unsubscribe"; subscriptionId: number }
  | { id: number; op: "getParam"; node: string; name: string }
  | { id: number; op: "listParams"; node: string }
  | { id: number; op: "setParam"; node: string; name: string; value: string };

export type LaunchInfo = { pid: number; launchFile: string; startedAtMs: number };
export type TopicEntry = { name: string; types: string[] };
export type SubscribeResult = { subscriptionId: number; topic: string; typeName: string | undefined };
/** A Parameter on the wire (byte arrays as plain number arrays). */
export type WireParameter = Parameter;

export type ResponseResult = LaunchInfo | string[] | TopicEntry[] | SubscribeResult | WireParameter | SetParametersResult | null;

export type Response = { id: number; ok: true; result: ResponseResult } | { id: number; ok: false; error: string };

/** Unsolicited events: a subscription's type became known (first message) or it ended. */
export type ServerEvent = { event: "subscriptionType"; subscriptionId: number; typeName: string } | { event: "closing" };
