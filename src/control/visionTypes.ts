/**
 * Plain records for the ROS 2 messages the control core produces and consumes, shaped exactly
 * like the .msg definitions so they can be published as-is on the embedded graph or rclnodejs:
 * std_msgs/Header, vision_msgs 4.x Detection2D / Detection2DArray (ros-perception/vision_msgs
 * msg/Detection2D.msg, BoundingBox2D.msg with Pose2D{Point2D position, theta},
 * ObjectHypothesisWithPose.msg{ObjectHypothesis hypothesis, PoseWithCovariance pose}).
 * Kept structural so the generated types (src/ros/msgs/generated.ts) are assignable to them.
 */
/** builtin_interfaces/Time, structurally the same as RosTime of src/ros/graph/types.ts. */
export type Stamp = { sec: number; nanosec: number };

export type Header = { stamp: Stamp; frame_id: string };

export type ObjectHypothesis = { class_id: string; score: number };

export type PoseWithCovariance = {
  pose: {
    position: { x: number; y: number; z: number };
    orientation: { x: number; y: number; z: number; w: number };
  };
  /** Row-major 6x6 (float64[36]). */
  covariance: number[] | Float64Array;
};

export type ObjectHypothesisWithPose = { hypothesis: ObjectHypothesis; pose: PoseWithCovariance };

export type BoundingBox2D = {
  center: { position: { x: number; y: number }; theta: number };
  size_x: number;
  size_y: number;
};

export type Detection2D = {
  header: Header;
  results: ObjectHypothesisWithPose[];
  bbox: BoundingBox2D;
  id: string;
};

export type Detection2DArray = { header: Header; detections: Detection2D[] };
