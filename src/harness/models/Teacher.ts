/**
 * The teacher (issue 5 item 2): a larger fully convolutional detector trained on the simulator's
 * privileged ground-truth masks, whose per-cell outputs the BC student imitates. Same input
 * (RGB + Sobel, [-1,1]) and output grid (8x8 px cells, 4 classes) as the student; 5 convs
 * [32, 64, 96, 128, 128] pooled after the first three, plus a second 1x1 layer. It runs offline
 * (labelling, evaluation), so it may cost tens of ms per 256x256 frame; train it on crops.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import { ParamStore } from "../layers/ParamStore";
import type { WeightLookup } from "../layers/WeightSnapshot";
import { addConvStack, FUSED_CONV, runConvStack, TRAINING_CONV, type ConvOp, type ConvStackSpec } from "./ConvStack";
import { IMAGE_CHANNELS } from "./imageInput";

export type TeacherConfig = {
  /** Conv widths; pooled after the first three. Default [32, 64, 96, 128, 128]. */
  channels: readonly number[];
  /** Width of the 1x1 hidden layer before the class logits. Default 64. */
  headHidden: number;
  /** Weight-initialisation seed. Default 2. */
  seed: number;
  /**
   * Dilation rates of extra 3x3 convs (width = the last backbone width, ReLU, residual) at the
   * cell resolution, after the backbone: context along long thin structures (Madaan et al. 2017,
   * dilated convs for wires). Default [] (none).
   */
  context?: readonly number[];
  /**
   * A fifth output channel: the per-cell near-threat logit (structure within the planner's
   * horizon, CellLabels.nearThreatCells; issue 12). Default false (the 4 class logits only).
   */
  threatLogit?: boolean;
};

export const DEFAULT_TEACHER_CONFIG: TeacherConfig = { channels: [32, 64, 96, 128, 128], headHidden: 64, seed: 2 };

/** Index of the near-threat logit in a detector's output channels (after the 4 class logits). */
export const THREAT_CHANNEL = NUM_DETECTION_CLASSES;

export class Teacher {
  readonly config: TeacherConfig;
  readonly params: ParamStore;
  private readonly backbone: ConvStackSpec;

  constructor(config: Partial<TeacherConfig> = {}) {
    this.config = { ...DEFAULT_TEACHER_CONFIG, ...config };
    const ch = this.config.channels;
    if (ch.length < 3) {
      throw new RangeError(`teacher channels.length=${ch.length}, expected >= 3 (three pooled convs give 8 px cells)`);
    }
    this.params = new ParamStore("teacher", this.config.seed);
    this.backbone = { name: "backbone", inChannels: IMAGE_CHANNELS, channels: ch, pool: ch.map((_, i) => i < 3) };
    addConvStack(this.params, this.backbone);
    const cf = ch[ch.length - 1] ?? 1;
    for (const [i, d] of (this.config.context ?? []).entries()) {
      if (!Number.isInteger(d) || d < 1 || d > 16) throw new RangeError(`teacher context[${i}]=${d}, expected an integer dilation in [1, 16]`);
      this.params.add(`context${i}/w`, [3, 3, cf, cf], "he");
      this.params.add(`context${i}/b`, [cf], "zeros");
    }
    this.params.add("head/hidden/w", [1, 1, cf, this.config.headHidden], "he");
    this.params.add("head/hidden/b", [this.config.headHidden], "zeros");
    this.params.add("head/out/w", [1, 1, this.config.headHidden, this.outputChannels], "glorot");
    this.params.add("head/out/b", [this.outputChannels], "zeros");
  }

  /** 4 class logits, plus the near-threat logit when config.threatLogit. */
  get outputChannels(): number {
    return NUM_DETECTION_CLASSES + (this.config.threatLogit === true ? 1 : 0);
  }

  /** [N,H,W,4] (H, W multiples of 8) -> [N,H/8,W/8,outputChannels] logits; call inside tf.tidy. */
  forward(image: tf.Tensor4D): tf.Tensor4D {
    return this.run(image, this.params, TRAINING_CONV);
  }

  /**
   * forward() for inference only (photo detection and every per-frame path, issue 14): the same
   * network with every conv, bias and ReLU fused into one kernel (FUSED_CONV); no gradients flow
   * through it. Equal to forward() up to float32 rounding. `weights` default to this.params (a
   * frozen WeightSnapshot of them also works). Call inside tf.tidy.
   */
  infer(image: tf.Tensor4D, weights: WeightLookup = this.params): tf.Tensor4D {
    return this.run(image, weights, FUSED_CONV);
  }

  /** The network's wiring, once for both paths: backbone, residual dilated context convs, 1x1 head. */
  private run(image: tf.Tensor4D, p: WeightLookup, conv: ConvOp): tf.Tensor4D {
    const [, h, w, c] = image.shape;
    if (c !== IMAGE_CHANNELS || h % 8 !== 0 || w % 8 !== 0) {
      throw new RangeError(`teacher image [${image.shape.join(",")}], expected [N,H,W,${IMAGE_CHANNELS}] with H, W multiples of 8`);
    }
    let f = runConvStack(p, this.backbone, image, conv);
    for (const [i, d] of (this.config.context ?? []).entries()) {
      f = tf.add(f, conv(f, p.w4(`context${i}/w`), p.w1(`context${i}/b`), { relu: true, dilation: d }));
    }
    const hid = conv(f, p.w4("head/hidden/w"), p.w1("head/hidden/b"), { relu: true });
    return conv(hid, p.w4("head/out/w"), p.w1("head/out/b"), { relu: false });
  }

  trainableVariables(): tf.Variable[] {
    return this.params.trainableVariables();
  }

  parameterCount(): number {
    return this.params.parameterCount();
  }

  dispose(): void {
    this.params.dispose();
  }
}
