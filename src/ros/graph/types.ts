/**
 * The graph interface every node in this package is written against. It is shaped like
 * rclnodejs's `Node` (types/node.d.ts: createPublisher(typeClass, topic, options),
 * createSubscription(typeClass, topic, options, callback), createTimer(period: bigint ns, cb),
 * declareParameter/getParameter/setParameters, getLogger, getClock), so one node file runs on the
 * embedded in-process graph (the default) and on real ROS 2 through the rclnodejs adapter.
 *
 * Message values are plain records matching the ROS 2 .msg definitions (see
 * src/ros/msgs/generated.ts); types are named "pkg/msg/Name".
 */

/** ROS 2 time: seconds + nanoseconds (builtin_interfaces/msg/Time). */
export type RosTime = { sec: number; nanosec: number };

export type HistoryPolicy = "keep_last" | "keep_all";
export type ReliabilityPolicy = "reliable" | "best_effort";
export type DurabilityPolicy = "volatile" | "transient_local";

/** QoS profile (rmw_qos_profile_t subset that the embedded graph implements). */
export type QoSProfile = {
  history: HistoryPolicy;
  /** Queue depth for keep_last. */
  depth: number;
  reliability: ReliabilityPolicy;
  durability: DurabilityPolicy;
};

/** rmw_qos_profile_sensor_data: best effort, keep last 5 (rmw/qos_profiles.h). */
export const QOS_SENSOR_DATA: QoSProfile = { history: "keep_last", depth: 5, reliability: "best_effort", durability: "volatile" };
/** rmw_qos_profile_default: reliable, keep last 10, volatile. */
export const QOS_DEFAULT: QoSProfile = { history: "keep_last", depth: 10, reliability: "reliable", durability: "volatile" };
/** The /rosout and latched-topic profile: reliable, transient local. */
export const QOS_TRANSIENT_LOCAL: QoSProfile = { history: "keep_last", depth: 10, reliability: "reliable", durability: "transient_local" };

export type PublisherOptions = { qos?: QoSProfile };
export type SubscriptionOptions = { qos?: QoSProfile };

export interface Publisher<T = unknown> {
  readonly topic: string;
  readonly typeName: string;
  publish(message: T): void;
  subscriptionCount(): number;
}

export interface Subscription {
  readonly topic: string;
  readonly typeName: string;
}

export interface Timer {
  readonly periodNs: bigint;
  cancel(): void;
  isCanceled(): boolean;
}

/** rcl_interfaces/msg/ParameterType names. */
export type ParameterType =
  | "bool"
  | "integer"
  | "double"
  | "string"
  | "byte_array"
  | "bool_array"
  | "integer_array"
  | "double_array"
  | "string_array";

export type ParameterValue = boolean | number | string | Uint8Array | boolean[] | number[] | string[];

export type ParameterDescriptor = {
  type: ParameterType;
  description?: string;
  readOnly?: boolean;
  /** Inclusive numeric range (rcl_interfaces FloatingPointRange/IntegerRange). */
  range?: { from: number; to: number; step?: number };
  /** Allowed values for string parameters. */
  choices?: readonly string[];
};

export type Parameter = { name: string; type: ParameterType; value: ParameterValue };

/** rcl_interfaces/msg/SetParametersResult. */
export type SetParametersResult = { successful: boolean; reason: string };

export type LogLevel = "debug" | "info" | "warn" | "error" | "fatal";

export interface Logger {
  readonly name: string;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  fatal(message: string): void;
  setLevel(level: LogLevel): void;
  /** Logs at most once per `periodNs` of this node's clock for the same key (bursts of bad input). */
  throttle(level: LogLevel, key: string, periodNs: bigint, message: string): void;
}

export interface Clock {
  /** Current time in nanoseconds: wall time, or /clock when use_sim_time is true. */
  nowNs(): bigint;
  now(): RosTime;
  readonly isSimTime: boolean;
}

/** Lifecycle primary states (design.ros2.org/articles/node_lifecycle.html). */
export type LifecycleState = "unconfigured" | "inactive" | "active" | "finalized";

/** A transition callback's outcome; "failure" keeps the node in its previous state. */
export type TransitionResult = "success" | "failure";

export type LifecycleCallbacks = {
  onConfigure?: () => TransitionResult | Promise<TransitionResult>;
  onActivate?: () => TransitionResult | Promise<TransitionResult>;
  onDeactivate?: () => TransitionResult | Promise<TransitionResult>;
  onCleanup?: () => TransitionResult | Promise<TransitionResult>;
  onShutdown?: () => TransitionResult | Promise<TransitionResult>;
};

export type NodeOptions = {
  namespace?: string;
  /** Parameter overrides (from launch <param> or a parameter YAML file), applied at declare time. */
  parameterOverrides?: Record<string, ParameterValue>;
  /** Remapping rules "from:=to" (node-local, as `--ros-args -r`). */
  remappings?: Record<string, string>;
};

export interface RosNode {
  readonly name: string;
  readonly namespace: string;
  /** "/ns/name" */
  readonly fullyQualifiedName: string;

  createPublisher<T = unknown>(typeName: string, topic: string, options?: PublisherOptions): Publisher<T>;
  createSubscription<T = unknown>(
    typeName: string,
    topic: string,
    options: SubscriptionOptions,
    callback: (message: T) => void,
  ): Subscription;
  /** Period in nanoseconds on this node's clock (sim time when use_sim_time is true). */
  createTimer(periodNs: bigint, callback: () => void): Timer;
  destroyPublisher(pub: Publisher<unknown>): void;
  destroySubscription(sub: Subscription): void;

  declareParameter(name: string, defaultValue: ParameterValue, descriptor: ParameterDescriptor): ParameterValue;
  getParameter(name: string): Parameter;
  hasParameter(name: string): boolean;
  setParameters(params: Parameter[]): SetParametersResult[];
  /** Validation hook run before a set is accepted (rclcpp add_on_set_parameters_callback). */
  addOnSetParametersCallback(cb: (params: Parameter[]) => SetParametersResult): void;

  getLogger(): Logger;
  getClock(): Clock;

  /** Resolve a topic name as ROS 2 does (namespace, "~/", remapping). */
  resolveTopicName(topic: string): string;

  /** Messages dropped because their bytes did not decode, by topic (graphs that decode themselves keep it). */
  undecodableMessages?(): ReadonlyMap<string, number>;

  destroy(): void;
}

/** A node whose life is managed (rclcpp_lifecycle::LifecycleNode). */
export interface LifecycleRosNode extends RosNode {
  readonly state: LifecycleState;
  setLifecycleCallbacks(callbacks: LifecycleCallbacks): void;
  configure(): Promise<TransitionResult>;
  activate(): Promise<TransitionResult>;
  deactivate(): Promise<TransitionResult>;
  cleanup(): Promise<TransitionResult>;
  shutdown(): Promise<TransitionResult>;
}

/**
 * The process-wide graph (a "context"): creates nodes. The embedded graph (EmbeddedGraph) can also
 * be driven in lock-step: publish /clock, then `spinOnce()` / `spinUntilIdle()` run the timers due
 * at that sim time and the queued callbacks in publish order; `spin()` runs it in real time.
 */
export interface RosGraph {
  createNode(name: string, options?: NodeOptions): RosNode;
  createLifecycleNode(name: string, options?: NodeOptions): LifecycleRosNode;
  /** Global remapping rules applied to every node ("from:=to"). */
  readonly globalRemappings: Record<string, string>;
  /** Names of nodes ("/ns/name") and topics (with type) currently in the graph. */
  nodeNames(): string[];
  topicNamesAndTypes(): Array<{ name: string; types: string[] }>;
  shutdown(): Promise<void>;
}
