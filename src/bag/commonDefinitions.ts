/**
 * Message definitions bundled with @foxglove/rosmsg-msgs-common (ROS 2 Jazzy's common_interfaces,
 * rcl_interfaces, rosgraph_msgs, builtin_interfaces). Used for .db3 bags, which carry no schema,
 * and to write schemas for these types until src/ros/msgs provides the full .msg texts.
 */
import type { MessageDefinition } from "@foxglove/message-definition";
import { ros2jazzy } from "@foxglove/rosmsg-msgs-common";
import { ros2MsgSchemaText, shortTypeName } from "./ros2MsgSchema";

const DEFINITIONS = ros2jazzy as Record<string, MessageDefinition | undefined>;

/** The Jazzy definition of "pkg/Name" or "pkg/msg/Name"; undefined when not bundled. */
export function commonDefinition(name: string): MessageDefinition | undefined {
  return DEFINITIONS[shortTypeName(name)];
}

/** ros2msg schema text of a bundled type with its dependencies. */
export function commonSchemaText(type: string): string {
  return ros2MsgSchemaText(type, commonDefinition);
}
