import type { MessageRegistry } from "../msgs/MessageRegistry";
import { EmbeddedLogger, LOG_LEVEL_VALUES, loggerNameOf } from "./EmbeddedLogger";
import type { LogRecord } from "./EmbeddedLogger";
import { EmbeddedTimer } from "./EmbeddedTimer";
import type { Delivery, MessageBus, PublisherEndpoint, SubscriptionEndpoint } from "./MessageBus";
import { fullyQualifiedName, normalizeNamespace, parseRemapRules, remapNodeIdentity, resolveTopicName, validateNodeName } from "./names";
import type { RemapRule } from "./names";
import { NodeClock } from "./NodeClock";
import { toParameterMsg } from "./parameterMsg";
import { ParameterStore } from "./ParameterStore";
import { validateQoS } from "./qos";
import { QOS_DEFAULT } from "./types";
import type {
  Clock,
  Logger,
  NodeOptions,
  Parameter,
  ParameterDescriptor,
  ParameterValue,
  Publisher,
  PublisherOptions,
  QoSProfile,
  RosNode,
  SetParametersResult,
  Subscription,
  SubscriptionOptions,
  Timer,
} from "./types";
import { nsToStamp, stampToNs } from "../../util/time";
import { wallNowNs } from "./wallClock";

/** What a node needs from its graph (implemented by EmbeddedGraph). */
export type NodeHost = {
  readonly registry: MessageRegistry;
  readonly bus: MessageBus;
  readonly validateMessages: boolean;
  readonly globalRules: readonly RemapRule[];
  addTimer(timer: EmbeddedTimer): void;
  removeTimer(timer: EmbeddedTimer): void;
  printLog(record: LogRecord): void;
  nodeDestroyed(node: EmbeddedNode): void;
};

/** rcl's /rosout QoS (rcl/src/rcl/logging_rosout.c): reliable, transient local, depth 1000. */
const ROSOUT_QOS: QoSProfile = { history: "keep_last", depth: 1000, reliability: "reliable", durability: "transient_local" };
/** rclcpp ParameterEventsQoS (rmw_qos_profile_parameter_events): reliable, keep last 1000, volatile. */
const PARAMETER_EVENTS_QOS: QoSProfile = { history: "keep_last", depth: 1000, reliability: "reliable", durability: "volatile" };
/** rclcpp ClockQoS: best effort, keep last 1 (matches a reliable /clock publisher). */
const CLOCK_QOS: QoSProfile = { history: "keep_last", depth: 1, reliability: "best_effort", durability: "volatile" };

export class EmbeddedPublisher<T> implements Publisher<T> {
  constructor(
    readonly endpoint: PublisherEndpoint,
    readonly publishFn: (message: T) => void,
  ) {}
  get topic(): string {
    return this.endpoint.topic;
  }
  get typeName(): string {
    return this.endpoint.typeName;
  }
  publish(message: T): void {
    this.publishFn(message);
  }
  subscriptionCount(): number {
    return this.endpoint.matched.length + (this.endpoint.remoteSubscriptionCount?.() ?? 0);
  }
}

export class EmbeddedSubscription implements Subscription {
  constructor(readonly endpoint: SubscriptionEndpoint) {}
  get topic(): string {
    return this.endpoint.topic;
  }
  get typeName(): string {
    return this.endpoint.typeName ?? "";
  }
  /** Messages discarded because the keep_last queue was full. */
  get droppedCount(): number {
    return this.endpoint.dropped;
  }
  get receivedCount(): number {
    return this.endpoint.received;
  }
}

/**
 * A node on the embedded graph. Topic names resolve as ROS 2 (names.ts); publish validates the
 * message against its type and queues it; subscription callbacks run from the graph's executor.
 * Published message objects are shared with in-process subscribers (rclcpp intra-process
 * semantics): treat them as immutable after publish.
 */
/** What #decodeOrDrop returns for a message that did not decode. */
const UNDECODABLE: unique symbol = Symbol("undecodable");
/** At most one log line per topic per 5 s for undecodable messages (a burst is one line; all are counted). */
const UNDECODABLE_LOG_PERIOD_NS = 5_000_000_000n;

export class EmbeddedNode implements RosNode {
  readonly name: string;
  readonly namespace: string;
  readonly fullyQualifiedName: string;
  protected readonly host: NodeHost;
  readonly #localRules: RemapRule[];
  readonly #params: ParameterStore;
  readonly #clock = new NodeClock();
  readonly #logger: EmbeddedLogger;
  readonly #pubs = new Set<EmbeddedPublisher<unknown>>();
  readonly #subs = new Set<EmbeddedSubscription>();
  readonly #timers = new Set<EmbeddedTimer>();
  #rosout: PublisherEndpoint | undefined;
  #parameterEvents: PublisherEndpoint | undefined;
  #clockSub: SubscriptionEndpoint | undefined;
  #destroyed = false;
  /** Exceptions thrown by this node's callbacks (caught by the executor). */
  callbackErrors = 0;
  /** Messages dropped because their CDR bytes did not decode, by topic. */
  readonly #undecodable = new Map<string, number>();

  constructor(host: NodeHost, name: string, options: NodeOptions = {}) {
    validateNodeName(name);
    this.host = host;
    this.#localRules = parseRemapRules(options.remappings);
    const identity = remapNodeIdentity(name, normalizeNamespace(options.namespace), this.#localRules, host.globalRules);
    this.name = identity.name;
    this.namespace = identity.namespace;
    this.fullyQualifiedName = fullyQualifiedName(this.namespace, this.name);
    this.#params = new ParameterStore(this.fullyQualifiedName, options.parameterOverrides);
    this.#logger = new EmbeddedLogger(loggerNameOf(this.namespace, this.name), this.#clock, (r) => this.#emitLog(r));
    this.#clock.onChange = () => {
      for (const t of this.#timers) t.reset();
    };
    this.#rosout = host.bus.addPublisher(this.fullyQualifiedName, "/rosout", "rcl_interfaces/msg/Log", ROSOUT_QOS);
    this.#parameterEvents = host.bus.addPublisher(
      this.fullyQualifiedName,
      "/parameter_events",
      "rcl_interfaces/msg/ParameterEvent",
      PARAMETER_EVENTS_QOS,
    );
    const useSimTime = this.#params.declare("use_sim_time", false, {
      type: "bool",
      description: "Follow /clock (rosgraph_msgs/msg/Clock) instead of wall time",
    });
    this.#params.addPostSetListener((p) => {
      if (p.name === "use_sim_time") this.#setSimTime(p.value === true);
      this.#publishParameterEvent("changed_parameters", p);
    });
    this.#setSimTime(useSimTime === true);
    this.#publishParameterEvent("new_parameters", this.#params.get("use_sim_time"));
  }

  get isDestroyed(): boolean {
    return this.#destroyed;
  }

  resolveTopicName(topic: string): string {
    return resolveTopicName(topic, this.name, this.namespace, this.#localRules, this.host.globalRules);
  }

  createPublisher<T = unknown>(typeName: string, topic: string, options: PublisherOptions = {}): Publisher<T> {
    this.#alive();
    const resolved = this.resolveTopicName(topic);
    const qos = options.qos ?? QOS_DEFAULT;
    validateQoS(qos, `${this.fullyQualifiedName}: publisher on '${resolved}'`);
    this.host.registry.definition(typeName);
    const endpoint = this.host.bus.addPublisher(this.fullyQualifiedName, resolved, typeName, qos);
    const pub = new EmbeddedPublisher<T>(endpoint, (message) => this.publishChecked(endpoint, message));
    this.#pubs.add(pub as EmbeddedPublisher<unknown>);
    return pub;
  }

  /** Validates and queues; lifecycle nodes override this to stay silent unless active. */
  protected publishChecked(endpoint: PublisherEndpoint, message: unknown): void {
    if (this.#destroyed) throw new Error(`${this.fullyQualifiedName}: publish on '${endpoint.topic}' after the node was destroyed`);
    if (this.host.validateMessages) this.host.registry.validate(endpoint.typeName, message);
    this.host.bus.publish(endpoint, message, undefined, wallNowNs());
  }

  createSubscription<T = unknown>(
    typeName: string,
    topic: string,
    options: SubscriptionOptions,
    callback: (message: T) => void,
  ): Subscription {
    this.#alive();
    const resolved = this.resolveTopicName(topic);
    const qos = options.qos ?? QOS_DEFAULT;
    validateQoS(qos, `${this.fullyQualifiedName}: subscription on '${resolved}'`);
    this.host.registry.definition(typeName);
    const bus = this.host.bus;
    const endpoint = bus.addSubscription(this.fullyQualifiedName, resolved, typeName, qos, (d) => {
      const message = this.#decodeOrDrop(d, resolved);
      if (message !== UNDECODABLE) callback(message as T);
    });
    const sub = new EmbeddedSubscription(endpoint);
    this.#subs.add(sub);
    return sub;
  }

  createTimer(periodNs: bigint, callback: () => void): Timer {
    this.#alive();
    const timer = new EmbeddedTimer(periodNs, this.#clock, callback, this.fullyQualifiedName);
    this.#timers.add(timer);
    this.host.addTimer(timer);
    return timer;
  }

  destroyPublisher(pub: Publisher<unknown>): void {
    if (!(pub instanceof EmbeddedPublisher) || !this.#pubs.delete(pub as EmbeddedPublisher<unknown>)) return;
    this.host.bus.removePublisher((pub as EmbeddedPublisher<unknown>).endpoint);
  }

  destroySubscription(sub: Subscription): void {
    if (!(sub instanceof EmbeddedSubscription) || !this.#subs.delete(sub)) return;
    this.host.bus.removeSubscription(sub.endpoint);
  }

  declareParameter(name: string, defaultValue: ParameterValue, descriptor: ParameterDescriptor): ParameterValue {
    const value = this.#params.declare(name, defaultValue, descriptor);
    this.#publishParameterEvent("new_parameters", this.#params.get(name));
    return value;
  }
  getParameter(name: string): Parameter {
    return this.#params.get(name);
  }
  hasParameter(name: string): boolean {
    return this.#params.has(name);
  }
  /** Names of all declared parameters, sorted. */
  parameterNames(): string[] {
    return this.#params.names();
  }
  parameterDescriptor(name: string): ParameterDescriptor | undefined {
    return this.#params.descriptor(name);
  }
  setParameters(params: Parameter[]): SetParametersResult[] {
    return this.#params.set(params);
  }
  addOnSetParametersCallback(cb: (params: Parameter[]) => SetParametersResult): void {
    this.#params.addOnSetCallback(cb);
  }

  getLogger(): Logger {
    return this.#logger;
  }
  getClock(): Clock {
    return this.#clock;
  }

  destroy(): void {
    if (this.#destroyed) return;
    for (const pub of this.#pubs) this.host.bus.removePublisher(pub.endpoint);
    for (const sub of this.#subs) this.host.bus.removeSubscription(sub.endpoint);
    for (const t of this.#timers) {
      t.cancel();
      this.host.removeTimer(t);
    }
    if (this.#clockSub !== undefined) this.host.bus.removeSubscription(this.#clockSub);
    if (this.#rosout !== undefined) this.host.bus.removePublisher(this.#rosout);
    if (this.#parameterEvents !== undefined) this.host.bus.removePublisher(this.#parameterEvents);
    this.#pubs.clear();
    this.#subs.clear();
    this.#timers.clear();
    this.#destroyed = true;
    this.host.nodeDestroyed(this);
  }

  /** Messages dropped because they did not decode, by topic (shown on /diagnostics by NodeDiagnostics). */
  undecodableMessages(): ReadonlyMap<string, number> {
    return this.#undecodable;
  }

  /**
   * The decoded message of a delivery, or UNDECODABLE: bytes that do not decode as the topic's
   * type (a raw publish from `bag play` or the introspection socket) are input, not a bug of this
   * node, so they are logged (throttled), counted and dropped, as rclcpp does when deserialization
   * fails, instead of counting as a callback error that gets the node stopped.
   */
  #decodeOrDrop(d: Delivery, topic: string): unknown {
    try {
      return this.host.bus.messageFor(d);
    } catch (err) {
      const n = (this.#undecodable.get(topic) ?? 0) + 1;
      this.#undecodable.set(topic, n);
      const detail = err instanceof Error ? err.message : String(err);
      this.#logger.throttle("error", `undecodable:${topic}`, UNDECODABLE_LOG_PERIOD_NS, `dropped a message on '${topic}' that does not decode (${n} so far): ${detail}`);
      return UNDECODABLE;
    }
  }

  #alive(): void {
    if (this.#destroyed) throw new Error(`node ${this.fullyQualifiedName} has been destroyed`);
  }

  #setSimTime(enabled: boolean): void {
    if (enabled && this.#clockSub === undefined) {
      const bus = this.host.bus;
      this.#clockSub = bus.addSubscription(this.fullyQualifiedName, "/clock", "rosgraph_msgs/msg/Clock", CLOCK_QOS, (d) => {
        const msg = this.#decodeOrDrop(d, "/clock");
        if (msg !== UNDECODABLE) this.#clock.setSimNowNs(stampToNs((msg as { clock: { sec: number; nanosec: number } }).clock));
      });
    } else if (!enabled && this.#clockSub !== undefined) {
      this.host.bus.removeSubscription(this.#clockSub);
      this.#clockSub = undefined;
    }
    this.#clock.setSimTime(enabled);
  }

  /** rcl_interfaces/msg/ParameterEvent on /parameter_events, as rclcpp's parameter service does. */
  #publishParameterEvent(kind: "new_parameters" | "changed_parameters", param: Parameter): void {
    if (this.#parameterEvents === undefined || this.#destroyed) return;
    const event = {
      stamp: nsToStamp(this.#clock.nowNs()),
      node: this.fullyQualifiedName,
      new_parameters: kind === "new_parameters" ? [toParameterMsg(param)] : [],
      changed_parameters: kind === "changed_parameters" ? [toParameterMsg(param)] : [],
      deleted_parameters: [],
    };
    this.host.bus.publish(this.#parameterEvents, event, undefined, wallNowNs());
  }

  #emitLog(record: LogRecord): void {
    this.host.printLog(record);
    if (this.#rosout === undefined || this.#destroyed) return;
    const log = {
      stamp: nsToStamp(record.timeNs),
      level: LOG_LEVEL_VALUES[record.level],
      name: record.name,
      msg: record.message,
      file: "",
      function: "",
      line: 0,
    };
    this.host.bus.publish(this.#rosout, log, undefined, wallNowNs());
  }
}
