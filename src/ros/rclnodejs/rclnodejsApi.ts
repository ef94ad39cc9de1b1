/**
 * The subset of rclnodejs's API that the adapter calls, transcribed from rclnodejs's published
 * typings (RobotWebTools/rclnodejs, types/): index.d.ts (init, createNode, createLifecycleNode,
 * spin, shutdown; commit 08e81eec for the first four, createLifecycleNode from the newer index.d.ts),
 * node.d.ts @ 9c7528b0 (Node: publishers, subscriptions, parameters, graph queries),
 * timer.d.ts @ 0d09af34 (period in bigint nanoseconds; lib/node.js createTimer rejects
 * non-bigint periods), publisher.d.ts @ 1d8b40c1 (publish(message | Buffer)), qos.d.ts @ 0d517d5c
 * (QoS constructor and policy enums), parameter.d.ts @ 24e51a65 (Parameter, ParameterDescriptor,
 * ranges, ParameterType codes), node_options.d.ts @ 24e51a65, logging.d.ts @ 83b6632b,
 * clock.d.ts @ 4a1b0db2 and time.d.ts @ 0db718c2 (Time.nanoseconds is bigint), lifecycle.d.ts
 * @ 24d86f56 (LifecycleNode, CallbackReturnCode 97/98/99).
 *
 * Written as plain interfaces rather than `declare module "rclnodejs"`, so that on a machine
 * where rclnodejs is installed its own typings do not clash with these.
 */

/** rcl_interfaces/msg/SetParametersResult as rclnodejs returns it. */
export type RclSetParametersResult = { successful: boolean; reason: string };

export interface RclQoS {
  history: number;
  depth: number;
  durability: number;
}

export interface RclParameter {
  readonly name: string;
  /** ParameterType code (parameter.d.ts): 1 bool ... 9 string_array; 0 not set. */
  readonly type: number;
  value: unknown;
}

export type RclParameterDescriptor = object;
export type RclRange = object;
export type RclNodeOptions = { parameterOverrides: RclParameter[] };

export interface RclTime {
  readonly nanoseconds: bigint;
}

export interface RclClock {
  now(): RclTime;
}

export interface RclLogging {
  readonly name: string;
  setLoggerLevel(level: number): void;
  debug(message: string): boolean;
  info(message: string): boolean;
  warn(message: string): boolean;
  error(message: string): boolean;
  fatal(message: string): boolean;
}

export interface RclPublisher {
  readonly topic: string;
  publish(message: unknown): void;
}

export interface RclLifecyclePublisher extends RclPublisher {
  activate?(): void;
  deactivate?(): void;
}

export type RclSubscription = { readonly topic: string };

export interface RclTimer {
  readonly period: bigint;
  cancel(): void;
  isCanceled(): boolean;
}

export type RclOptions = { qos?: RclQoS | string; isRaw?: boolean; enableTypedArray?: boolean };

export interface RclNode {
  name(): string;
  namespace(): string;
  getLogger(): RclLogging;
  getClock(): RclClock;
  createPublisher(typeClass: string, topic: string, options?: RclOptions): RclPublisher;
  createSubscription(typeClass: string, topic: string, options: RclOptions, callback: (message: unknown) => void): RclSubscription;
  createTimer(period: bigint, callback: () => void): RclTimer;
  destroyPublisher(publisher: RclPublisher): void;
  destroySubscription(subscription: RclSubscription): void;
  destroyTimer(timer: RclTimer): void;
  declareParameter(parameter: RclParameter, descriptor?: RclParameterDescriptor, ignoreOverride?: boolean): RclParameter;
  hasParameter(name: string): boolean;
  getParameter(name: string): RclParameter;
  setParameters(parameters: RclParameter[]): RclSetParametersResult[];
  addOnSetParametersCallback(callback: (parameters: RclParameter[]) => RclSetParametersResult): void;
  getTopicNamesAndTypes(): Array<{ name: string; types: string[] }>;
  getNodeNamesAndNamespaces(): Array<{ name: string; namespace: string }>;
  countSubscribers(topic: string): number;
  destroy(): void;
}

export interface RclState {
  readonly id: number;
  readonly label: string;
}

/** rclnodejs lifecycle.CallbackReturnCode. */
export const RCL_CALLBACK_SUCCESS = 97;
export const RCL_CALLBACK_FAILURE = 98;

export interface RclLifecycleNode extends RclNode {
  readonly currentState: RclState;
  registerOnConfigure(cb: (prev: RclState) => number): void;
  registerOnActivate(cb: (prev: RclState) => number): void;
  /** lib/lifecycle.js spells it registerOnDeactivate; some typings say registerOnDectivate. */
  registerOnDeactivate?(cb: (prev: RclState) => number): void;
  registerOnDectivate?(cb: (prev: RclState) => number): void;
  registerOnCleanup(cb: (prev: RclState) => number): void;
  registerOnShutdown(cb: (prev: RclState) => number): void;
  configure(): RclState;
  activate(): RclState;
  deactivate(): RclState;
  cleanup(): RclState;
  shutdown(): RclState;
  createLifecyclePublisher(typeClass: string, topic: string, options?: RclOptions): RclLifecyclePublisher;
}

export interface RclnodejsModule {
  init(context?: unknown, argv?: string[]): Promise<void>;
  createNode(nodeName: string, namespace?: string, context?: unknown, options?: RclNodeOptions): RclNode;
  createLifecycleNode(nodeName: string, namespace?: string, context?: unknown, options?: RclNodeOptions): RclLifecycleNode;
  spin(node: RclNode, timeout?: number): void;
  shutdown(context?: unknown): void;
  isShutdown(): boolean;
  NodeOptions: new () => RclNodeOptions;
  Parameter: new (name: string, type: number, value?: unknown) => RclParameter;
  ParameterDescriptor: new (name: string, type: number, description?: string, readOnly?: boolean, range?: RclRange) => RclParameterDescriptor;
  FloatingPointRange: new (from: number, to: number, step?: number) => RclRange;
  IntegerRange: new (from: number, to: number, step?: number) => RclRange;
  QoS: new (history?: number, depth?: number, reliability?: number, durability?: number) => RclQoS;
}
