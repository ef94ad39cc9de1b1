/** Small talker/listener factories for launcher and introspection tests (ros2/demos Talker/Listener). */
import type { LaunchedNode, NodeFactory } from "../../../src/ros/launch/NodeFactory";

export type StringMsg = { data: string };

/** Publishes "Hello, world! N" on `chatter` every `period_ms` (parameter, default 5). */
export const talker: NodeFactory = async (graph, o) => {
  const node = graph.createNode(o.name, { namespace: o.namespace, parameterOverrides: o.parameterOverrides, remappings: o.remappings });
  const periodMs = node.declareParameter("period_ms", 5, { type: "integer", range: { from: 1, to: 1000 } }) as number;
  node.declareParameter("greeting", "Hello, world!", { type: "string" });
  node.declareParameter("gain", 0.5, { type: "double", range: { from: 0, to: 1 } });
  const pub = node.createPublisher<StringMsg>("std_msgs/msg/String", "chatter");
  let n = 0;
  const timer = node.createTimer(BigInt(periodMs) * 1_000_000n, () => {
    pub.publish({ data: `${String(node.getParameter("greeting").value)} ${n++}` });
  });
  return { node, stop: async () => { timer.cancel(); node.destroy(); } };
};

/** A listener that reports each message to `onMessage`. */
export function listener(onMessage: (fqn: string, m: StringMsg) => void): NodeFactory {
  return async (graph, o) => {
    const node = graph.createNode(o.name, { namespace: o.namespace, parameterOverrides: o.parameterOverrides, remappings: o.remappings });
    node.createSubscription<StringMsg>("std_msgs/msg/String", "chatter", {}, (m) => onMessage(node.fullyQualifiedName, m));
    return { node, stop: async () => node.destroy() };
  };
}

/** A lifecycle node that records its transitions. */
export function lifecycleNode(transitions: string[]): NodeFactory {
  return async (graph, o): Promise<LaunchedNode> => {
    const node = graph.createLifecycleNode(o.name, { namespace: o.namespace, parameterOverrides: o.parameterOverrides, remappings: o.remappings });
    node.setLifecycleCallbacks({
      onConfigure: () => (transitions.push("configure"), "success"),
      onActivate: () => (transitions.push("activate"), "success"),
    });
    return { node, stop: async () => node.destroy() };
  };
}
