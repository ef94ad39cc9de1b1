import type { MessageRegistry } from "../msgs/MessageRegistry";
import { defaultRegistry } from "../msgs";
import { EmbeddedLifecycleNode } from "./EmbeddedLifecycleNode";
import type { LogRecord } from "./EmbeddedLogger";
import { LOG_LEVEL_VALUES } from "./EmbeddedLogger";
import { EmbeddedNode } from "./EmbeddedNode";
import type { NodeHost } from "./EmbeddedNode";
import type { EmbeddedTimer } from "./EmbeddedTimer";
import { MessageBus } from "./MessageBus";
import type { Delivery, PublisherEndpoint, SubscriptionEndpoint } from "./MessageBus";
import { expandTopicName, parseRemapRules } from "./names";
import type { RemapRule } from "./names";
import { validateQoS } from "./qos";
import type { RawSubscription, RawTopicAccess } from "./raw";
import { QOS_DEFAULT } from "./types";
import type { Clock, LifecycleRosNode, LogLevel, NodeOptions, QoSProfile, RosGraph, RosNode } from "./types";
import { nsToStamp } from "../../util/time";
import { wallNowNs } from "./wallClock";

export type EmbeddedGraphOptions = {
  /** Message definitions; default: the shared registry (ros2jazzy + msgs/). */
  registry?: MessageRegistry;
  /** Global remapping rules "from:=to" for every node (as `--ros-args -r` before any node). */
  globalRemappings?: Record<string, string>;
  /**
   * Share published objects with in-process subscribers (rclcpp intra-process). When false,
   * every message is serialized to CDR once and each typed subscriber gets its own decode,
   * exactly as across processes. Default true.
   */
  intraProcess?: boolean;
  /** Validate every typed publish against its definition. Default true. */
  validateMessages?: boolean;
  /** Log lines printed to stderr at or above this level; "silent" prints nothing. Default "info". */
  stderrLevel?: LogLevel | "silent";
  /** Where printed log lines go (default process.stderr); tests can capture them. */
  writeLine?: (line: string) => void;
};

/**
 * The in-process ROS 2 graph: nodes, topics with QoS, timers, parameters, /rosout and /clock,
 * driven by an executor. Lock-step: `spinOnce()` runs due timers then the queued callbacks in
 * publish order; `spinUntilIdle()` repeats until nothing is due. Real time: `spin()` drains the
 * queue on the event loop and sleeps until the next wall-clock timer; `stop()` ends it.
 */
export class EmbeddedGraph implements RosGraph, RawTopicAccess {
  readonly registry: MessageRegistry;
  readonly globalRemappings: Record<string, string>;
  readonly bus: MessageBus;
  readonly #globalRules: RemapRule[];
  readonly #nodes = new Map<string, EmbeddedNode>();
  readonly #timers = new Set<EmbeddedTimer>();
  readonly #host: NodeHost;
  readonly #stderrLevel: LogLevel | "silent";
  readonly #writeLine: (line: string) => void;
  readonly #rawPublishers = new Map<string, PublisherEndpoint>();
  #running = false;
  #drainScheduled = false;
  #wakeTimer: NodeJS.Timeout | undefined;
  #shutdown = false;
  /** Exceptions thrown by subscription and timer callbacks, all nodes. */
  callbackErrors = 0;

  constructor(options: EmbeddedGraphOptions = {}) {
    this.registry = options.registry ?? defaultRegistry();
    this.globalRemappings = { ...(options.globalRemappings ?? {}) };
    this.#globalRules = parseRemapRules(this.globalRemappings);
    this.#stderrLevel = options.stderrLevel ?? "info";
    this.#writeLine = options.writeLine ?? ((line) => process.stderr.write(line + "\n"));
    this.bus = new MessageBus(
      this.registry,
      {
        warn: (owner, message) => this.#nodes.get(owner)?.getLogger().warn(message),
        queued: () => this.#scheduleDrain(),
        callbackError: (sub, error) => this.#callbackError(sub.owner, `subscription callback on '${sub.topic}'`, error),
      },
      options.intraProcess ?? true,
    );
    const validateMessages = options.validateMessages ?? true;
    this.#host = {
      registry: this.registry,
      bus: this.bus,
      validateMessages,
      globalRules: this.#globalRules,
      addTimer: (t) => {
        this.#timers.add(t);
        this.#scheduleDrain();
      },
      removeTimer: (t) => this.#timers.delete(t),
      printLog: (r) => this.#print(r),
      nodeDestroyed: (n) => {
        if (this.#nodes.get(n.fullyQualifiedName) !== n) return;
        this.#nodes.delete(n.fullyQualifiedName);
        this.nodeRemoved(n);
      },
    };
  }

  createNode(name: string, options?: NodeOptions): EmbeddedNode {
    return this.#register(new EmbeddedNode(this.#host, name, options));
  }

  createLifecycleNode(name: string, options?: NodeOptions): LifecycleRosNode & EmbeddedNode {
    return this.#register(new EmbeddedLifecycleNode(this.#host, name, options));
  }

  /** A node by fully qualified name ("/ns/name"). */
  node(fullyQualifiedName: string): RosNode | undefined {
    return this.#nodes.get(fullyQualifiedName);
  }

  nodeNames(): string[] {
    return [...this.#nodes.keys()].sort();
  }

  topicNamesAndTypes(): Array<{ name: string; types: string[] }> {
    return this.bus.topicNamesAndTypes();
  }

  /** Publisher and subscription counts of a topic, with owners and QoS (for `topic info`). */
  topicInfo(topic: string): {
    type: string | undefined;
    publishers: Array<{ node: string; qos: QoSProfile }>;
    subscriptions: Array<{ node: string; qos: QoSProfile; raw: boolean }>;
  } {
    return {
      type: this.bus.topicType(topic),
      publishers: this.bus.publishers(topic).map((p) => ({ node: p.owner, qos: { ...p.qos } })),
      subscriptions: this.bus.subscriptions(topic).map((s) => ({ node: s.owner, qos: { ...s.qos }, raw: s.typeName === undefined })),
    };
  }

  subscribeRaw(
    topic: string,
    callback: (bytes: Uint8Array, typeName: string, receiveTimeNs: bigint) => void,
    options: { qos?: QoSProfile; clock?: Clock } = {},
  ): RawSubscription {
    const resolved = expandTopicName(topic, "_raw", "/");
    const qos = options.qos ?? QOS_DEFAULT;
    validateQoS(qos, `raw subscription on '${resolved}'`);
    const bus = this.bus;
    const clock = options.clock;
    const endpoint: SubscriptionEndpoint = bus.addSubscription("/_embedded_raw", resolved, undefined, qos, (d: Delivery) =>
      callback(bus.bytesFor(d), d.typeName, clock === undefined ? d.receiveTimeNs : clock.nowNs()),
    );
    return {
      topic: resolved,
      droppedCount: () => endpoint.dropped,
      destroy: () => bus.removeSubscription(endpoint),
    };
  }

  publishRaw(topic: string, typeName: string, bytes: Uint8Array, qos: QoSProfile = QOS_DEFAULT): void {
    const resolved = expandTopicName(topic, "_raw", "/");
    this.registry.definition(typeName);
    const key = `${resolved}\u0000${typeName}\u0000${qos.history}/${qos.depth}/${qos.reliability}/${qos.durability}`;
    let pub = this.#rawPublishers.get(key);
    if (pub === undefined) {
      validateQoS(qos, `raw publisher on '${resolved}'`);
      pub = this.bus.addPublisher("/_embedded_raw", resolved, typeName, qos);
      this.#rawPublishers.set(key, pub);
    }
    this.bus.publish(pub, undefined, bytes, wallNowNs());
  }

  /** Runs due timers, then the callbacks queued before this call. Returns callbacks run. */
  spinOnce(): number {
    let ran = 0;
    for (const t of [...this.#timers]) {
      if (t.isCanceled()) {
        this.#timers.delete(t);
        continue;
      }
      try {
        if (t.fireIfDue()) ran++;
      } catch (error) {
        ran++;
        // Blamed on the owning node (counted in node.callbackErrors, logged to its /rosout), so
        // the launcher's respawn covers timer crashes as it covers subscription crashes.
        this.#callbackError(t.owner, "timer callback", error);
      }
    }
    return ran + this.bus.drain();
  }

  /** spinOnce until nothing ran (at most `maxIterations`, which guards against publish loops). */
  spinUntilIdle(maxIterations = 100_000): number {
    let total = 0;
    for (let i = 0; i < maxIterations; i++) {
      const ran = this.spinOnce();
      total += ran;
      if (ran === 0 && this.bus.pendingCount === 0) return total;
    }
    throw new Error(`spinUntilIdle: still busy after ${maxIterations} iterations (a callback keeps publishing?)`);
  }

  /** Real-time mode: process callbacks on the event loop until stop() or shutdown(). */
  spin(): void {
    if (this.#shutdown) throw new Error("spin: the graph has been shut down");
    this.#running = true;
    this.#scheduleDrain();
  }

  stop(): void {
    this.#running = false;
    if (this.#wakeTimer !== undefined) clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
  }

  get isSpinning(): boolean {
    return this.#running;
  }

  /**
   * Stops the executor, runs the shutdown transition of every lifecycle node that is not
   * finalized (its onShutdown callback; rclcpp_lifecycle leaves this to the application since
   * rclcpp#2557, see ros2/rclcpp#997), then destroys every node.
   */
  async shutdown(): Promise<void> {
    this.stop();
    for (const node of [...this.#nodes.values()]) {
      if (!(node instanceof EmbeddedLifecycleNode) || node.state === "finalized" || node.isDestroyed) continue;
      try {
        await node.shutdown();
      } catch (error) {
        // A transition still running (or an invalid one): the node is destroyed regardless.
        node.getLogger().warn(`shutdown transition skipped at graph shutdown: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    for (const node of [...this.#nodes.values()]) node.destroy();
    for (const pub of this.#rawPublishers.values()) this.bus.removePublisher(pub);
    this.#rawPublishers.clear();
    this.#shutdown = true;
  }

  /**
   * Called after a node was destroyed and left the graph (its endpoints are removed already), for a
   * middleware that announces this process's nodes (DdsGraph). Does nothing here.
   */
  protected nodeRemoved(_node: EmbeddedNode): void {}

  #register<N extends EmbeddedNode>(node: N): N {
    if (this.#shutdown) throw new Error(`cannot create node ${node.fullyQualifiedName}: the graph has been shut down`);
    if (this.#nodes.has(node.fullyQualifiedName)) {
      node.destroy();
      throw new Error(`a node named ${node.fullyQualifiedName} already exists in this graph`);
    }
    this.#nodes.set(node.fullyQualifiedName, node);
    return node;
  }

  #callbackError(owner: string | undefined, what: string, error: unknown): void {
    this.callbackErrors++;
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const node = owner === undefined ? undefined : this.#nodes.get(owner);
    if (node !== undefined) {
      node.callbackErrors++;
      node.getLogger().error(`${what} threw: ${text}`);
    } else {
      this.#print({ level: "error", name: "embedded_graph", message: `${what} threw: ${text}`, timeNs: wallNowNs() });
    }
  }

  #print(r: LogRecord): void {
    if (this.#stderrLevel === "silent" || LOG_LEVEL_VALUES[r.level] < LOG_LEVEL_VALUES[this.#stderrLevel]) return;
    // rcutils default console format: "[{severity}] [{time}] [{name}]: {message}".
    const t = nsToStamp(r.timeNs);
    this.#writeLine(`[${r.level.toUpperCase()}] [${t.sec}.${String(t.nanosec).padStart(9, "0")}] [${r.name}]: ${r.message}`);
  }

  #scheduleDrain(): void {
    if (!this.#running || this.#drainScheduled) return;
    this.#drainScheduled = true;
    setImmediate(() => {
      this.#drainScheduled = false;
      if (!this.#running) return;
      this.spinOnce();
      // A /clock sample delivered just now can make sim-time timers due: run again for them.
      if (this.bus.pendingCount > 0 || this.#anyTimerDue()) this.#scheduleDrain();
      else this.#armWake();
    });
  }

  #anyTimerDue(): boolean {
    for (const t of this.#timers) if (!t.isCanceled() && t.remainingNs() <= 0n) return true;
    return false;
  }

  /** Sleeps until the next wall-clock timer is due (sim-time timers wake on /clock messages). */
  #armWake(): void {
    if (this.#wakeTimer !== undefined) clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
    let next: bigint | undefined;
    for (const t of this.#timers) {
      if (t.isCanceled() || t.clock.isSimTime) continue;
      const r = t.remainingNs();
      if (next === undefined || r < next) next = r;
    }
    if (next === undefined) return;
    const ms = Math.max(0, Number(next) / 1e6);
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = undefined;
      this.#scheduleDrain();
    }, ms);
  }
}
