import type { Parameter, QoSProfile, SetParametersResult } from "../graph/types";
import type { LaunchInfo, TopicEntry, TopicInfo } from "./protocol";

/** A live raw subscription held by the server for one client. */
export type TargetSubscription = {
  readonly topic: string;
  /** Messages the graph's keep_last queue of this subscription discarded (0 when not tracked). */
  droppedCount?(): number;
  destroy(): void;
};

/**
 * What the introspection server exposes (the ros2 daemon's role): implemented over a running
 * launch (src/ros/launch/launchIntrospection.ts) and by in-memory fakes in tests.
 */
export interface IntrospectionTarget {
  info(): LaunchInfo;
  listNodes(): string[];
  listTopics(): TopicEntry[];
  /** Raw CDR bytes of every message on `topic` (absolute name), with its type and receive time. */
  subscribeRaw(topic: string, callback: (bytes: Uint8Array, typeName: string, receiveTimeNs: bigint) => void): TargetSubscription;
  /** Publishers and subscriptions of `topic` with their QoS; throws naming the topic when unknown. */
  topicInfo(topic: string): TopicInfo;
  /** Publishes CDR bytes into the graph (typed subscribers get them decoded), e.g. from `bag play`. */
  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos?: QoSProfile): void;
  /**
   * Learns a message type from its full ros2msg text (a bag's schema) so it can be published;
   * no-op for a known type; throws naming the type when the text does not define it. Optional:
   * a target without it refuses the request.
   */
  registerType?(typeName: string, schemaText: string): void;
  /** Type of `topic` if known now. */
  topicType(topic: string): string | undefined;
  listParams(node: string): string[];
  /** Throws an Error naming the node or parameter when it does not exist. */
  getParam(node: string, name: string): Parameter;
  /** `value` as typed on a command line (YAML rules, see parseParameterValue). */
  setParam(node: string, name: string, value: string): SetParametersResult;
}
