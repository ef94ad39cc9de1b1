/**
 * An in-memory RosGraph for the node tests (mcap's TempBuffer idea: a fake of the same
 * interface). Deterministic lock-step: sim time moves only with `advance`, timers fire in time
 * order, publish delivers synchronously to matching subscriptions. Every published message is
 * validated against the real .msg definitions (src/ros/msgs defaultRegistry), and every
 * publication is recorded per resolved topic with its QoS, so tests can assert on golden
 * outputs, QoS and silence.
 */
import { defaultRegistry } from "../../src/ros/msgs";
import { expandTopicName, parseRemapRules, resolveTopicName } from "../../src/ros/graph/names";
import { nsToStamp } from "../../src/util/time";
import type {
  Clock,
  LifecycleCallbacks,
  LifecycleRosNode,
  LifecycleState,
  Logger,
  LogLevel,
  NodeOptions,
  Parameter,
  ParameterDescriptor,
  ParameterType,
  ParameterValue,
  Publisher,
  QoSProfile,
  RosGraph,
  RosNode,
  SetParametersResult,
  Subscription,
  Timer,
  TransitionResult,
} from "../../src/ros/graph/types";
import { QOS_DEFAULT } from "../../src/ros/graph/types";

type Sub = { topic: string; typeName: string; qos: QoSProfile; cb: (m: unknown) => void; alive: boolean };
type Tmr = { periodNs: bigint; nextNs: bigint; cb: () => void; canceled: boolean };

export type Sent = { topic: string; typeName: string; qos: QoSProfile; message: unknown; atNs: bigint };

export class FakeGraph implements RosGraph {
  nowNs = 0n;
  readonly globalRemappings: Record<string, string> = {};
  readonly sent: Sent[] = [];
  readonly logs: Array<{ level: LogLevel; node: string; message: string }> = [];
  readonly subs: Sub[] = [];
  readonly pubs: Array<{ topic: string; typeName: string; qos: QoSProfile }> = [];
  private readonly timers: Tmr[] = [];
  private readonly nodes: FakeNode[] = [];

  createNode(name: string, options?: NodeOptions): RosNode {
    return this.createLifecycleNode(name, options);
  }

  createLifecycleNode(name: string, options: NodeOptions = {}): LifecycleRosNode {
    const n = new FakeNode(this, name, options);
    this.nodes.push(n);
    return n;
  }

  nodeNames(): string[] {
    return this.nodes.map((n) => n.fullyQualifiedName);
  }

  topicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    const m = new Map<string, Set<string>>();
    for (const p of [...this.pubs, ...this.subs]) m.set(p.topic, (m.get(p.topic) ?? new Set()).add(p.typeName));
    return [...m].map(([name, t]) => ({ name, types: [...t] }));
  }

  async shutdown(): Promise<void> {}

  /** Publishes from outside any node (a sensor, the simulator). */
  inject(topic: string, typeName: string, message: unknown): void {
    defaultRegistry().validate(typeName, message);
    this.deliver(topic, message);
  }

  deliver(topic: string, message: unknown): void {
    for (const s of [...this.subs]) if (s.alive && s.topic === topic) s.cb(message);
  }

  addTimer(t: Tmr): void {
    this.timers.push(t);
  }

  /** Advances sim time to `toNs`, firing due timers in time order. */
  advanceTo(toNs: bigint): void {
    for (;;) {
      let next: Tmr | undefined;
      for (const t of this.timers) if (!t.canceled && t.nextNs <= toNs && (next === undefined || t.nextNs < next.nextNs)) next = t;
      if (next === undefined) break;
      this.nowNs = next.nextNs;
      next.nextNs += next.periodNs;
      next.cb();
    }
    this.nowNs = toNs;
  }

  advance(byNs: bigint): void {
    this.advanceTo(this.nowNs + byNs);
  }

  messagesOn<T = unknown>(topic: string): T[] {
    return this.sent.filter((s) => s.topic === topic).map((s) => s.message as T);
  }
}

class FakeNode implements LifecycleRosNode {
  readonly namespace: string;
  private lifecycle: LifecycleState = "unconfigured";
  private callbacks: LifecycleCallbacks = {};
  private readonly params = new Map<string, Parameter>();
  private readonly descriptors = new Map<string, ParameterDescriptor>();
  private readonly setCallbacks: Array<(p: Parameter[]) => SetParametersResult> = [];
  private readonly throttled = new Map<string, bigint>();

  constructor(
    private readonly graph: FakeGraph,
    readonly name: string,
    private readonly options: NodeOptions,
  ) {
    this.namespace = options.namespace ?? "/";
  }

  get fullyQualifiedName(): string {
    return this.namespace === "/" ? `/${this.name}` : `${this.namespace}/${this.name}`;
  }

  get state(): LifecycleState {
    return this.lifecycle;
  }

  resolveTopicName(topic: string): string {
    if (topic.startsWith("/")) return expandTopicName(topic, this.name, this.namespace);
    return resolveTopicName(topic, this.name, this.namespace, parseRemapRules(this.options.remappings), parseRemapRules(this.graph.globalRemappings));
  }

  createPublisher<T = unknown>(typeName: string, topic: string, options: { qos?: QoSProfile } = {}): Publisher<T> {
    const resolved = this.resolveTopicName(topic);
    const qos = options.qos ?? QOS_DEFAULT;
    defaultRegistry().definition(typeName);
    this.graph.pubs.push({ topic: resolved, typeName, qos });
    const graph = this.graph;
    return {
      topic: resolved,
      typeName,
      publish(message: T): void {
        defaultRegistry().validate(typeName, message);
        graph.sent.push({ topic: resolved, typeName, qos, message, atNs: graph.nowNs });
        graph.deliver(resolved, message);
      },
      subscriptionCount: () => graph.subs.filter((s) => s.alive && s.topic === resolved).length,
    };
  }

  createSubscription<T = unknown>(typeName: string, topic: string, options: { qos?: QoSProfile }, callback: (message: T) => void): Subscription {
    const resolved = this.resolveTopicName(topic);
    const sub: Sub = { topic: resolved, typeName, qos: options.qos ?? QOS_DEFAULT, cb: callback as (m: unknown) => void, alive: true };
    this.graph.subs.push(sub);
    return sub;
  }

  createTimer(periodNs: bigint, callback: () => void): Timer {
    const t: Tmr = { periodNs, nextNs: this.graph.nowNs + periodNs, cb: callback, canceled: false };
    this.graph.addTimer(t);
    return { periodNs, cancel: () => void (t.canceled = true), isCanceled: () => t.canceled };
  }

  destroyPublisher(_pub: Publisher<unknown>): void {}

  destroySubscription(sub: Subscription): void {
    (sub as Sub).alive = false;
  }

  declareParameter(name: string, defaultValue: ParameterValue, descriptor: ParameterDescriptor): ParameterValue {
    const value = this.options.parameterOverrides?.[name] ?? defaultValue;
    this.params.set(name, { name, type: descriptor.type, value });
    this.descriptors.set(name, descriptor);
    return value;
  }

  descriptor(name: string): ParameterDescriptor | undefined {
    return this.descriptors.get(name);
  }

  getParameter(name: string): Parameter {
    const p = this.params.get(name);
    if (p === undefined) throw new Error(`parameter ${name} not declared`);
    return p;
  }

  hasParameter(name: string): boolean {
    return this.params.has(name);
  }

  setParameters(params: Parameter[]): SetParametersResult[] {
    for (const cb of this.setCallbacks) {
      const r = cb(params);
      if (!r.successful) return params.map(() => r);
    }
    for (const p of params) this.params.set(p.name, p);
    return params.map(() => ({ successful: true, reason: "" }));
  }

  addOnSetParametersCallback(cb: (params: Parameter[]) => SetParametersResult): void {
    this.setCallbacks.push(cb);
  }

  getLogger(): Logger {
    const graph = this.graph;
    const node = this.fullyQualifiedName;
    const log = (level: LogLevel) => (message: string) => void graph.logs.push({ level, node, message });
    return {
      name: this.name,
      debug: log("debug"),
      info: log("info"),
      warn: log("warn"),
      error: log("error"),
      fatal: log("fatal"),
      setLevel: () => undefined,
      throttle: (level, key, periodNs, message) => {
        const last = this.throttled.get(key);
        if (last !== undefined && graph.nowNs - last < periodNs) return;
        this.throttled.set(key, graph.nowNs);
        graph.logs.push({ level, node, message });
      },
    };
  }

  getClock(): Clock {
    const graph = this.graph;
    return { nowNs: () => graph.nowNs, now: () => nsToStamp(graph.nowNs), isSimTime: true };
  }

  destroy(): void {}

  setLifecycleCallbacks(callbacks: LifecycleCallbacks): void {
    this.callbacks = callbacks;
  }

  private async transition(cb: (() => TransitionResult | Promise<TransitionResult>) | undefined, from: LifecycleState[], to: LifecycleState): Promise<TransitionResult> {
    if (!from.includes(this.lifecycle)) return "failure";
    const r = cb === undefined ? "success" : await cb();
    if (r === "success") this.lifecycle = to;
    return r;
  }

  configure(): Promise<TransitionResult> {
    return this.transition(this.callbacks.onConfigure, ["unconfigured"], "inactive");
  }
  activate(): Promise<TransitionResult> {
    return this.transition(this.callbacks.onActivate, ["inactive"], "active");
  }
  deactivate(): Promise<TransitionResult> {
    return this.transition(this.callbacks.onDeactivate, ["active"], "inactive");
  }
  cleanup(): Promise<TransitionResult> {
    return this.transition(this.callbacks.onCleanup, ["inactive"], "unconfigured");
  }
  shutdown(): Promise<TransitionResult> {
    return this.transition(this.callbacks.onShutdown, ["unconfigured", "inactive", "active"], "finalized");
  }
}

export type { ParameterType };
