/**
 * Adapter: the trained student network (src/harness/models/Student.ts) as the perception node's
 * Detector. Per frame: rgb8 -> [1,H,W,3] in [0,1] -> buildImageInput (RGB + Sobel in [-1,1]) and
 * the normalised sensor state (normaliseState of the frame-time SensorState) -> student.forward
 * -> action logits, per-cell class probabilities (softmax of the cell logits), the state
 * vector and the image input pooled to the harness's 64x64 (so the harness node need not redo
 * the full-resolution Sobel), copied into buffers reused between frames. All tensors are released (tf.tidy), the
 * same preprocessing as the training code (src/harness/runtime/HarnessedPolicy.ts decideFrame).
 * A texture gain other than 1 (the harness's texture rule, seed 4.2) multiplies the Sobel channel
 * inside the student (Student.perceive); the pooled input for the harness stays ungained.
 *
 * Any camera resolution (issue 14 item 1): the network is fully convolutional, so a frame whose
 * sides are not multiples of 64 (the student pools by 32, the harness's pooled input takes 64x64
 * blocks; that pooled input then includes the padding) is padded on the right and bottom by
 * reflection and the cell grid is cropped back to ceil(H/8) x ceil(W/8) cells of 8 px from the
 * top-left corner: 640x480 gives 60x80 cells, 1280x720 90x160. With width = height = 0 the
 * detector takes each frame's size, reallocating its buffers only when the size changes.
 */
import * as tf from "@tensorflow/tfjs";

import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../../../src/harness/actions";
import { TEXTURE_MAX_BOOST } from "../../../src/harness/correction/constants";
import { HARNESS_IMAGE_SIZE, buildImageInput } from "../../../src/harness/models/imageInput";
import { avgPoolToGrid } from "../../../src/harness/layers/pooling";
import { STATE_DIM, normaliseState } from "../../../src/harness/models/stateVector";
import { CELL_SIZE_PX, type Student } from "../../../src/harness/models/Student";
import type { Detector, StudentOutputs } from "./models";
import type { FrameState } from "../sensors/SensorState";
import type { Image } from "../sensors/sensorTypes";
import { DetectorSize } from "../sensors/detectorSize";
import { Rgb8Converter } from "../sensors/toRgb8";

export class StudentDetector implements Detector {
  readonly numClasses = NUM_DETECTION_CLASSES;
  private readonly rgb = new Rgb8Converter();
  private out: StudentOutputs;
  private size = { width: 0, height: 0 };
  private readonly accepted: DetectorSize;

  /**
   * `width`/`height`: the image size the node accepts, any positive size; 0 and 0 accept every
   * size. `ownsModel` (default true): dispose the network with the detector (false when the caller
   * shares one network between launches, e.g. the benchmark arms).
   */
  constructor(
    private readonly student: Student,
    width: number,
    height: number,
    private readonly options: { ownsModel?: boolean } = {},
  ) {
    this.accepted = new DetectorSize(width, height);
    const { width: w0, height: h0 } = this.accepted.initial;
    this.out = this.allocate(w0, h0);
  }

  /** Cell rows of the last (or the configured) frame size. */
  get gridRows(): number {
    return this.out.gridRows;
  }

  get gridCols(): number {
    return this.out.gridCols;
  }

  private allocate(width: number, height: number): StudentOutputs {
    this.size = { width, height };
    const gridRows = Math.ceil(height / CELL_SIZE_PX);
    const gridCols = Math.ceil(width / CELL_SIZE_PX);
    return {
      actionLogits: new Float32Array(NUM_ACTIONS),
      gridRows,
      gridCols,
      numClasses: NUM_DETECTION_CLASSES,
      cellProbs: new Float32Array(gridRows * gridCols * NUM_DETECTION_CLASSES),
      state: new Float32Array(STATE_DIM),
      pooledSize: HARNESS_IMAGE_SIZE,
      pooledInput: new Float32Array(HARNESS_IMAGE_SIZE * HARNESS_IMAGE_SIZE * 4),
    };
  }

  infer(image: Image, state: FrameState, textureGain = 1): StudentOutputs {
    if (!(textureGain >= 1 && textureGain <= 1 + TEXTURE_MAX_BOOST)) {
      throw new RangeError(`textureGain=${textureGain}, expected [1, ${1 + TEXTURE_MAX_BOOST}]`);
    }
    this.accepted.check(image);
    if (image.width !== this.size.width || image.height !== this.size.height) this.out = this.allocate(image.width, image.height);
    const { width: W, height: H } = this.size;
    const { gridRows: rows, gridCols: cols } = this.out;
    const rgb01Data = this.rgb.convertFloat01(image);
    normaliseState(state, this.out.state);
    tf.tidy(() => {
      // Multiples of 64: the student pools by 32, the harness input pools to 64x64 cells.
      const ph = Math.ceil(H / HARNESS_IMAGE_SIZE) * HARNESS_IMAGE_SIZE - H;
      const pw = Math.ceil(W / HARNESS_IMAGE_SIZE) * HARNESS_IMAGE_SIZE - W;
      let rgb01 = tf.tensor4d(rgb01Data, [1, H, W, 3]);
      // Reflection needs pad < side; smaller frames are zero-padded.
      if (ph > 0 || pw > 0) rgb01 = ph < H && pw < W ? tf.mirrorPad(rgb01, [[0, 0], [0, ph], [0, pw], [0, 0]], "reflect") : tf.pad(rgb01, [[0, 0], [0, ph], [0, pw], [0, 0]]);
      const input = buildImageInput(rgb01);
      // Gain 1 takes the training code's path (no textureGain input) exactly.
      const s = this.student.forward({
        image: input,
        state: tf.tensor2d(this.out.state, [1, STATE_DIM]),
        ...(textureGain === 1 ? {} : { textureGain: tf.tensor1d([textureGain]) }),
      });
      this.out.actionLogits.set(s.actionLogits.dataSync());
      this.out.pooledInput.set(avgPoolToGrid(input, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_SIZE).dataSync());
      const logits = ph > 0 || pw > 0 ? tf.slice(s.detLogits, [0, 0, 0, 0], [1, rows, cols, NUM_DETECTION_CLASSES]) : s.detLogits;
      this.out.cellProbs.set(tf.softmax(logits).dataSync());
    });
    return this.out;
  }

  dispose(): void {
    if (this.options.ownsModel ?? true) this.student.dispose();
  }
}
