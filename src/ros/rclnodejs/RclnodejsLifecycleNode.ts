import type {
  LifecycleCallbacks,
  LifecycleRosNode,
  LifecycleState,
  NodeOptions,
  Publisher,
  PublisherOptions,
  TransitionResult,
} from "../graph/types";
import { runTransitionCallback, type TransitionName } from "../graph/LifecycleStateMachine";
import { QOS_DEFAULT } from "../graph/types";
import { toRclQoS } from "./conversions";
import { RCL_CALLBACK_FAILURE, RCL_CALLBACK_SUCCESS } from "./rclnodejsApi";
import type { RclLifecycleNode, RclLifecyclePublisher, RclnodejsModule } from "./rclnodejsApi";
import { RclnodejsNode } from "./RclnodejsNode";

/**
 * A LifecycleRosNode over rclnodejs's LifecycleNode (rcl_lifecycle state machine, so
 * `ros2 lifecycle` works). rclnodejs transition callbacks are synchronous, while ours may be
 * async: a transition first awaits our callback, then asks rcl for the transition with a
 * registered callback that returns the outcome we already have.
 */
export class RclnodejsLifecycleNode extends RclnodejsNode implements LifecycleRosNode {
  readonly #lc: RclLifecycleNode;
  #callbacks: LifecycleCallbacks = {};
  #pending: TransitionResult = "success";
  readonly #publishers: RclLifecyclePublisher[] = [];

  constructor(rcl: RclnodejsModule, inner: RclLifecycleNode, options: NodeOptions = {}) {
    super(rcl, inner, options);
    this.#lc = inner;
    const answer = (): number => (this.#pending === "success" ? RCL_CALLBACK_SUCCESS : RCL_CALLBACK_FAILURE);
    inner.registerOnConfigure(answer);
    inner.registerOnActivate(answer);
    if (inner.registerOnDeactivate !== undefined) inner.registerOnDeactivate(answer);
    else inner.registerOnDectivate?.(answer);
    inner.registerOnCleanup(answer);
    inner.registerOnShutdown(answer);
  }

  get state(): LifecycleState {
    // lifecycle_msgs/msg/State labels of the primary states.
    const label = this.#lc.currentState.label;
    switch (label) {
      case "unconfigured":
      case "inactive":
      case "active":
      case "finalized":
        return label;
      default:
        throw new Error(`lifecycle node ${this.fullyQualifiedName} is in transition state "${label}"`);
    }
  }

  setLifecycleCallbacks(callbacks: LifecycleCallbacks): void {
    this.#callbacks = { ...callbacks };
  }

  override createPublisher<T = unknown>(typeName: string, topic: string, options: PublisherOptions = {}): Publisher<T> {
    const inner = this.#lc.createLifecyclePublisher(typeName, this.resolveTopicName(topic), { qos: toRclQoS(this.rcl, options.qos ?? QOS_DEFAULT) });
    this.#publishers.push(inner);
    const node = this.#lc;
    return {
      topic: inner.topic,
      typeName,
      publish: (message: T) => inner.publish(message),
      subscriptionCount: () => node.countSubscribers(inner.topic),
    };
  }

  configure(): Promise<TransitionResult> {
    return this.#transition("configure");
  }
  activate(): Promise<TransitionResult> {
    return this.#transition("activate");
  }
  deactivate(): Promise<TransitionResult> {
    return this.#transition("deactivate");
  }
  cleanup(): Promise<TransitionResult> {
    return this.#transition("cleanup");
  }
  shutdown(): Promise<TransitionResult> {
    return this.#transition("shutdown");
  }

  async #transition(name: TransitionName): Promise<TransitionResult> {
    const before = this.state;
    const result = await runTransitionCallback(this.#callbacks, name, this.getLogger());
    this.#pending = result;
    this.#lc[name]();
    if (result === "success" && name === "activate") for (const p of this.#publishers) p.activate?.();
    if (result === "success" && name === "deactivate") for (const p of this.#publishers) p.deactivate?.();
    if (result === "success" && this.state === before) {
      throw new Error(`rclnodejs did not ${name} node ${this.fullyQualifiedName} from state ${before}`);
    }
    return result;
  }
}
