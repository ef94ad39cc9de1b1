import { LOG_LEVEL_VALUES, loggerNameOf } from "../graph/EmbeddedLogger";
import { normalizeNamespace, parseRemapRules, resolveTopicName } from "../graph/names";
import type { RemapRule } from "../graph/names";
import { checkValue } from "../graph/ParameterStore";
import { QOS_DEFAULT } from "../graph/types";
import type {
  Clock,
  Logger,
  LogLevel,
  NodeOptions,
  Parameter,
  ParameterDescriptor,
  ParameterValue,
  Publisher,
  PublisherOptions,
  RosNode,
  RosTime,
  SetParametersResult,
  Subscription,
  SubscriptionOptions,
  Timer,
} from "../graph/types";
import { nsToStamp } from "../../util/time";
import { PARAMETER_TYPE_CODE } from "../graph/parameterMsg";
import { fromRclParameter, toRclQoS, toRclValue } from "./conversions";
import type { RclnodejsModule, RclNode, RclNodeOptions, RclPublisher, RclSubscription, RclTimer } from "./rclnodejsApi";

class RclPublisherWrapper<T> implements Publisher<T> {
  constructor(
    readonly inner: RclPublisher,
    readonly typeName: string,
    private readonly node: RclNode,
  ) {}
  get topic(): string {
    return this.inner.topic;
  }
  publish(message: T): void {
    this.inner.publish(message);
  }
  subscriptionCount(): number {
    return this.node.countSubscribers(this.inner.topic);
  }
}

class RclSubscriptionWrapper implements Subscription {
  constructor(
    readonly inner: RclSubscription,
    readonly typeName: string,
  ) {}
  get topic(): string {
    return this.inner.topic;
  }
}

/**
 * A RosNode over an rclnodejs Node. Node-local remapping is applied here (names.ts, as rcl would)
 * before names reach rclnodejs; global remapping and `--ros-args` parameters are rcl's own.
 * Parameter descriptors are enforced by an on-set callback registered with rclnodejs, so choices
 * and step grids hold for `ros2 param set` too.
 */
export class RclnodejsNode implements RosNode {
  readonly name: string;
  readonly namespace: string;
  readonly fullyQualifiedName: string;
  protected readonly rcl: RclnodejsModule;
  protected readonly inner: RclNode;
  readonly #localRules: RemapRule[];
  readonly #overrides: Readonly<Record<string, ParameterValue>>;
  readonly #descriptors = new Map<string, ParameterDescriptor>();
  readonly #logger: Logger;
  readonly #clock: Clock;

  constructor(rcl: RclnodejsModule, inner: RclNode, options: NodeOptions = {}) {
    this.rcl = rcl;
    this.inner = inner;
    this.name = inner.name();
    this.namespace = normalizeNamespace(inner.namespace());
    this.fullyQualifiedName = this.namespace === "/" ? `/${this.name}` : `${this.namespace}/${this.name}`;
    this.#localRules = parseRemapRules(options.remappings);
    this.#overrides = options.parameterOverrides ?? {};
    inner.addOnSetParametersCallback((params) => {
      for (const p of params) {
        const d = this.#descriptors.get(p.name);
        if (d === undefined) continue;
        const problem = checkValue(p.name, fromRclParameter(p).value, d);
        if (problem !== undefined) return { successful: false, reason: problem };
      }
      return { successful: true, reason: "" };
    });
    this.#clock = {
      nowNs: () => inner.getClock().now().nanoseconds,
      now: (): RosTime => nsToStamp(inner.getClock().now().nanoseconds),
      get isSimTime(): boolean {
        return inner.hasParameter("use_sim_time") && inner.getParameter("use_sim_time").value === true;
      },
    };
    this.#logger = makeLogger(inner, loggerNameOf(this.namespace, this.name), this.#clock);
  }

  /** rclnodejs NodeOptions; parameter overrides are applied at declare time instead (see declareParameter). */
  static nodeOptions(rcl: RclnodejsModule): RclNodeOptions {
    return new rcl.NodeOptions();
  }

  resolveTopicName(topic: string): string {
    return resolveTopicName(topic, this.name, this.namespace, this.#localRules, []);
  }

  createPublisher<T = unknown>(typeName: string, topic: string, options: PublisherOptions = {}): Publisher<T> {
    const inner = this.inner.createPublisher(typeName, this.resolveTopicName(topic), { qos: toRclQoS(this.rcl, options.qos ?? QOS_DEFAULT) });
    return new RclPublisherWrapper<T>(inner, typeName, this.inner);
  }

  createSubscription<T = unknown>(typeName: string, topic: string, options: SubscriptionOptions, callback: (message: T) => void): Subscription {
    const inner = this.inner.createSubscription(
      typeName,
      this.resolveTopicName(topic),
      { qos: toRclQoS(this.rcl, options.qos ?? QOS_DEFAULT), enableTypedArray: true },
      (m) => {
        try {
          callback(m as T);
        } catch (error) {
          this.#logger.error(`subscription callback on '${inner.topic}' threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
      },
    );
    return new RclSubscriptionWrapper(inner, typeName);
  }

  createTimer(periodNs: bigint, callback: () => void): Timer {
    if (periodNs <= 0n) throw new RangeError(`timer period ${periodNs} ns: expected > 0`);
    const inner: RclTimer = this.inner.createTimer(periodNs, () => {
      try {
        callback();
      } catch (error) {
        this.#logger.error(`timer callback threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    });
    return { periodNs, cancel: () => inner.cancel(), isCanceled: () => inner.isCanceled() };
  }

  destroyPublisher(pub: Publisher<unknown>): void {
    if (pub instanceof RclPublisherWrapper) this.inner.destroyPublisher(pub.inner);
  }

  destroySubscription(sub: Subscription): void {
    if (sub instanceof RclSubscriptionWrapper) this.inner.destroySubscription(sub.inner);
  }

  declareParameter(name: string, defaultValue: ParameterValue, descriptor: ParameterDescriptor): ParameterValue {
    const code = PARAMETER_TYPE_CODE[descriptor.type];
    const ours = Object.prototype.hasOwnProperty.call(this.#overrides, name) ? this.#overrides[name] : undefined;
    const initial = ours ?? defaultValue;
    const problem = checkValue(name, initial, descriptor);
    if (problem !== undefined) throw new Error(`${this.fullyQualifiedName}: ${ours !== undefined ? "override for " : "default of "}${problem}`);
    const range =
      descriptor.range === undefined
        ? undefined
        : descriptor.type === "integer" || descriptor.type === "integer_array"
          ? new this.rcl.IntegerRange(descriptor.range.from, descriptor.range.to, descriptor.range.step ?? 0)
          : new this.rcl.FloatingPointRange(descriptor.range.from, descriptor.range.to, descriptor.range.step ?? 0);
    const rclDescriptor = new this.rcl.ParameterDescriptor(name, code, descriptor.description ?? "", descriptor.readOnly ?? false, range);
    this.#descriptors.set(name, descriptor);
    // Our explicit overrides win; otherwise rclnodejs applies --ros-args/--params-file overrides.
    const declared = this.inner.declareParameter(new this.rcl.Parameter(name, code, toRclValue(descriptor.type, initial)), rclDescriptor, ours !== undefined);
    const value = fromRclParameter(declared).value;
    const after = checkValue(name, value, descriptor);
    if (after !== undefined) throw new Error(`${this.fullyQualifiedName}: override for ${after}`);
    return value;
  }

  getParameter(name: string): Parameter {
    if (!this.inner.hasParameter(name)) throw new Error(`${this.fullyQualifiedName}: parameter '${name}' is not declared`);
    return fromRclParameter(this.inner.getParameter(name));
  }

  hasParameter(name: string): boolean {
    return this.inner.hasParameter(name);
  }

  setParameters(params: Parameter[]): SetParametersResult[] {
    return params.map((p) => {
      const d = this.#descriptors.get(p.name);
      const type = d?.type ?? p.type;
      try {
        const [result] = this.inner.setParameters([new this.rcl.Parameter(p.name, PARAMETER_TYPE_CODE[type], toRclValue(type, p.value))]);
        return result ?? { successful: false, reason: `parameter '${p.name}': no result from rclnodejs` };
      } catch (error) {
        return { successful: false, reason: error instanceof Error ? error.message : String(error) };
      }
    });
  }

  addOnSetParametersCallback(cb: (params: Parameter[]) => SetParametersResult): void {
    this.inner.addOnSetParametersCallback((params) => cb(params.map(fromRclParameter)));
  }

  getLogger(): Logger {
    return this.#logger;
  }

  getClock(): Clock {
    return this.#clock;
  }

  destroy(): void {
    this.inner.destroy();
  }
}

/** Our Logger over rclnodejs Logging (LoggingSeverity DEBUG=10 ... FATAL=50, logging.d.ts). */
function makeLogger(inner: RclNode, name: string, clock: Clock): Logger {
  const rclLogger = inner.getLogger();
  const lastByKey = new Map<string, bigint>();
  const emit = (level: LogLevel, message: string): void => {
    switch (level) {
      case "debug":
        rclLogger.debug(message);
        return;
      case "info":
        rclLogger.info(message);
        return;
      case "warn":
        rclLogger.warn(message);
        return;
      case "error":
        rclLogger.error(message);
        return;
      case "fatal":
        rclLogger.fatal(message);
        return;
    }
  };
  return {
    name,
    debug: (m) => emit("debug", m),
    info: (m) => emit("info", m),
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
    fatal: (m) => emit("fatal", m),
    setLevel: (level) => rclLogger.setLoggerLevel(LOG_LEVEL_VALUES[level]),
    throttle: (level, key, periodNs, message) => {
      const now = clock.nowNs();
      const last = lastByKey.get(key);
      if (last !== undefined && now >= last && now - last < periodNs) return;
      lastByKey.set(key, now);
      emit(level, message);
    },
  };
}
