/**
 * The lifecycle wiring the managed nodes of this package share (perception, harness, controller,
 * safety): a node hands over its own work per transition and gets back the transition callbacks
 * and the `{ node, stop }` its factory returns.
 *
 * Why one helper: the managed-node design (design.ros2.org/articles/node_lifecycle.html) fixes
 * what every node does around its own work. Configure allocates, and a failed configure must
 * leave the node unconfigured with nothing allocated, so the error is logged and everything
 * released before returning failure; cleanup and shutdown both free what configure allocated
 * (ros2/demos lifecycle_talker.cpp `on_cleanup`/`on_shutdown` reset the publisher and timer).
 * Activate and deactivate stay node-specific (lifecycle_talker starts/stops its own timer).
 */
import type { LaunchedNode, NodeFactoryOptions } from "../../../src/ros/launch/NodeFactory";
import type { LifecycleCallbacks, LifecycleRosNode, Logger, RosGraph, TransitionResult } from "../../../src/ros/graph/types";

/** The lifecycle node a factory creates from its launch options (name, namespace, parameters, remaps). */
export function createLaunchedLifecycleNode(graph: RosGraph, options: NodeFactoryOptions): LifecycleRosNode {
  return graph.createLifecycleNode(options.name, {
    namespace: options.namespace,
    parameterOverrides: options.parameterOverrides,
    remappings: options.remappings,
  });
}

export type LifecycleWork = {
  /** Logger for "configure failed: <message>". */
  logger: Logger;
  /** Allocates publishers, subscriptions and state; throwing (or rejecting) fails the transition. */
  configure: () => void | Promise<void>;
  /** Starts the node's work (timers, the active flag). */
  activate: () => void;
  /** Stops the node's work, keeping what configure allocated. */
  deactivate: () => void;
  /** Frees everything configure allocated; must be safe in any state and when called twice. */
  release: () => void;
  /** Extra state reset run after `release` on cleanup only; default: nothing. */
  resetOnCleanup?: () => void;
};

/** Sets the lifecycle callbacks of `node` from `work` and returns the factory result. */
export function wireLifecycle(node: LifecycleRosNode, work: LifecycleWork): LaunchedNode {
  const { logger, release } = work;
  const fail = (err: unknown): TransitionResult => {
    logger.error(`configure failed: ${err instanceof Error ? err.message : String(err)}`);
    release();
    return "failure";
  };
  const callbacks: LifecycleCallbacks = {
    // A synchronous configure keeps a synchronous callback; an async one resolves to the result.
    onConfigure: () => {
      try {
        const pending = work.configure();
        return pending instanceof Promise ? pending.then((): TransitionResult => "success", fail) : "success";
      } catch (err) {
        return fail(err);
      }
    },
    onActivate: () => {
      work.activate();
      return "success";
    },
    onDeactivate: () => {
      work.deactivate();
      return "success";
    },
    onCleanup: () => {
      release();
      work.resetOnCleanup?.();
      return "success";
    },
    onShutdown: () => {
      release();
      return "success";
    },
  };
  node.setLifecycleCallbacks(callbacks);
  return {
    node,
    stop: async () => {
      release();
      node.destroy();
    },
  };
}
