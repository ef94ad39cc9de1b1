import type { lifecycle_msgs__msg__State, lifecycle_msgs__msg__Transition, lifecycle_msgs__msg__TransitionEvent } from "../msgs/generated";
import type { PublisherEndpoint } from "./MessageBus";
import { EmbeddedNode, EmbeddedPublisher } from "./EmbeddedNode";
import {
  PRIMARY_STATE,
  outcomeTransition,
  requestedTransition,
  runTransitionCallback,
  transitionState,
  transitionTarget,
  type TransitionName,
} from "./LifecycleStateMachine";
import { QOS_DEFAULT } from "./types";
import type { LifecycleCallbacks, LifecycleRosNode, LifecycleState, TransitionResult } from "./types";

const TRANSITION_EVENT_TYPE = "lifecycle_msgs/msg/TransitionEvent";

/**
 * A managed node (rclcpp_lifecycle::LifecycleNode). A transition callback returning "failure"
 * (or throwing, which is logged) leaves the node in its previous state. Publishers are lifecycle
 * publishers: while the node is not active, publish drops the message and warns once per
 * publisher (rclcpp_lifecycle LifecyclePublisher).
 *
 * Every transition is announced on `~/transition_event` (lifecycle_msgs/msg/TransitionEvent,
 * rmw default QoS, as rcl_lifecycle's com_interface publishes it) in two steps, like the default
 * state machine: primary state -> transition state (e.g. inactive -> activating, transition
 * "activate"), then transition state -> resulting primary state (transition
 * "transition_success" / "transition_failure" with the ON_<X>_SUCCESS / FAILURE id). A callback
 * that throws is reported as a failure, since this node returns to its previous state instead of
 * going through errorprocessing. `timestamp` is the node clock in nanoseconds.
 */
export class EmbeddedLifecycleNode extends EmbeddedNode implements LifecycleRosNode {
  #state: LifecycleState = "unconfigured";
  #callbacks: LifecycleCallbacks = {};
  #inTransition: TransitionName | undefined;
  readonly #warnedInactive = new Set<number>();
  /** Skipped when the registry lacks lifecycle_msgs (it is in the bundled ros2jazzy set). */
  readonly #transitionEvent: PublisherEndpoint | undefined = this.host.registry.has(TRANSITION_EVENT_TYPE)
    ? (this.createPublisher(TRANSITION_EVENT_TYPE, "~/transition_event", { qos: QOS_DEFAULT }) as EmbeddedPublisher<unknown>).endpoint
    : undefined;

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
    if (this.#state !== "active" && endpoint !== this.#transitionEvent) {
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
    const target = transitionTarget(from, name, this.fullyQualifiedName);
    if (this.#inTransition !== undefined) {
      throw new Error(`cannot ${name} node ${this.fullyQualifiedName}: transition ${this.#inTransition} is still running`);
    }
    this.#inTransition = name;
    const passing = transitionState(name);
    this.#announce(requestedTransition(name, from), PRIMARY_STATE[from], passing);
    let result: TransitionResult;
    try {
      result = await runTransitionCallback(this.#callbacks, name, this.getLogger());
    } finally {
      this.#inTransition = undefined;
    }
    if (result === "success") {
      this.#state = target;
      if (target === "active") this.#warnedInactive.clear();
    }
    this.#announce(outcomeTransition(name, result), passing, PRIMARY_STATE[this.#state]);
    return result;
  }

  #announce(transition: lifecycle_msgs__msg__Transition, start: lifecycle_msgs__msg__State, goal: lifecycle_msgs__msg__State): void {
    if (this.#transitionEvent === undefined || this.isDestroyed) return;
    const event: lifecycle_msgs__msg__TransitionEvent = { timestamp: this.getClock().nowNs(), transition, start_state: start, goal_state: goal };
    this.publishChecked(this.#transitionEvent, event);
  }
}
