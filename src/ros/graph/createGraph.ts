import { DdsGraph } from "../dds/DdsGraph";
import type { DdsGraphOptions } from "../dds/DdsGraph";
import { createRclnodejsGraph } from "../rclnodejs/RclnodejsGraph";
import { EmbeddedGraph } from "./EmbeddedGraph";
import type { EmbeddedGraphOptions } from "./EmbeddedGraph";
import type { RosGraph } from "./types";

export type Middleware = "embedded" | "ros2" | "dds";

export const MIDDLEWARES: readonly Middleware[] = ["embedded", "ros2", "dds"];

export type CreateGraphOptions = EmbeddedGraphOptions &
  Pick<DdsGraphOptions, "domainId" | "ddsConfig"> & {
  /**
   * "embedded" (default): in-process graph. "ros2": real ROS 2 through rclnodejs (loaded lazily).
   * "dds": the embedded graph with every endpoint on Cyclone DDS (koffi + libddsc, loaded lazily).
   */
  middleware?: Middleware;
  /** ros2 only: command-line arguments for rcl (e.g. the --ros-args that ros2 launch passes). */
  argv?: string[];
};

/**
 * The graph factory. rclnodejs itself is `require`d inside createRclnodejsGraph, only when "ros2"
 * is chosen, so the package runs where rclnodejs cannot be installed.
 */
export async function createGraph(options: CreateGraphOptions = {}): Promise<RosGraph> {
  const middleware = options.middleware ?? "embedded";
  switch (middleware) {
    case "embedded":
      return new EmbeddedGraph(options);
    case "ros2": {
      return createRclnodejsGraph({ globalRemappings: options.globalRemappings, argv: options.argv });
    }
    case "dds":
      return new DdsGraph(options);
    default: {
      const never: never = middleware;
      throw new Error(`unknown middleware "${String(never)}": expected "embedded", "ros2" or "dds"`);
    }
  }
}
