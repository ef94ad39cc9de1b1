import {
  lifecycle_msgs__msg__State__constants as STATE,
  lifecycle_msgs__msg__Transition__constants as TRANSITION,
  type lifecycle_msgs__msg__State,
  type lifecycle_msgs__msg__Transition,
  type lifecycle_msgs__msg__TransitionEvent,
} from "../msgs/generated";
import type { PublisherEndpoint } from "./MessageBus";
import { EmbeddedNode, EmbeddedPublisher } from "./EmbeddedNode";
import { QOS_DEFAULT } from "./types";
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

const TRANSITION_EVENT_TYPE = "lifecycle_msgs/msg/TransitionEvent";

/** Primary states with lifecycle_msgs/msg/State ids and rcl_lifecycle's labels (default_state_machine.c). */
const PRIMARY: Readonly<Record<LifecycleState, lifecycle_msgs__msg__State>> = {
  unconfigured: { id: STATE.PRIMARY_STATE_UNCONFIGURED, label: "unconfigured" },
  inactive: { id: STATE.PRIMARY_STATE_INACTIVE, label: "inactive" },
  active: { id: STATE.PRIMARY_STATE_ACTIVE, label: "active" },
  finalized: { id: STATE.PRIMARY_STATE_FINALIZED, label: "finalized" },
};

/** The transition state each transition passes through, and the ids of its callback outcomes. */
const STEPS: Readonly<Record<TransitionName, { state: lifecycle_msgs__msg__State; success: number; failure: number }>> = {
  configure: { state: { id: STATE.TRANSITION_STATE_CONFIGURING, label: "configuring" }, success: TRANSITION.TRANSITION_ON_CONFIGURE_SUCCESS, failure: TRANSITION.TRANSITION_ON_CONFIGURE_FAILURE },
  cleanup: { state: { id: STATE.TRANSITION_STATE_CLEANINGUP, label: "cleaningup" }, success: TRANSITION.TRANSITION_ON_CLEANUP_SUCCESS, failure: TRANSITION.TRANSITION_ON_CLEANUP_FAILURE },
  activate: { state: { id: STATE.TRANSITION_STATE_ACTIVATING, label: "activating" }, success: TRANSITION.TRANSITION_ON_ACTIVATE_SUCCESS, failure: TRANSITION.TRANSITION_ON_ACTIVATE_FAILURE },
  deactivate: { state: { id: STATE.TRANSITION_STATE_DEACTIVATING, label: "deactivating" }, success: TRANSITION.TRANSITION_ON_DEACTIVATE_SUCCESS, failure: TRANSITION.TRANSITION_ON_DEACTIVATE_FAILURE },
  shutdown: { state: { id: STATE.TRANSITION_STATE_SHUTTINGDOWN, label: "shuttingdown" }, success: TRANSITION.TRANSITION_ON_SHUTDOWN_SUCCESS, failure: TRANSITION.TRANSITION_ON_SHUTDOWN_FAILURE },
};

/** The id of the transition a request triggers; shutdown has one per start state (Transition.msg). */
function requestedTransition(name: TransitionName, from: LifecycleState): lifecycle_msgs__msg__Transition {
  switch (name) {
    case "configure":
      return { id: TRANSITION.TRANSITION_CONFIGURE, label: name };
    case "cleanup":
      return { id: TRANSITION.TRANSITION_CLEANUP, label: name };
    case "activate":
      return { id: TRANSITION.TRANSITION_ACTIVATE, label: name };
    case "deactivate":
      return { id: TRANSITION.TRANSITION_DEACTIVATE, label: name };
    case "shutdown": {
      const id = from === "inactive" ? TRANSITION.TRANSITION_INACTIVE_SHUTDOWN : from === "active" ? TRANSITION.TRANSITION_ACTIVE_SHUTDOWN : TRANSITION.TRANSITION_UNCONFIGURED_SHUTDOWN;
      return { id, label: name };
    }
  }
}

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
    const step = STEPS[name];
    this.#announce(requestedTransition(name, from), PRIMARY[from], step.state);
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
    const outcome = result === "success" ? { id: step.success, label: "transition_success" } : { id: step.failure, label: "transition_failure" };
    this.#announce(outcome, step.state, PRIMARY[this.#state]);
    return result;
  }

  #announce(transition: lifecycle_msgs__msg__Transition, start: lifecycle_msgs__msg__State, goal: lifecycle_msgs__msg__State): void {
    if (this.#transitionEvent === undefined || this.isDestroyed) return;
    const event: lifecycle_msgs__msg__TransitionEvent = { timestamp: this.getClock().nowNs(), transition, start_state: start, goal_state: goal };
    this.publishChecked(this.#transitionEvent, event);
  }
}
