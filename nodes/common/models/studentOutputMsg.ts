/**
 * drone_harness_msgs/msg/StudentOutput records (msgs/msg/StudentOutput.msg) and
 * drone_harness_msgs/msg/HarnessCorrection records (msgs/msg/HarnessCorrection.msg), and the
 * conversions between StudentOutput and the in-memory StudentOutputs view.
 */
import type { Header } from "../../../src/control/visionTypes";
import { ACTIONS, DETECTION_CLASSES } from "../../../src/harness/actions";
import type { Msg } from "../../../src/ros/msgs/generated";
import type { StudentOutputs } from "./models";

export const STUDENT_OUTPUT_TYPE = "drone_harness_msgs/msg/StudentOutput";
export const HARNESS_CORRECTION_TYPE = "drone_harness_msgs/msg/HarnessCorrection";
export const DETECTION_ARRAY_TYPE = "vision_msgs/msg/Detection2DArray";
export const TWIST_STAMPED_TYPE = "geometry_msgs/msg/TwistStamped";
export const IMAGE_TYPE = "sensor_msgs/msg/Image";
export const IMU_TYPE = "sensor_msgs/msg/Imu";
export const NAV_SAT_FIX_TYPE = "sensor_msgs/msg/NavSatFix";

/** The generated record types (src/ros/msgs/generated.ts, from msgs/msg/*.msg). */
export type StudentOutputMsg = Msg<typeof STUDENT_OUTPUT_TYPE>;
export type HarnessCorrectionMsg = Msg<typeof HARNESS_CORRECTION_TYPE>;

const ACTION_NAMES: string[] = [...ACTIONS];
const CLASS_NAMES: string[] = [...DETECTION_CLASSES];

export function copyHeader(h: Header): Header {
  return { stamp: { sec: h.stamp.sec, nanosec: h.stamp.nanosec }, frame_id: h.frame_id };
}

/**
 * Builds the message; the arrays are copied (the model reuses its buffers, and a queued message
 * must not change under a subscriber).
 */
export function toStudentOutputMsg(
  header: Header,
  out: {
    actionLogits: ArrayLike<number>;
    cellProbs: ArrayLike<number>;
    gridRows: number;
    gridCols: number;
    state: ArrayLike<number>;
    pooledSize: number;
    pooledInput: ArrayLike<number>;
    threatProbs?: ArrayLike<number>;
  },
  image: { width: number; height: number },
  corrected: boolean,
): StudentOutputMsg {
  return {
    header: copyHeader(header),
    corrected,
    action_names: ACTION_NAMES,
    action_logits: Float32Array.from(out.actionLogits),
    grid_rows: out.gridRows,
    grid_cols: out.gridCols,
    class_names: CLASS_NAMES,
    cell_probs: Float32Array.from(out.cellProbs),
    state: Float32Array.from(out.state),
    pooled_size: out.pooledSize,
    pooled_input: Float32Array.from(out.pooledInput),
    image_width: image.width,
    image_height: image.height,
    threat_probs: Float32Array.from(out.threatProbs ?? []),
  };
}

/** Checks a received StudentOutput's shape; returns a problem description or undefined. */
export function studentOutputProblem(msg: StudentOutputMsg): string | undefined {
  const k = msg.class_names.length;
  if (k < 1 || msg.grid_rows < 1 || msg.grid_cols < 1) return `grid ${msg.grid_rows}x${msg.grid_cols}x${k}, expected nonzero`;
  const cells = msg.grid_rows * msg.grid_cols;
  if (msg.threat_probs.length !== 0 && msg.threat_probs.length !== cells) return `threat_probs.length=${msg.threat_probs.length}, expected 0 or grid_rows*grid_cols=${cells}`;
  // The policy-head student sends action logits; the pipeline detector sends threat cells and
  // leaves the logits to the controller's planner (empty).
  const logitsExpected = msg.threat_probs.length === 0 ? `${ACTIONS.length}` : `0 or ${ACTIONS.length}`;
  if (msg.action_logits.length !== ACTIONS.length && !(msg.action_logits.length === 0 && msg.threat_probs.length > 0)) {
    return `action_logits.length=${msg.action_logits.length}, expected ${logitsExpected}`;
  }
  const n = msg.grid_rows * msg.grid_cols * k;
  if (msg.cell_probs.length !== n) return `cell_probs.length=${msg.cell_probs.length}, expected grid_rows*grid_cols*classes=${n}`;
  if (msg.pooled_input.length !== msg.pooled_size * msg.pooled_size * 4) {
    return `pooled_input.length=${msg.pooled_input.length}, expected pooled_size^2*4=${msg.pooled_size * msg.pooled_size * 4}`;
  }
  if (!(msg.image_width > 0 && msg.image_height > 0)) return `image size ${msg.image_width}x${msg.image_height}, expected nonzero`;
  return undefined;
}

/** A zero-copy StudentOutputs view of a received message (call studentOutputProblem first). */
export function studentOutputsView(msg: StudentOutputMsg): StudentOutputs {
  return {
    actionLogits: msg.action_logits instanceof Float32Array ? msg.action_logits : Float32Array.from(msg.action_logits),
    cellProbs: msg.cell_probs instanceof Float32Array ? msg.cell_probs : Float32Array.from(msg.cell_probs),
    gridRows: msg.grid_rows,
    gridCols: msg.grid_cols,
    numClasses: msg.class_names.length,
    state: msg.state instanceof Float32Array ? msg.state : Float32Array.from(msg.state),
    pooledSize: msg.pooled_size,
    pooledInput: msg.pooled_input instanceof Float32Array ? msg.pooled_input : Float32Array.from(msg.pooled_input),
    threatProbs: msg.threat_probs instanceof Float32Array ? msg.threat_probs : Float32Array.from(msg.threat_probs),
  };
}
