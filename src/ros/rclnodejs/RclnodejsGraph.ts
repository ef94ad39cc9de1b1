import type { RosGraph } from "../graph/types";
import { loadRclnodejs } from "./loadRclnodejs";

export function createRclnodejsGraph(_options: { globalRemappings?: Record<string, string> }): Promise<RosGraph> {
  loadRclnodejs();
  return Promise.reject(new Error("the rclnodejs graph adapter is not written yet"));
}
