import type { LifecycleRosNode, ParameterValue, RosGraph, RosNode } from "../graph/types";

/** What a launcher passes to a node factory (the node's `--ros-args`, resolved). */
export type NodeFactoryOptions = {
  /** Node name (launch `name`, or `-r __node:=`). */
  name: string;
  /** Absolute namespace ("/" for the root). */
  namespace: string;
  /** Parameters from launch `<param>`, parameter files and `-p`, merged in ROS 2 precedence order. */
  parameterOverrides: Record<string, ParameterValue>;
  /** Node-local remapping rules, from -> to. */
  remappings: Record<string, string>;
};

/** A running node and how to stop it (cancel timers, destroy the node). */
export type LaunchedNode = {
  node: RosNode | LifecycleRosNode;
  stop(): Promise<void>;
};

/** Creates one node of this package on a graph; the registry (nodes/index.ts) maps exec names to these. */
export type NodeFactory = (graph: RosGraph, options: NodeFactoryOptions) => Promise<LaunchedNode>;

/** exec name (as in `<node exec="...">` and lib/drone_harness/<exec>) -> factory. */
export type NodeRegistry = Readonly<Record<string, NodeFactory>>;

/** Whether a launched node is managed (has lifecycle transitions). */
export function isLifecycleNode(node: RosNode | LifecycleRosNode): node is LifecycleRosNode {
  return "configure" in node && "activate" in node && "state" in node;
}

/**
 * Brings a lifecycle node to "active" (configure, then activate), as a launcher with an
 * auto-start lifecycle manager does (nav2_lifecycle_manager's autostart); plain nodes are already
 * running. Throws an Error naming the node and the transition that failed.
 */
export async function activateIfLifecycle(launched: LaunchedNode): Promise<void> {
  const node = launched.node;
  if (!isLifecycleNode(node)) return;
  if (node.state === "unconfigured" && (await node.configure()) !== "success") {
    throw new Error(`node ${node.fullyQualifiedName}: configure transition failed (state ${node.state})`);
  }
  if (node.state === "inactive" && (await node.activate()) !== "success") {
    throw new Error(`node ${node.fullyQualifiedName}: activate transition failed (state ${node.state})`);
  }
}
