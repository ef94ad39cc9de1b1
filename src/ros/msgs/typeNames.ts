/**
 * ROS 2 interface type names. Public names are "pkg/msg/Name" (the ROS 2 form used by rclnodejs,
 * rosbag2 metadata and `ros2 topic list -t`); @foxglove/rosmsg and rosmsg2-serialization key
 * definitions as "pkg/Name", which this module calls the internal name.
 */

const ROS_TYPE_NAME = /^([a-z][a-z0-9_]*)\/msg\/([A-Z][A-Za-z0-9]*)$/;
const INTERNAL_TYPE_NAME = /^([a-z][a-z0-9_]*)\/([A-Z][A-Za-z0-9]*)$/;

/** "sensor_msgs/Image" -> "sensor_msgs/msg/Image"; names already in the ROS 2 form pass through. */
export function toRosTypeName(name: string): string {
  if (ROS_TYPE_NAME.test(name)) return name;
  const m = INTERNAL_TYPE_NAME.exec(name);
  if (m === null) throw new Error(`invalid message type name "${name}": expected "pkg/msg/Name" or "pkg/Name"`);
  return `${m[1] ?? ""}/msg/${m[2] ?? ""}`;
}

/** "sensor_msgs/msg/Image" (or "sensor_msgs/Image") -> "sensor_msgs/Image". */
export function toInternalTypeName(name: string): string {
  const m = ROS_TYPE_NAME.exec(name);
  if (m !== null) return `${m[1] ?? ""}/${m[2] ?? ""}`;
  if (INTERNAL_TYPE_NAME.test(name)) return name;
  throw new Error(`invalid message type name "${name}": expected "pkg/msg/Name" (e.g. "sensor_msgs/msg/Image")`);
}

/** The package of an internal or ROS 2 type name. */
export function packageOf(name: string): string {
  const slash = name.indexOf("/");
  return slash < 0 ? "" : name.slice(0, slash);
}
