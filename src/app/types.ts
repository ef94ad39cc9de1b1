/**
 * Records of the main job (`npm start` = `drone-harness sim`): what one closed-loop flight
 * produced, in plain data, so summarising and rendering are pure functions of these records.
 */
import type { FlightStatus } from "../../sim/Simulation";

/** The A/B arms of the main job: the harness correction applied (on) or computed but not applied (off). */
export type Arm = "on" | "off";
export const ARMS: readonly Arm[] = ["on", "off"];

/** One detection box in image pixels (vision_msgs Detection2D, first hypothesis). */
export type Box = { classId: string; score: number; x0: number; y0: number; x1: number; y1: number };

/** A camera frame kept for the report, with the raw and corrected detections of that frame. */
export type FrameSample = {
  frame: number;
  time_s: number;
  width: number;
  height: number;
  /** rgb8, a copy. */
  rgb: Uint8Array;
  /** Pixels of class wire or branch in the ground-truth mask (how the frame was chosen). */
  thinPixels: number;
  /** harness/obstacles_raw (student only). */
  raw: Box[];
  /** harness/obstacles (after the correction; equal to the student's in the off arm). */
  corrected: Box[];
  /** Ground-truth boxes of wires and branches (sim/ground_truth). */
  truth: Box[];
  /** The last camera frame before the flight's collision. */
  beforeCollision?: boolean;
  /** A frame where the correction changed the planner's manoeuvre (student's cells -> corrected cells). */
  decisionChange?: { raw: string; corrected: string };
};

/** Thin structures of a world seen from above, for the map (world ENU metres). */
export type WorldSketch = {
  seed: number;
  /** Segments [x0, y0, x1, y1] per class. */
  wires: number[];
  branches: number[];
  /** Poles and trunks: [x, y, radius] triples. */
  posts: number[];
  start: { x: number; y: number };
  goal: { x: number; y: number };
};

/** Per-camera-frame series of one flight. */
export type FlightSeries = {
  /** Sim time of each camera frame, s. */
  time_s: number[];
  /** Drone position (ENU) at each camera frame. */
  x: number[];
  y: number[];
  z: number[];
  /** harness/correction of the frame (NaN when the frame got none). */
  risk: number[];
  maxAbsDelta: number[];
  /** The /cmd_vel answering the frame (same stamp): forward, vertical speed (m/s), yaw rate (rad/s); NaN when none came. */
  cmdVx: number[];
  cmdVz: number[];
  cmdYawRate: number[];
};

export type FlightRecord = {
  arm: Arm;
  seed: number;
  /** Final status; "flying" when the job's duration ended first. */
  status: FlightStatus;
  simTime_s: number;
  cameraFrames: number;
  distance_m: number;
  collision: { time_s: number; x: number; y: number; z: number; cls: number } | undefined;
  /** Wall ms from the camera image reaching the graph to the /cmd_vel of the same stamp. */
  latencyMs: number[];
  /** Camera frames for which no /cmd_vel with the frame's stamp came. */
  framesWithoutCommand: number;
  /** Sim times of those frames (the first 20). */
  framesWithoutCommandAt_s: number[];
  /** Camera frames for which harness/correction, harness/policy or ground truth was missing. */
  framesIncomplete: number;
  series: FlightSeries;
  /** Smallest distance from the drone's body to a structure (wire, branch, pole, trunk) over the camera frames, m, and when. */
  minClearance: { clearance_m: number; time_s: number };
  samples: FrameSample[];
  /** Camera frames where the planner's manoeuvre on the corrected cells differs from the one on the student's cells. */
  decisionsChanged: number;
  /**
   * Camera frames whose /cmd_vel differs from the controller's /cmd_vel_raw of the same stamp (the
   * safety node commanded hover), by the cause the safety node gave on /diagnostics at the time
   * (its reason up to the first ':', e.g. "harness" for a runaway correction).
   */
  safetyOverrides: { frames: number; byCause: Record<string, number> };
  wallTime_ms: number;
  /** Callback errors on the graph during the flight (0 expected). */
  callbackErrors: number;
  /** Whether this flight's topics were recorded to the bag (its latency includes CDR serialisation). */
  recorded: boolean;
};
