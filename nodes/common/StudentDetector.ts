/**
 * Adapter: the trained student network (src/harness/models/Student.ts) as the perception node's
 * Detector. Per frame: rgb8 -> [1,H,W,3] in [0,1] -> buildImageInput (RGB + Sobel in [-1,1]) and
 * the normalised sensor state (normaliseState of the frame-time SensorState) -> student.forward
 * -> action logits, per-cell class probabilities (softmax of the cell logits), the state
 * vector and the image input pooled to the harness's 64x64 (so the harness node need not redo
 * the full-resolution Sobel), copied into buffers reused between frames. All tensors are released (tf.tidy), the
 * same preprocessing as the training code (src/harness/training/HarnessedPolicy.ts decideFrame).
 * A texture gain other than 1 (the harness's texture rule, seed 4.2) multiplies the Sobel channel
 * inside the student (Student.perceive); the pooled input for the harness stays ungained.
 */
import * as tf from "@tensorflow/tfjs";

import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../../src/harness/actions";
import { TEXTURE_MAX_BOOST } from "../../src/harness/correction/constants";
import { HARNESS_IMAGE_SIZE, buildImageInput } from "../../src/harness/models/imageInput";
import { avgPoolToGrid } from "../../src/harness/layers/pooling";
import { STATE_DIM, normaliseState } from "../../src/harness/models/stateVector";
import { CELL_SIZE_PX, type Student } from "../../src/harness/models/Student";
import type { Detector, StudentOutputs } from "./models";
import type { FrameState } from "./SensorState";
import type { Image } from "./sensorTypes";
import { Rgb8Converter } from "./toRgb8";

export class StudentDetector implements Detector {
  readonly gridRows: number;
  readonly gridCols: number;
  readonly numClasses = NUM_DETECTION_CLASSES;
  private readonly rgb = new Rgb8Converter();
  private readonly out: StudentOutputs;

  /**
   * `width`/`height`: the image size the node accepts (multiples of 32, the student's pooling).
   * `ownsModel` (default true): dispose the network with the detector (false when the caller
   * shares one network between launches, e.g. the benchmark arms).
   */
  constructor(
    private readonly student: Student,
    private readonly width: number,
    private readonly height: number,
    private readonly options: { ownsModel?: boolean } = {},
  ) {
    if (!(width > 0 && width % 32 === 0 && height > 0 && height % 32 === 0)) {
      throw new RangeError(`image size ${width}x${height}, expected positive multiples of 32 (set expected_width/expected_height)`);
    }
    this.gridRows = height / CELL_SIZE_PX;
    this.gridCols = width / CELL_SIZE_PX;
    this.out = {
      actionLogits: new Float32Array(NUM_ACTIONS),
      gridRows: this.gridRows,
      gridCols: this.gridCols,
      numClasses: NUM_DETECTION_CLASSES,
      cellProbs: new Float32Array(this.gridRows * this.gridCols * NUM_DETECTION_CLASSES),
      state: new Float32Array(STATE_DIM),
      pooledSize: HARNESS_IMAGE_SIZE,
      pooledInput: new Float32Array(HARNESS_IMAGE_SIZE * HARNESS_IMAGE_SIZE * 4),
    };
  }

  infer(image: Image, state: FrameState, textureGain = 1): StudentOutputs {
    if (!(textureGain >= 1 && textureGain <= 1 + TEXTURE_MAX_BOOST)) {
      throw new RangeError(`textureGain=${textureGain}, expected [1, ${1 + TEXTURE_MAX_BOOST}]`);
    }
    if (image.width !== this.width || image.height !== this.height) {
      throw new RangeError(`image ${image.width}x${image.height}, expected ${this.width}x${this.height}`);
    }
    const rgb01Data = this.rgb.convertFloat01(image);
    normaliseState(state, this.out.state);
    tf.tidy(() => {
      const rgb01 = tf.tensor4d(rgb01Data, [1, this.height, this.width, 3]);
      const input = buildImageInput(rgb01);
      // Gain 1 takes the training code's path (no textureGain input) exactly.
      const s = this.student.forward({
        image: input,
        state: tf.tensor2d(this.out.state, [1, STATE_DIM]),
        ...(textureGain === 1 ? {} : { textureGain: tf.tensor1d([textureGain]) }),
      });
      this.out.actionLogits.set(s.actionLogits.dataSync());
      this.out.pooledInput.set(avgPoolToGrid(input, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_SIZE).dataSync());
      this.out.cellProbs.set(tf.softmax(s.detLogits).dataSync());
    });
    return this.out;
  }

  dispose(): void {
    if (this.options.ownsModel ?? true) this.student.dispose();
  }
}
