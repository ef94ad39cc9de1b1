/**
 * Adapter: the pipeline detector (the Teacher architecture with a near-threat logit, models/
 * pipeline/{student,teacher}; src/harness/runtime/DetectorRuntime.ts) as the perception node's
 * Detector (parameter detector:=pipeline, the default). Per frame: the image as tightly packed
 * rgb8 -> DetectorRuntime.infer -> per-cell class probabilities and near-threat probabilities.
 * It has no policy head: actionLogits is empty and the controller's local planner turns the
 * threat cells into action logits; it reads no state vector and provides no pooled input.
 */
import { NUM_DETECTION_CLASSES } from "../../../src/harness/actions";
import type { Teacher } from "../../../src/harness/models/Teacher";
import { DETECTOR_CELL_PX, DetectorRuntime } from "../../../src/harness/runtime/DetectorRuntime";
import type { Detector, StudentOutputs } from "./models";
import type { FrameState } from "../sensors/SensorState";
import type { Image } from "../sensors/sensorTypes";
import { DetectorSize } from "../sensors/detectorSize";
import { Rgb8Converter } from "../sensors/toRgb8";
import { padRgb8EdgeRepeat } from "../sensors/padRgb8";

export class ThreatDetector implements Detector {
  readonly numClasses = NUM_DETECTION_CLASSES;
  private runtime: DetectorRuntime;
  private readonly rgb = new Rgb8Converter();
  private out: StudentOutputs;
  private size = { width: 0, height: 0 };
  private readonly accepted: DetectorSize;
  private padded = new Uint8Array(0);

  /**
   * `width`/`height`: the image size the node accepts, any positive size; 0 and 0 accept every
   * size (the buffers follow the frame). A side that is not a multiple of 8 px is padded on the
   * right/bottom by repeating the edge pixels, and the grid has ceil(side / 8) cells.
   * `ownsModel` (default true): dispose the network with the detector (false when the caller shares it).
   */
  constructor(
    private readonly detector: Teacher,
    width: number,
    height: number,
    private readonly options: { ownsModel?: boolean } = {},
  ) {
    this.accepted = new DetectorSize(width, height);
    const { width: w0, height: h0 } = this.accepted.initial;
    this.runtime = this.allocate(w0, h0);
    this.out = this.outputs();
  }

  get gridRows(): number {
    return this.runtime.rows;
  }

  get gridCols(): number {
    return this.runtime.cols;
  }

  private allocate(width: number, height: number): DetectorRuntime {
    this.size = { width, height };
    const pw = Math.ceil(width / DETECTOR_CELL_PX) * DETECTOR_CELL_PX;
    const ph = Math.ceil(height / DETECTOR_CELL_PX) * DETECTOR_CELL_PX;
    this.padded = pw === width && ph === height ? new Uint8Array(0) : new Uint8Array(pw * ph * 3);
    return new DetectorRuntime(this.detector, pw, ph);
  }

  private outputs(): StudentOutputs {
    return {
      actionLogits: new Float32Array(0),
      gridRows: this.runtime.rows,
      gridCols: this.runtime.cols,
      numClasses: NUM_DETECTION_CLASSES,
      cellProbs: this.runtime.classProbs,
      state: new Float32Array(0),
      pooledSize: 0,
      pooledInput: new Float32Array(0),
      threatProbs: this.runtime.threat,
    };
  }

  /** `textureGain`: the harness's gain on the Sobel input channel for this frame (seed 4.2; DetectorRuntime.sobelGain). */
  infer(image: Image, _state: FrameState, textureGain = 1): StudentOutputs {
    if (!(textureGain >= 1 && textureGain <= 2)) throw new RangeError(`textureGain=${textureGain}, expected [1, 2]`);
    this.accepted.check(image);
    if (image.width !== this.size.width || image.height !== this.size.height) {
      this.runtime = this.allocate(image.width, image.height);
      this.out = this.outputs();
    }
    const rgb = this.rgb.convert(image);
    this.runtime.sobelGain = textureGain;
    this.runtime.infer(this.padded.length === 0 ? rgb : this.pad(rgb));
    return this.out;
  }

  /** Copies the frame into the padded buffer, repeating the last column and row. */
  private pad(rgb: Uint8Array): Uint8Array {
    return padRgb8EdgeRepeat(rgb, this.size.width, this.size.height, this.padded, this.runtime.width, this.runtime.height);
  }

  dispose(): void {
    if (this.options.ownsModel ?? true) this.detector.dispose();
  }
}
