/**
 * The managed-node state machine both lifecycle adapters share (design.ros2.org/articles/
 * node_lifecycle.html): the primary states, the valid transitions between them, the user callback
 * each transition runs and how a throwing callback counts, and the lifecycle_msgs/msg/State and
 * Transition values rcl_lifecycle's default state machine (default_state_machine.c) announces.
 * Pure: the adapters own the node, its clock and its transport.
 */
import {
  lifecycle_msgs__msg__State__constants as STATE,
  lifecycle_msgs__msg__Transition__constants as TRANSITION,
  type lifecycle_msgs__msg__State,
  type lifecycle_msgs__msg__Transition,
} from "../msgs/generated";
import type { LifecycleCallbacks, LifecycleState, Logger, TransitionResult } from "./types";

export type TransitionName = "configure" | "activate" | "deactivate" | "cleanup" | "shutdown";

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

/** The primary state `name` leads to from `from`; throws naming the valid transitions if there is none. */
export function transitionTarget(from: LifecycleState, name: TransitionName, nodeName: string): LifecycleState {
  const target = TRANSITIONS[from][name];
  if (target === undefined) {
    const valid = Object.keys(TRANSITIONS[from]);
    throw new Error(`cannot ${name} node ${nodeName} in state ${from}: valid transitions are ${valid.length > 0 ? valid.join(", ") : "none (finalized)"}`);
  }
  return target;
}

/**
 * Runs the user callback of transition `name` (none counts as success). A callback that throws is
 * logged and counts as "failure": the node stays in its previous state instead of going through
 * errorprocessing.
 */
export async function runTransitionCallback(callbacks: LifecycleCallbacks, name: TransitionName, logger: Logger): Promise<TransitionResult> {
  try {
    const cb = callbacks[CALLBACK_OF[name]];
    return cb === undefined ? "success" : await cb();
  } catch (error) {
    logger.error(`${name} callback threw: ${error instanceof Error ? error.message : String(error)}`);
    return "failure";
  }
}

/** Primary states with lifecycle_msgs/msg/State ids and rcl_lifecycle's labels (default_state_machine.c). */
export const PRIMARY_STATE: Readonly<Record<LifecycleState, lifecycle_msgs__msg__State>> = {
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

/** The transition state `name` passes through (e.g. "activating"). */
export function transitionState(name: TransitionName): lifecycle_msgs__msg__State {
  return STEPS[name].state;
}

/** The id of the transition a request triggers; shutdown has one per start state (Transition.msg). */
export function requestedTransition(name: TransitionName, from: LifecycleState): lifecycle_msgs__msg__Transition {
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

/** The transition that ends `name` with `result` (ON_<X>_SUCCESS / ON_<X>_FAILURE). */
export function outcomeTransition(name: TransitionName, result: TransitionResult): lifecycle_msgs__msg__Transition {
  const step = STEPS[name];
  return result === "success" ? { id: step.success, label: "transition_success" } : { id: step.failure, label: "transition_failure" };
}
