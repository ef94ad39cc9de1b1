/**
 * The simulator's side of the SPEC.md topic contract: what the sim node (and, through
 * ros_gz_bridge, Gazebo) publishes and subscribes, with types and QoS. Names are absolute here;
 * the node creates them relative (without the leading "/") so they can be remapped, except /clock.
 */
export type TopicQos = "sensor_data" | "reliable";

export type SimTopic = {
  topic: string;
  type: string;
  qos: TopicQos;
  direction: "publish" | "subscribe";
  /** frame_id written in the header, when the message has one. */
  frameId?: string;
};

/** Custom ground-truth message (msgs/msg/GroundTruth.msg). */
export const GROUND_TRUTH_TYPE = "drone_harness_msgs/msg/GroundTruth";

export const SIM_TOPICS: readonly SimTopic[] = [
  { topic: "/camera/image_raw", type: "sensor_msgs/msg/Image", qos: "sensor_data", direction: "publish", frameId: "camera_optical_frame" },
  { topic: "/camera/camera_info", type: "sensor_msgs/msg/CameraInfo", qos: "sensor_data", direction: "publish", frameId: "camera_optical_frame" },
  { topic: "/imu/data", type: "sensor_msgs/msg/Imu", qos: "sensor_data", direction: "publish", frameId: "imu_link" },
  { topic: "/gps/fix", type: "sensor_msgs/msg/NavSatFix", qos: "sensor_data", direction: "publish", frameId: "gps_link" },
  { topic: "/gps/vel", type: "geometry_msgs/msg/TwistStamped", qos: "sensor_data", direction: "publish", frameId: "gps_link" },
  { topic: "/clock", type: "rosgraph_msgs/msg/Clock", qos: "reliable", direction: "publish" },
  // The mission goal, published once at start with transient-local durability (nodes/sim.ts).
  { topic: "/goal", type: "geographic_msgs/msg/GeoPoseStamped", qos: "reliable", direction: "publish" },
  { topic: "/sim/ground_truth", type: GROUND_TRUTH_TYPE, qos: "reliable", direction: "publish", frameId: "camera_optical_frame" },
  { topic: "/cmd_vel", type: "geometry_msgs/msg/TwistStamped", qos: "reliable", direction: "subscribe", frameId: "base_link" },
];

/**
 * The inputs of the nodes from outside them: the sensors (what the simulator or the real sensors
 * publish with sensor-data QoS) and the mission goal (/goal). What `bag play` and `replay` feed
 * into the nodes from a bag recorded from this package's launch (src/bag/selectPlayTopics.ts).
 */
export const SENSOR_INPUT_TOPICS: readonly string[] = [
  ...SIM_TOPICS.filter((t) => t.direction === "publish" && t.qos === "sensor_data").map((t) => t.topic),
  "/goal",
];
