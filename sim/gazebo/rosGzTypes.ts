/**
 * ROS <-> Gazebo Transport message pairs that ros_gz_bridge converts, as documented in the
 * "The following message types can be bridged for topics" table of ros_gz_bridge's README
 * (github.com/gazebosim/ros_gz, ros_gz_bridge/README.md). Only pairs in this table can appear in
 * a bridge config; the export is checked against it.
 */
export const ROS_GZ_TYPE_PAIRS: ReadonlyArray<readonly [ros: string, gz: string]> = [
  ["builtin_interfaces/msg/Time", "gz.msgs.Time"],
  ["geometry_msgs/msg/Point", "gz.msgs.Vector3d"],
  ["geometry_msgs/msg/Pose", "gz.msgs.Pose"],
  ["geometry_msgs/msg/PoseStamped", "gz.msgs.Pose"],
  ["geometry_msgs/msg/Quaternion", "gz.msgs.Quaternion"],
  ["geometry_msgs/msg/Twist", "gz.msgs.Twist"],
  ["geometry_msgs/msg/TwistStamped", "gz.msgs.Twist"],
  ["geometry_msgs/msg/TwistWithCovariance", "gz.msgs.TwistWithCovariance"],
  ["geometry_msgs/msg/Vector3", "gz.msgs.Vector3d"],
  // Converted by ros_gz_bridge src/convert/nav_msgs.cpp (header, pose, twist, child_frame_id).
  ["nav_msgs/msg/Odometry", "gz.msgs.Odometry"],
  ["rosgraph_msgs/msg/Clock", "gz.msgs.Clock"],
  ["sensor_msgs/msg/CameraInfo", "gz.msgs.CameraInfo"],
  ["sensor_msgs/msg/Image", "gz.msgs.Image"],
  ["sensor_msgs/msg/Imu", "gz.msgs.IMU"],
  ["sensor_msgs/msg/MagneticField", "gz.msgs.Magnetometer"],
  ["sensor_msgs/msg/NavSatFix", "gz.msgs.NavSat"],
  ["std_msgs/msg/Bool", "gz.msgs.Boolean"],
  ["std_msgs/msg/Float64", "gz.msgs.Double"],
  ["tf2_msgs/msg/TFMessage", "gz.msgs.Pose_V"],
];

export type BridgeDirection = "GZ_TO_ROS" | "ROS_TO_GZ" | "BIDIRECTIONAL";

/** One entry of a ros_gz_bridge YAML config (README "Example 5: Configuring the Bridge via YAML"). */
export type BridgeEntry = {
  ros_topic_name: string;
  gz_topic_name: string;
  ros_type_name: string;
  gz_type_name: string;
  direction: BridgeDirection;
};

/** Problems of a bridge config: type pairs the bridge cannot convert. Empty when valid. */
export function checkBridgePairs(entries: readonly BridgeEntry[]): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    if (!ROS_GZ_TYPE_PAIRS.some(([r, g]) => r === e.ros_type_name && g === e.gz_type_name)) {
      problems.push(`${e.ros_topic_name}: ${e.ros_type_name} <-> ${e.gz_type_name} is not a documented ros_gz_bridge pair`);
    }
  }
  return problems;
}
