import { toRosTypeName } from "../msgs/typeNames";

/**
 * ROS 2 name mangling on the DDS wire, as rmw_cyclonedds_cpp does it (rmw_dds_common /
 * rosidl_generator_dds_idl): topic "/cmd_vel" is DDS topic "rt/cmd_vel"; type
 * "geometry_msgs/msg/TwistStamped" is DDS type "geometry_msgs::msg::dds_::TwistStamped_".
 */
export const ROS_TOPIC_PREFIX = "rt";

/** "/cmd_vel" -> "rt/cmd_vel" (a fully qualified ROS 2 topic name is expected). */
export function ddsTopicName(rosTopic: string): string {
  if (!rosTopic.startsWith("/")) throw new Error(`ddsTopicName: topic "${rosTopic}" is not fully qualified (expected a leading "/")`);
  return `${ROS_TOPIC_PREFIX}${rosTopic}`;
}

/** "rt/cmd_vel" -> "/cmd_vel"; undefined for DDS topics that are not ROS 2 topics. */
export function rosTopicName(ddsTopic: string): string | undefined {
  return ddsTopic.startsWith(`${ROS_TOPIC_PREFIX}/`) ? ddsTopic.slice(ROS_TOPIC_PREFIX.length) : undefined;
}

/** "geometry_msgs/msg/TwistStamped" (or "geometry_msgs/TwistStamped") -> "geometry_msgs::msg::dds_::TwistStamped_". */
export function ddsTypeName(rosType: string): string {
  const [pkg, , name] = toRosTypeName(rosType).split("/");
  return `${pkg ?? ""}::msg::dds_::${name ?? ""}_`;
}

/** "geometry_msgs::msg::dds_::TwistStamped_" -> "geometry_msgs/msg/TwistStamped"; undefined otherwise. */
export function rosTypeName(ddsType: string): string | undefined {
  const m = /^([a-z][a-z0-9_]*)::msg::dds_::([A-Z][A-Za-z0-9]*)_$/.exec(ddsType);
  return m === null ? undefined : `${m[1] ?? ""}/msg/${m[2] ?? ""}`;
}
