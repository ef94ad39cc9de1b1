/**
 * The Harness network (SPEC "The Harness method"; seed section 3.1, scenario 4.2):
 *
 * State Encoder: 3 conv 3x3 [16, 32, 64] (ReLU, 2x2 max pool after the first two) over the
 *   64x64 harness image (RGB + Sobel downsampled, plus the K = 3 imagined rollout frames as grey,
 *   zero-padded), global average pooled -> 64; an MLP (hidden 64, ReLU) over the normalised
 *   sensor state s (altitude, GPS velocity ENU, IMU difference window; stateVector.ts); the two
 *   are fused by dense(128 -> 16, tanh) into the embedding z in [-1,1]^16.
 * Domain adapter (seed 5.4): z' = z + W2 relu(W1 z + b1) + b2 with 16 hidden units; W2 starts at
 *   zero so a fresh adapter is the identity. Transfer moves only the encoder (transferHarness.ts).
 * Policy Diagnostics:
 *   (a) S = softplus(dense(z' -> R*D)) reshaped [R, D], non-negative like |d pi / d s|; rows are
 *       the 7 actions then the 4 detection classes (SENSITIVITY_ROWS), columns the D = 16 state
 *       features of stateVector.ts;
 *   (b) r = sigmoid(dense(relu(dense([z', clip(rollout rewards, -1, 1) (K), |ds/dt| (D)] -> 16))
 *       -> 1)): the probability that the rollout hits a negative reward within 3 steps.
 * The Correction Generator has no weights (correction/).
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { ParamStore } from "../layers/ParamStore";
import { dense } from "../layers/dense";
import { globalAvgPool } from "../layers/pooling";
import { addConvStack, runConvStack, type ConvStackSpec } from "./ConvStack";
import { HARNESS_IMAGE_CHANNELS, HARNESS_IMAGE_SIZE, ROLLOUT_STEPS } from "./imageInput";
import { STATE_DIM } from "./stateVector";

/** Rows of S: the actions, then the detection classes. */
export const SENSITIVITY_ROWS = NUM_ACTIONS + NUM_DETECTION_CLASSES;
/** Width of the encoder embedding z and of the adapter. */
export const EMBED_DIM = 16;
export const ENCODER_CHANNELS = [16, 32, 64] as const;
export const SENSOR_MLP_HIDDEN = 64;
export const RISK_HIDDEN = 16;

export type HarnessConfig = {
  /** Weight-initialisation seed. Default 3. */
  seed: number;
};

export type HarnessInputs = {
  /** [N,64,64,7] buildHarnessImage output. */
  image: tf.Tensor4D;
  /** [N,STATE_DIM] normalised sensor state. */
  state: tf.Tensor2D;
  /** [N,ROLLOUT_STEPS] environment rewards of the rollout steps (zero-padded). */
  rolloutRewards: tf.Tensor2D;
  /** [N,STATE_DIM] |ds_j/dt| from the rollout (stateRates). */
  stateRates: tf.Tensor2D;
};

export type HarnessOutputs = {
  /** [N,SENSITIVITY_ROWS,STATE_DIM] S >= 0. */
  sensitivity: tf.Tensor3D;
  /** [N] risk in [0,1]. */
  risk: tf.Tensor1D;
  /** [N,EMBED_DIM] adapted embedding z'. */
  embedding: tf.Tensor2D;
};

/** Which variables an optimizer may move. "transfer": adapter + diagnostics (encoder frozen). */
export type HarnessScope = "all" | "encoder" | "transfer";

const ENCODER_SPEC: ConvStackSpec = { name: "encoder", inChannels: HARNESS_IMAGE_CHANNELS, channels: ENCODER_CHANNELS, pool: [true, true, false] };

export class HarnessNet {
  readonly config: HarnessConfig;
  readonly params: ParamStore;

  constructor(config: Partial<HarnessConfig> = {}) {
    this.config = { seed: 3, ...config };
    const p = new ParamStore("harness", this.config.seed);
    this.params = p;
    addConvStack(p, ENCODER_SPEC);
    p.add("encoder/sensor/w", [STATE_DIM, SENSOR_MLP_HIDDEN], "he");
    p.add("encoder/sensor/b", [SENSOR_MLP_HIDDEN], "zeros");
    p.add("encoder/fuse/w", [ENCODER_CHANNELS[2] + SENSOR_MLP_HIDDEN, EMBED_DIM], "glorot");
    p.add("encoder/fuse/b", [EMBED_DIM], "zeros");
    p.add("adapter/fc0/w", [EMBED_DIM, EMBED_DIM], "he");
    p.add("adapter/fc0/b", [EMBED_DIM], "zeros");
    p.add("adapter/fc1/w", [EMBED_DIM, EMBED_DIM], "zeros");
    p.add("adapter/fc1/b", [EMBED_DIM], "zeros");
    p.add("diagnostics/S/w", [EMBED_DIM, SENSITIVITY_ROWS * STATE_DIM], "glorot");
    p.add("diagnostics/S/b", [SENSITIVITY_ROWS * STATE_DIM], "zeros");
    p.add("diagnostics/risk/fc0/w", [EMBED_DIM + ROLLOUT_STEPS + STATE_DIM, RISK_HIDDEN], "he");
    p.add("diagnostics/risk/fc0/b", [RISK_HIDDEN], "zeros");
    p.add("diagnostics/risk/out/w", [RISK_HIDDEN, 1], "glorot");
    p.add("diagnostics/risk/out/b", [1], "zeros");
  }

  /** Encoder + adapter: z' [N,EMBED_DIM]. Call inside tf.tidy. */
  embed(image: tf.Tensor4D, state: tf.Tensor2D): tf.Tensor2D {
    const [n, h, w, c] = image.shape;
    if (h !== HARNESS_IMAGE_SIZE || w !== HARNESS_IMAGE_SIZE || c !== HARNESS_IMAGE_CHANNELS) {
      throw new RangeError(`harness image [${image.shape.join(",")}], expected [N,${HARNESS_IMAGE_SIZE},${HARNESS_IMAGE_SIZE},${HARNESS_IMAGE_CHANNELS}]`);
    }
    if (state.shape[0] !== n || state.shape[1] !== STATE_DIM) {
      throw new RangeError(`harness state [${state.shape.join(",")}], expected [${n},${STATE_DIM}]`);
    }
    const p = this.params;
    const img = globalAvgPool(runConvStack(p, ENCODER_SPEC, image));
    const sens = tf.relu(dense(state, p.w2("encoder/sensor/w"), p.w1("encoder/sensor/b")));
    const z = tf.tanh(dense(tf.concat([img, sens], 1), p.w2("encoder/fuse/w"), p.w1("encoder/fuse/b")));
    const a = tf.relu(dense(z, p.w2("adapter/fc0/w"), p.w1("adapter/fc0/b")));
    return tf.add(z, dense(a, p.w2("adapter/fc1/w"), p.w1("adapter/fc1/b")));
  }

  /** Full forward pass; call inside tf.tidy. */
  forward(inputs: HarnessInputs): HarnessOutputs {
    const n = inputs.image.shape[0];
    if (inputs.rolloutRewards.shape[0] !== n || inputs.rolloutRewards.shape[1] !== ROLLOUT_STEPS) {
      throw new RangeError(`rolloutRewards [${inputs.rolloutRewards.shape.join(",")}], expected [${n},${ROLLOUT_STEPS}] (zero-padded)`);
    }
    if (inputs.stateRates.shape[0] !== n || inputs.stateRates.shape[1] !== STATE_DIM) {
      throw new RangeError(`stateRates [${inputs.stateRates.shape.join(",")}], expected [${n},${STATE_DIM}]`);
    }
    const p = this.params;
    const embedding = this.embed(inputs.image, inputs.state);
    const sensitivity = tf.reshape<tf.Rank.R3>(tf.softplus(dense(embedding, p.w2("diagnostics/S/w"), p.w1("diagnostics/S/b"))), [n, SENSITIVITY_ROWS, STATE_DIM]);
    // Rewards are clipped to [-1, 1] (the environment's are -1, 0, +1, so this only guards other
    // reward sources). The rates |ds/dt| enter as they are (normalised units per second, >= 0):
    // squashing them would change what the weights in models/ were trained on.
    const riskIn = tf.concat([embedding, tf.clipByValue(inputs.rolloutRewards, -1, 1), inputs.stateRates], 1);
    const rh = tf.relu(dense(riskIn, p.w2("diagnostics/risk/fc0/w"), p.w1("diagnostics/risk/fc0/b")));
    const risk = tf.reshape<tf.Rank.R1>(tf.sigmoid(dense(rh, p.w2("diagnostics/risk/out/w"), p.w1("diagnostics/risk/out/b"))), [n]);
    return { sensitivity, risk, embedding };
  }

  /** Variables an optimizer may move in the given scope (default "all"). */
  trainableVariables(scope: HarnessScope = "all"): tf.Variable[] {
    return this.params
      .names()
      .filter((name) => {
        switch (scope) {
          case "all":
            return true;
          case "encoder":
            return name.startsWith("encoder/");
          case "transfer":
            return !name.startsWith("encoder/");
        }
        return false;
      })
      .map((name) => this.params.get(name));
  }

  /** Names of the State Encoder's weights (what transfer moves). */
  encoderWeightNames(): string[] {
    return this.params.names().filter((n) => n.startsWith("encoder/"));
  }

  parameterCount(): number {
    return this.params.parameterCount();
  }

  dispose(): void {
    this.params.dispose();
  }
}
