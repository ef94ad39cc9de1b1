/**
 * Adapter: the spatial harness (src/harness/runtime/SpatialHarnessRuntime.ts, issue 13) for the
 * harness node's pipeline path. Per frame: the camera image (rgb8 via Rgb8Converter), the
 * pipeline detector's cells from harness/student_output (class probabilities and near-threat
 * probabilities, turned back into logits: log p for the classes, logit p for the threat; softmax
 * and sigmoid give the same probabilities back), the motion from the sensors (altitude above
 * ground from gps/fix, heading and pitch from the IMU orientation, forward speed from gps/vel and
 * the heading) -> corrected class and near-threat probabilities. The same runtime runs in `eval`
 * and the main job's lock-step flights.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { initBackend } from "../../../src/harness/backend";
import { loadSpatialHarness } from "../../../src/harness/modelfile";
import { makeNavigation, type Navigation } from "../../../src/control/navigation";
import { NUM_DETECTION_CLASSES } from "../../../src/harness/actions";
import { DETECTOR_CELL_PX } from "../../../src/harness/runtime/DetectorRuntime";
import { SpatialHarnessRuntime, type SpatialHarnessOptions, type SpatialStepInfo } from "../../../src/harness/runtime/SpatialHarnessRuntime";
import { REGION_CELLS, type SpatialHarness } from "../../../src/harness/spatial/SpatialHarness";
import { DETECTOR_OUTPUTS_PER_CELL } from "../../../src/harness/spatial/spatialFeatures";
import type { StudentOutputs } from "./models";
import type { FrameState } from "../sensors/SensorState";
import type { Image } from "../sensors/sensorTypes";
import { padRgb8EdgeRepeat } from "../sensors/padRgb8";
import { Rgb8Converter } from "../sensors/toRgb8";

const P_MIN = 1e-6;

export type SpatialCorrection = { classProbs: Float32Array; threat: Float32Array; info: SpatialStepInfo };

/**
 * A frame whose cell grid is not whole regions (1280x720: 160x90 cells, 90 rows) runs padded on
 * the right and the bottom to whole regions: the frame's last pixel row and column repeated (as
 * ThreatDetector pads to whole cells), the last cell row and column's logits repeated; the
 * imagined view keeps the camera's own focal length and principal point (cameraFrame), and only
 * the frame's own cells are returned. A region reaching into the padding sees its edge cells
 * twice (its clip covers those copies too). A grid of whole regions runs unpadded, as before.
 */
type Padding = { width: number; height: number; rows: number; cols: number; rgb: Uint8Array; classProbs: Float32Array; threat: Float32Array };

export class SpatialCorrector {
  private runtime: SpatialHarnessRuntime | undefined;
  /** The camera frame the runtime was made for, and its padding when it is not whole regions. */
  private frame: { width: number; height: number; padding: Padding | undefined } | undefined;
  private logits = new Float32Array(0);
  private readonly rgb = new Rgb8Converter();
  /** The runtime-sized frame of the last prepare() (a reused buffer). */
  private preparedRgb: Uint8Array | undefined;
  private readonly nav: Navigation = makeNavigation();

  constructor(
    private readonly harness: SpatialHarness,
    private readonly options: Partial<SpatialHarnessOptions> = {},
  ) {}

  /**
   * Why this frame cannot be corrected, or undefined: the grid must cover the image exactly
   * (8 px cells), with a near-threat grid. Any grid size is corrected (see Padding).
   */
  problem(image: Image, student: StudentOutputs): string | undefined {
    const { gridRows: rows, gridCols: cols } = student;
    if (student.threatProbs === undefined || student.threatProbs.length !== rows * cols) return "no near-threat cells in the student output";
    if (student.numClasses !== NUM_DETECTION_CLASSES) return `${student.numClasses} classes, expected ${NUM_DETECTION_CLASSES}`;
    if (image.width !== cols * DETECTOR_CELL_PX || image.height !== rows * DETECTOR_CELL_PX) return `image ${image.width}x${image.height} is not the ${cols}x${rows} grid of ${DETECTOR_CELL_PX} px cells`;
    return undefined;
  }

  /** Call problem() first. `time_s`: the frame's stamp in seconds (the rates are differenced over stamps). */
  correct(image: Image, student: StudentOutputs, sensors: FrameState, time_s: number): SpatialCorrection {
    const rows = student.gridRows;
    const cols = student.gridCols;
    const runtime = this.runtimeFor(image.width, image.height);
    const pad = this.frame?.padding;
    const prows = pad?.rows ?? rows;
    const pcols = pad?.cols ?? cols;
    const threat = student.threatProbs as Float32Array;
    for (let r = 0; r < prows; r++) {
      for (let q = 0; q < pcols; q++) {
        const c = Math.min(r, rows - 1) * cols + Math.min(q, cols - 1);
        const o = (r * pcols + q) * DETECTOR_OUTPUTS_PER_CELL;
        for (let k = 0; k < NUM_DETECTION_CLASSES; k++) this.logits[o + k] = Math.log(Math.max(P_MIN, student.cellProbs[c * NUM_DETECTION_CLASSES + k]!));
        const p = Math.min(1 - P_MIN, Math.max(P_MIN, threat[c]!));
        this.logits[o + 4] = Math.log(p / (1 - p));
      }
    }
    const v = sensors.velocityEnu_m_s;
    this.setAttitude(sensors);
    this.nav.yaw_rad = sensors.yaw_rad;
    this.nav.forwardSpeed_m_s = Math.cos(sensors.yaw_rad) * v[0] + Math.sin(sensors.yaw_rad) * v[1];
    // A frame whose image side prepare() computed is not converted (or padded) again: step() does
    // not read it then, and the buffer prepare() filled holds it.
    const rgb = this.preparedRgb !== undefined && runtime.isPrepared(time_s) ? this.preparedRgb : this.frameRgb(image);
    const info = runtime.step(this.logits, rgb, this.nav, time_s);
    if (pad === undefined) return { classProbs: runtime.classProbs, threat: runtime.threat, info };
    const probs = runtime.classProbs;
    for (let r = 0; r < rows; r++) {
      pad.threat.set(runtime.threat.subarray(r * pcols, r * pcols + cols), r * cols);
      pad.classProbs.set(probs.subarray(r * pcols * NUM_DETECTION_CLASSES, (r * pcols + cols) * NUM_DETECTION_CLASSES), r * cols * NUM_DETECTION_CLASSES);
    }
    return { classProbs: pad.classProbs, threat: pad.threat, info };
  }

  /** The runtime for a camera frame of this size (made, with its padding, when the size changes). */
  private runtimeFor(width: number, height: number): SpatialHarnessRuntime {
    if (this.runtime !== undefined && this.frame?.width === width && this.frame.height === height) return this.runtime;
    const rows = height / DETECTOR_CELL_PX;
    const cols = width / DETECTOR_CELL_PX;
    const prows = Math.ceil(rows / REGION_CELLS) * REGION_CELLS;
    const pcols = Math.ceil(cols / REGION_CELLS) * REGION_CELLS;
    const pw = pcols * DETECTOR_CELL_PX;
    const ph = prows * DETECTOR_CELL_PX;
    const padding: Padding | undefined = prows === rows && pcols === cols ? undefined : {
      width: pw, height: ph, rows: prows, cols: pcols,
      rgb: new Uint8Array(pw * ph * 3),
      classProbs: new Float32Array(rows * cols * NUM_DETECTION_CLASSES),
      threat: new Float32Array(rows * cols),
    };
    this.runtime = new SpatialHarnessRuntime(this.harness, pw, ph, padding === undefined ? this.options : { ...this.options, cameraFrame: { width, height } });
    this.frame = { width, height, padding };
    this.logits = new Float32Array(prows * pcols * DETECTOR_OUTPUTS_PER_CELL);
    return this.runtime;
  }

  /** The frame as rgb8 at the runtime's size: as it is, or padded by repeating its last row and column. */
  private frameRgb(image: Image): Uint8Array {
    const rgb = this.rgb.convert(image);
    const pad = this.frame?.padding;
    return pad === undefined ? rgb : padRgb8EdgeRepeat(rgb, image.width, image.height, pad.rgb, pad.width, pad.height);
  }

  /**
   * The image side of the harness for `image` ahead of its detector output (the harness node calls
   * this when the camera frame arrives first): `sensors` are the latest values, `time_s` the
   * frame's stamp. correct() of the same frame uses it: its imagined view is then made from the
   * attitude at the frame's arrival, not at its detections' (IMU samples arrive while perception
   * runs the detector in another process). A frame of another size is skipped.
   */
  prepare(image: Image, sensors: Readonly<Pick<FrameState, "altitude_m" | "pitch_rad">>, time_s: number): void {
    if (this.runtime === undefined || this.frame?.width !== image.width || this.frame.height !== image.height) return;
    this.setAttitude(sensors);
    this.preparedRgb = this.frameRgb(image);
    this.runtime.prepare(this.preparedRgb, this.nav, time_s);
  }

  /** Steps that reused a prepared image side, of all steps. */
  get preparedSteps(): Readonly<{ reused: number; steps: number }> {
    return this.runtime?.preparedSteps ?? { reused: 0, steps: 0 };
  }

  private setAttitude(sensors: Readonly<Pick<FrameState, "altitude_m" | "pitch_rad">>): void {
    this.nav.altitude_m = Number.isFinite(sensors.altitude_m) ? sensors.altitude_m : 0;
    this.nav.pitch_rad = sensors.pitch_rad;
  }

  reset(): void {
    this.runtime?.reset();
  }

  dispose(): void {
    this.harness.dispose();
  }
}

/**
 * The spatial harness in `dir` (spatial_harness.model.json, checked on load), or undefined with
 * a warning when the folder has none (the harness node then passes the pipeline cells through).
 */
export async function loadSpatialCorrector(dir: string, options: Partial<SpatialHarnessOptions>, logger: { info(m: string): void; warn(m: string): void }): Promise<SpatialCorrector | undefined> {
  if (!fs.existsSync(path.join(dir, "spatial_harness.model.json"))) {
    logger.warn(`no spatial harness in ${dir} (spatial_harness.model.json): the pipeline detector's cells pass through uncorrected`);
    return undefined;
  }
  await initBackend();
  const { model } = await loadSpatialHarness(dir);
  logger.info(`spatial harness from ${dir}: ${model.parameterCount()} parameters, region clip ${options.regionClip ?? "default"}, lambda alarm at max|delta| ${options.runawayDelta ?? "default"}`);
  return new SpatialCorrector(model, options);
}
