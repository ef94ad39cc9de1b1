import type { TypedParameterValue } from "../params";

/** A remapping rule `from:=to` of a node (rcl applies the first rule that matches). */
export type LaunchRemap = { from: string; to: string };

/** One `<node>` of a launch file, fully evaluated: what a launcher needs to start it. */
export type NodeLaunchDescription = {
  package: string;
  executable: string;
  /** Node name (the `name` attribute, or the executable name when absent). */
  name: string;
  /** Absolute namespace ("/" for the root). */
  namespace: string;
  /** "/ns/name". */
  fullyQualifiedName: string;
  /** Parameters merged in ROS 2 order (set_parameter, then each <param> in document order; later wins). */
  parameters: Record<string, TypedParameterValue>;
  /** Group-level set_remap rules first, then the node's own <remap> elements, in order. */
  remappings: LaunchRemap[];
  respawn: boolean;
  /** Seconds to wait before restarting a node that exited (respawn_delay). */
  respawnDelaySec: number;
  /** "screen", "log" or "both" as written (default "log", as launch_ros). */
  output: string;
  /** Extra command-line arguments (`args`), split on spaces. */
  args: string[];
  source: { file: string; line: number };
};

/** Something the embedded launcher did not run, and why (foreign packages, non-XML includes). */
export type SkippedEntity = { file: string; line: number; what: string; reason: string };

/** A declared launch argument and the value it took. */
export type LaunchArgument = { name: string; value: string; description?: string; file: string };

/** The result of evaluating a launch file and its includes. */
export type LaunchPlan = {
  nodes: NodeLaunchDescription[];
  skipped: SkippedEntity[];
  arguments: LaunchArgument[];
  warnings: string[];
};
