/**
 * The node registry: executable name (as in `<node exec="...">` and lib/drone_harness/<exec>)
 * -> NodeFactory. Used by `drone-harness launch` and by scripts/ros2/runNode.ts.
 * `NODE_REGISTRY` loads the networks from model files (parameter `model_dir`);
 * `createNodeRegistry(models)` builds the same registry around other model sources (networks
 * already in memory in the main job, fakes in tests). "sim" is the embedded simulator
 * (nodes/sim.ts).
 */
import type { NodeRegistry } from "../src/ros/launch/NodeFactory";
import { FILE_MODEL_PROVIDER, type ModelProvider, type WireMapperParams } from "./common/models/ModelProvider";
import { controllerNode } from "./controller";
import { createHarnessNode } from "./harness";
import { odomToGpsVelNode } from "./odom_to_gps_vel";
import { createPerceptionNode } from "./perception";
import { safetyNode } from "./safety";
import { createFaultySimNode } from "./faultySim";
import { loadScenarioFaults } from "../sim/faults/io/loadScenarioFaults";

export type { ModelProvider } from "./common/models/ModelProvider";

export function createNodeRegistry(models: ModelProvider): NodeRegistry {
  // The wire map (off unless wire_map_model_dir is set) reads its photo model from files when the provider has none.
  const wireMapper = (p: WireMapperParams): ReturnType<NonNullable<ModelProvider["wireMapper"]>> =>
    models.wireMapper !== undefined ? models.wireMapper(p) : FILE_MODEL_PROVIDER.wireMapper!(p);
  return {
    perception: createPerceptionNode({ createDetector: (p) => models.detector(p), createWireMapper: (p) => wireMapper(p) }),
    harness: createHarnessNode({ createCorrector: (p) => models.corrector(p) }),
    controller: controllerNode,
    safety: safetyNode,
    // The sim node with the scenario file's `faults:` block applied (sim/faults; none: unchanged).
    sim: createFaultySimNode({ loadFaults: loadScenarioFaults }),
    // Gazebo: ground-truth odometry (bridged nav_msgs/Odometry) -> gps/vel in ENU.
    odom_to_gps_vel: odomToGpsVelNode,
  };
}

export const NODE_REGISTRY: NodeRegistry = createNodeRegistry(FILE_MODEL_PROVIDER);
