/** Message builders and deterministic fake models for the node tests. */
import type { Correction, Corrector, Detector, StudentOutputs } from "../../nodes/common/models/models";
import type { FrameState } from "../../nodes/common/sensors/SensorState";
import type { Image, Imu, NavSatFix, TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { ACTIONS, NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../../src/harness/actions";
import { nsToStamp } from "../../src/util/time";

export const MS = 1_000_000n;

/**
 * A black 256x256 rgb8 frame whose first pixel encodes the stamp (milliseconds, little-endian in
 * the three bytes), so consecutive frames differ as a live sensor's do and the safety node's
 * frozen-pixel check sees a live camera.
 */
export function image(atNs: bigint, over: Partial<Image> = {}): Image {
  const data = new Uint8Array(768 * 256);
  const ms = Number(atNs / 1_000_000n);
  data[0] = ms & 0xff;
  data[1] = (ms >> 8) & 0xff;
  data[2] = (ms >> 16) & 0xff;
  return {
    header: { stamp: nsToStamp(atNs), frame_id: "camera_optical" },
    height: 256,
    width: 256,
    encoding: "rgb8",
    is_bigendian: 0,
    step: 768,
    data,
    ...over,
  };
}

export function imu(atNs: bigint, over: Partial<Imu> = {}): Imu {
  return {
    header: { stamp: nsToStamp(atNs), frame_id: "imu_link" },
    orientation: { x: 0, y: 0, z: 0, w: 1 },
    orientation_covariance: new Float64Array(9),
    angular_velocity: { x: 0, y: 0, z: 0 },
    angular_velocity_covariance: new Float64Array(9),
    linear_acceleration: { x: 0, y: 0, z: 9.81 },
    linear_acceleration_covariance: new Float64Array(9),
    ...over,
  };
}

export function fix(atNs: bigint, over: Partial<NavSatFix> = {}): NavSatFix {
  return {
    header: { stamp: nsToStamp(atNs), frame_id: "gps" },
    status: { status: 0, service: 1 },
    latitude: 47.397,
    longitude: 8.545,
    altitude: 500,
    position_covariance: new Float64Array(9),
    position_covariance_type: 0,
    ...over,
  };
}

export function vel(atNs: bigint, x = 3): TwistStamped {
  return { header: { stamp: nsToStamp(atNs), frame_id: "map" }, twist: { linear: { x, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } };
}

/**
 * Fake student: a wire across the image in cell row 10, cols 4..20 (p = 0.9) and action logits
 * preferring "cruise" (1.2) over "climb" (1.0), everything else 0.
 */
export class FakeDetector implements Detector {
  readonly gridRows = 32;
  readonly gridCols = 32;
  readonly numClasses = NUM_DETECTION_CLASSES;
  calls = 0;
  private readonly out: StudentOutputs = {
    actionLogits: new Float32Array(NUM_ACTIONS),
    gridRows: 32,
    gridCols: 32,
    numClasses: NUM_DETECTION_CLASSES,
    cellProbs: new Float32Array(32 * 32 * NUM_DETECTION_CLASSES),
    state: new Float32Array(4),
    pooledSize: 0,
    pooledInput: new Float32Array(0),
  };
  readonly states: FrameState[] = [];

  constructor() {
    const k = NUM_DETECTION_CLASSES;
    for (let cell = 0; cell < 32 * 32; cell++) this.out.cellProbs[cell * k] = 1;
    for (let c = 4; c <= 20; c++) {
      const cell = 10 * 32 + c;
      this.out.cellProbs[cell * k] = 0.1;
      this.out.cellProbs[cell * k + 1] = 0.9;
    }
    this.out.actionLogits[ACTIONS.indexOf("cruise")] = 1.2;
    this.out.actionLogits[ACTIONS.indexOf("climb")] = 1;
  }

  infer(_image: Image, state: FrameState): StudentOutputs {
    this.calls++;
    this.states.push(JSON.parse(JSON.stringify(state)) as FrameState);
    this.out.state[0] = state.altitude_m;
    this.out.state[1] = state.velocityEnu_m_s[0];
    return this.out;
  }
}

/**
 * Fake harness: delta = -0.5 on "cruise", +0.5 on "climb" (so the corrected argmax is climb), zero on
 * the cells; risk 0.8, lambda 0.3. Records the states it saw.
 */
export class FakeCorrector implements Corrector {
  readonly states: FrameState[] = [];
  readonly studentStates: number[][] = [];
  resets = 0;
  maxDelta = 0.5;

  correct(_image: Image, student: StudentOutputs, state: FrameState): Correction {
    this.states.push(JSON.parse(JSON.stringify(state)) as FrameState);
    this.studentStates.push(Array.from(student.state));
    const actionDelta = new Float32Array(NUM_ACTIONS);
    actionDelta[ACTIONS.indexOf("cruise")] = -this.maxDelta;
    actionDelta[ACTIONS.indexOf("climb")] = this.maxDelta;
    return {
      actionDelta,
      cellDelta: new Float32Array(student.cellProbs.length),
      risk: 0.8,
      lambda: 0.3,
      topFeatures: ["sobel_wire", "gps_vx"],
      topSensitivities: [0.5, 0.25],
      rolloutLength: 3,
    };
  }

  reset(): void {
    this.resets++;
  }
}
