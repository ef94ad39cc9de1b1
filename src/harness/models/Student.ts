/**
 * The student (SPEC "What we are building"; issue 5 item 2): a small fully convolutional
 * detector over RGB + Sobel texture -> per-cell logits on an 8x8 px grid for {background, wire,
 * branch, pole/trunk}, plus a control policy head -> logits over the 7 discrete actions.
 *
 *   image [N,H,W,4] * (1,1,1,textureGain)  -- the harness strengthens the Sobel channel (seed 4.2)
 *   backbone: conv3x3 c0 @H, pool, c1 @H/2, pool, c2 @H/4, pool, c3 @H/8   (ReLU; stride-1 convs)
 *   detection: conv1x1(c3 -> 4) + dense(state -> 4) broadcast over cells  -> [N,H/8,W/8,4]
 *   policy: avgPool features to 4x4, flatten, concat state s, MLP (ReLU) -> 7 action logits
 *           (policyReadsDetections: also the detection head's wire/branch/pole probabilities,
 *           max-pooled to the same 4x4 grid, so a thin obstacle one cell wide is not averaged away
 *           and a correction of the detections reaches the action logits)
 *
 * The state s (stateVector.ts) enters both heads, so pi(a|s) and the per-cell class
 * probabilities are differentiable functions of s: that is what the sensitivity matrix S and its
 * finite-difference target S_gt measure (SPEC "Policy Diagnostics").
 *
 * Size (docs/harness.md, `harnessParameterReport()`): the conv detector is small because the
 * wasm backend must run it at 256x256 in a few ms (SPEC "Known facts": 3-conv [16,32,64] 4-7 ms,
 * 241k-param 5-conv 18 ms); almost all of the student's parameters are in the wide policy MLP,
 * which costs one matrix-vector product per layer at inference.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { ParamStore } from "../layers/ParamStore";
import { conv2dSame } from "../layers/conv2dSame";
import { dense } from "../layers/dense";
import { avgPoolToGrid } from "../layers/pooling";
import { addConvStack, runConvStack, type ConvStackSpec } from "./ConvStack";
import { IMAGE_CHANNELS } from "./imageInput";
import { STATE_DIM } from "./stateVector";

export type StudentConfig = {
  /** Backbone conv widths (4 convs, pooled after the first three: 8 px cells). Default [12, 24, 48, 64]. */
  channels: readonly [number, number, number, number];
  /** Policy MLP hidden widths. Default [1280, 1024]. */
  policyHidden: readonly number[];
  /** Weight-initialisation seed. Default 1. */
  seed: number;
  /** The policy head also reads the max-pooled obstacle-class probabilities of the detection head. Default false. */
  policyReadsDetections?: boolean;
};

export const DEFAULT_STUDENT_CONFIG: StudentConfig = { channels: [12, 24, 48, 64], policyHidden: [1280, 1024], seed: 1, policyReadsDetections: false };

/** Side of the pooled feature grid the policy head reads (4x4 cells of the image). */
export const POLICY_POOL_GRID = 4;
/** Pixels per detection cell (three 2x2 pools). */
export const CELL_SIZE_PX = 8;

export type StudentInputs = {
  /** [N,H,W,4] RGB + Sobel in [-1,1] (buildImageInput); H and W multiples of 32. */
  image: tf.Tensor4D;
  /** [N,STATE_DIM] normalised sensor state. */
  state: tf.Tensor2D;
  /** [N] gain on the Sobel channel; default all 1. */
  textureGain?: tf.Tensor1D;
};

export type StudentOutputs = {
  /** [N,H/8,W/8,4] per-cell class logits. */
  detLogits: tf.Tensor4D;
  /** [N,7] action logits. */
  actionLogits: tf.Tensor2D;
};

/** What the heads need from the image, computed once per frame (S_gt reuses it for 2D perturbed states). */
export type StudentPerception = {
  /** [N,h,w,4] the image part of the detection logits (conv1x1 of the features). */
  detBase: tf.Tensor4D;
  /** [N, 16*c3] pooled, flattened features for the policy head. */
  pooled: tf.Tensor2D;
};

export class Student {
  readonly config: StudentConfig;
  readonly params: ParamStore;
  private readonly backbone: ConvStackSpec;

  constructor(config: Partial<StudentConfig> = {}) {
    this.config = { ...DEFAULT_STUDENT_CONFIG, ...config };
    this.params = new ParamStore("student", this.config.seed);
    this.backbone = { name: "backbone", inChannels: IMAGE_CHANNELS, channels: this.config.channels, pool: [true, true, true, false] };
    addConvStack(this.params, this.backbone);
    const cf = this.config.channels[3];
    this.params.add("det/w", [1, 1, cf, NUM_DETECTION_CLASSES], "glorot");
    this.params.add("det/b", [NUM_DETECTION_CLASSES], "zeros");
    this.params.add("det/state_w", [STATE_DIM, NUM_DETECTION_CLASSES], "glorot");
    let width = POLICY_POOL_GRID * POLICY_POOL_GRID * (cf + (this.config.policyReadsDetections === true ? NUM_DETECTION_CLASSES - 1 : 0)) + STATE_DIM;
    this.config.policyHidden.forEach((h, i) => {
      this.params.add(`policy/fc${i}/w`, [width, h], "he");
      this.params.add(`policy/fc${i}/b`, [h], "zeros");
      width = h;
    });
    this.params.add("policy/out/w", [width, NUM_ACTIONS], "glorot");
    this.params.add("policy/out/b", [NUM_ACTIONS], "zeros");
  }

  /** Image part of the forward pass; call inside tf.tidy. */
  perceive(image: tf.Tensor4D, textureGain?: tf.Tensor1D): StudentPerception {
    const [n, h, w, c] = image.shape;
    if (c !== IMAGE_CHANNELS || h % 32 !== 0 || w % 32 !== 0) {
      throw new RangeError(`student image [${image.shape.join(",")}], expected [N,H,W,${IMAGE_CHANNELS}] with H, W multiples of 32`);
    }
    let x = image;
    if (textureGain !== undefined) {
      if (textureGain.shape[0] !== n) {
        throw new RangeError(`textureGain length=${textureGain.shape[0]}, expected ${n} (batch size)`);
      }
      const gain = tf.concat([tf.ones([n, 1, 1, IMAGE_CHANNELS - 1]), tf.reshape(textureGain, [n, 1, 1, 1])], 3);
      x = tf.mul(image, gain);
    }
    const f = runConvStack(this.params, this.backbone, x);
    const detBase = conv2dSame(f, this.params.w4("det/w"), this.params.w1("det/b"));
    const pooled = tf.reshape<tf.Rank.R2>(avgPoolToGrid(f, POLICY_POOL_GRID, POLICY_POOL_GRID), [n, -1]);
    return { detBase, pooled };
  }

  /**
   * Heads for `state` ([B,STATE_DIM]); the perception may have batch B or 1 (then broadcast over
   * B states, as the finite-difference S_gt does). Call inside tf.tidy.
   */
  heads(p: StudentPerception, state: tf.Tensor2D): StudentOutputs {
    const [b, d] = state.shape;
    if (d !== STATE_DIM) {
      throw new RangeError(`student state width=${d}, expected ${STATE_DIM}`);
    }
    const pn = p.pooled.shape[0];
    if (pn !== b && pn !== 1) {
      throw new RangeError(`student perception batch=${pn}, expected ${b} or 1`);
    }
    const stateBias = tf.reshape(tf.matMul(state, this.params.w2("det/state_w")), [b, 1, 1, NUM_DETECTION_CLASSES]);
    const detLogits = tf.add<tf.Tensor4D>(p.detBase, stateBias);
    const pooled = pn === b ? p.pooled : tf.tile(p.pooled, [b, 1]);
    const policyIn = [pooled];
    if (this.config.policyReadsDetections === true) {
      // Obstacle classes only (background is 1 - their sum); max over each grid cell's window.
      const [, h, w] = detLogits.shape;
      const probs = tf.slice(tf.softmax(detLogits), [0, 0, 0, 1], [b, h, w, NUM_DETECTION_CLASSES - 1]);
      const fh = h / POLICY_POOL_GRID;
      const fw = w / POLICY_POOL_GRID;
      policyIn.push(tf.reshape<tf.Rank.R2>(tf.maxPool(probs, [fh, fw], [fh, fw], "valid"), [b, -1]));
    }
    let hdn: tf.Tensor2D = tf.concat([...policyIn, state], 1);
    this.config.policyHidden.forEach((_, i) => {
      hdn = tf.relu(dense(hdn, this.params.w2(`policy/fc${i}/w`), this.params.w1(`policy/fc${i}/b`)));
    });
    const actionLogits = dense(hdn, this.params.w2("policy/out/w"), this.params.w1("policy/out/b"));
    return { detLogits, actionLogits };
  }

  /** Full forward pass; call inside tf.tidy. */
  forward(inputs: StudentInputs): StudentOutputs {
    return this.heads(this.perceive(inputs.image, inputs.textureGain), inputs.state);
  }

  trainableVariables(): tf.Variable[] {
    return this.params.trainableVariables();
  }

  parameterCount(): number {
    return this.params.parameterCount();
  }

  /** Parameters of the conv detector (backbone + detection head) alone, for the honest ratio report. */
  detectorParameterCount(): number {
    let n = 0;
    for (const name of this.params.names()) {
      if (!name.startsWith("policy/")) n += this.params.get(name).size;
    }
    return n;
  }

  dispose(): void {
    this.params.dispose();
  }
}
