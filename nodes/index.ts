/**
 * The node registry: executable name (as in `<node exec="...">` and lib/drone_harness/<exec>)
 * -> NodeFactory. Used by `drone-harness launch` and by scripts/ros2/runNode.ts.
 * Created empty by the launch work (engineer B); the nodes (issue 6) register themselves here.
 */
import type { NodeRegistry } from "../src/ros/launch/NodeFactory";

export const NODE_REGISTRY: NodeRegistry = {};
