import type { PublisherEndpoint } from "./MessageBus";
import { EmbeddedNode } from "./EmbeddedNode";
import type { LifecycleCallbacks, LifecycleRosNode, LifecycleState, TransitionResult } from "./types";

type TransitionName = "configure" | "activate" | "deactivate" | "cleanup" | "shutdown";

/**
 * Valid transitions from each primary state (design.ros2.org/articles/node_lifecycle.html):
 * configure unconfigured->inactive, activate inactive->active, deactivate active->inactive,
 * cleanup inactive->unconfigured, shutdown from any non-finalized state -> finalized.
 */
const TRANSITIONS: Readonly<Record<LifecycleState, Partial<Record<TransitionName, LifecycleState>>>> = {
  unconfigured: { configure: "inactive", shutdown: "finalized" },
  inactive: { activate: "active", cleanup: "unconfigured", shutdown: "finalized" },
  active: { deactivate: "inactive", shutdown: "finalized" },
  finalized: {},
};

const CALLBACK_OF: Readonly<Record<TransitionName, keyof LifecycleCallbacks>> = {
  configure: "onConfigure",
  activate: "onActivate",
  deactivate: "onDeactivate",
  cleanup: "onCleanup",
  shutdown: "onShutdown",
};

/**
 * A managed node (rclcpp_lifecycle::LifecycleNode). A transition callback returning "failure"
 * (or throwing, which is logged) leaves the node in its previous state. Publishers are lifecycle
 * publishers: while the node is not active, publish drops the message and warns once per
 * publisher (rclcpp_lifecycle LifecyclePublisher).
 */
export class EmbeddedLifecycleNode extends EmbeddedNode implements LifecycleRosNode {
  #state: LifecycleState = "unconfigured";
  #callbacks: LifecycleCallbacks = {};
  #inTransition: TransitionName | undefined;
  readonly #warnedInactive = new Set<number>();

  get state(): LifecycleState {
    return this.#state;
  }

  setLifecycleCallbacks(callbacks: LifecycleCallbacks): void {
    this.#callbacks = { ...callbacks };
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

  protected override publishChecked(endpoint: PublisherEndpoint, message: unknown): void {
    if (this.#state !== "active") {
      if (!this.#warnedInactive.has(endpoint.id)) {
        this.#warnedInactive.add(endpoint.id);
        this.getLogger().warn(
          `Trying to publish message on the topic '${endpoint.topic}', but the publisher is not activated (node state ${this.#state})`,
        );
      }
      return;
    }
    super.publishChecked(endpoint, message);
  }

  async #transition(name: TransitionName): Promise<TransitionResult> {
    const from = this.#state;
    const target = TRANSITIONS[from][name];
    if (target === undefined) {
      const valid = Object.keys(TRANSITIONS[from]);
      throw new Error(
        `cannot ${name} node ${this.fullyQualifiedName} in state ${from}: valid transitions are ${valid.length > 0 ? valid.join(", ") : "none (finalized)"}`,
      );
    }
    if (this.#inTransition !== undefined) {
      throw new Error(`cannot ${name} node ${this.fullyQualifiedName}: transition ${this.#inTransition} is still running`);
    }
    this.#inTransition = name;
    let result: TransitionResult;
    try {
      const cb = this.#callbacks[CALLBACK_OF[name]];
      result = cb === undefined ? "success" : await cb();
    } catch (error) {
      this.getLogger().error(`${name} callback threw: ${error instanceof Error ? error.message : String(error)}`);
      result = "failure";
    } finally {
      this.#inTransition = undefined;
    }
    if (result === "success") {
      this.#state = target;
      if (target === "active") this.#warnedInactive.clear();
    }
    return result;
  }
}
