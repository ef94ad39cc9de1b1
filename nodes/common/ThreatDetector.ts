/**
 * Adapter: the pipeline detector (the Teacher architecture with a near-threat logit, models/
 * pipeline/{student,teacher}; src/harness/runtime/DetectorRuntime.ts) as the perception node's
 * Detector (parameter detector:=pipeline, the default). Per frame: the image as tightly packed
 * rgb8 -> DetectorRuntime.infer -> per-cell class probabilities and near-threat probabilities.
 * It has no policy head: actionLogits is empty and the controller's local planner turns the
 * threat cells into action logits; it reads no state vector and provides no pooled input.
 */
import { NUM_DETECTION_CLASSES } from "../../src/harness/actions";
import type { Teacher } from "../../src/harness/models/Teacher";
import { DetectorRuntime } from "../../src/harness/runtime/DetectorRuntime";
import type { Detector, StudentOutputs } from "./models";
import type { FrameState } from "./SensorState";
import type { Image } from "./sensorTypes";
import { Rgb8Converter } from "./toRgb8";

export class ThreatDetector implements Detector {
  readonly gridRows: number;
  readonly gridCols: number;
  readonly numClasses = NUM_DETECTION_CLASSES;
  private readonly runtime: DetectorRuntime;
  private readonly rgb = new Rgb8Converter();
  private readonly out: StudentOutputs;

  /** `ownsModel` (default true): dispose the network with the detector (false when the caller shares it). */
  constructor(
    detector: Teacher,
    width: number,
    height: number,
    private readonly options: { ownsModel?: boolean } = {},
  ) {
    this.runtime = new DetectorRuntime(detector, width, height);
    this.gridRows = this.runtime.rows;
    this.gridCols = this.runtime.cols;
    this.out = {
      actionLogits: new Float32Array(0),
      gridRows: this.gridRows,
      gridCols: this.gridCols,
      numClasses: NUM_DETECTION_CLASSES,
      cellProbs: this.runtime.classProbs,
      state: new Float32Array(0),
      pooledSize: 0,
      pooledInput: new Float32Array(0),
      threatProbs: this.runtime.threat,
    };
  }

  infer(image: Image, _state: FrameState, textureGain = 1): StudentOutputs {
    if (textureGain !== 1) throw new RangeError(`textureGain=${textureGain}: the pipeline detector has no Sobel-gain input (the texture rule applies to the policy-head student)`);
    if (image.width !== this.runtime.width || image.height !== this.runtime.height) {
      throw new RangeError(`image ${image.width}x${image.height}, expected ${this.runtime.width}x${this.runtime.height}`);
    }
    this.runtime.infer(this.rgb.convert(image));
    return this.out;
  }

  dispose(): void {
    if (this.options.ownsModel ?? true) this.runtime.detector.dispose();
  }
}
