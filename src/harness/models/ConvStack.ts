/**
 * A stack of 3x3 stride-1 'same' convs with ReLU, each optionally followed by 2x2 max pooling:
 * the shared shape of the teacher, student and harness encoders (SPEC "Known facts for
 * training": stride-1 convs + pooling train at forward-pass cost on wasm; the first layer skips
 * its input gradient).
 */
import * as tf from "@tensorflow/tfjs";
import type { ParamStore } from "../layers/ParamStore";
import type { WeightLookup } from "../layers/WeightSnapshot";
import { conv2dSame } from "../layers/conv2dSame";
import { maxPool2 } from "../layers/pooling";

export type ConvStackSpec = {
  /** Weight-name prefix inside the store, e.g. "backbone". */
  name: string;
  inChannels: number;
  /** Output channels of each conv. */
  channels: readonly number[];
  /** Pool after conv i when pool[i] is true. */
  pool: readonly boolean[];
};

export function addConvStack(params: ParamStore, spec: ConvStackSpec): void {
  if (spec.pool.length !== spec.channels.length) {
    throw new RangeError(`${spec.name}: pool.length=${spec.pool.length}, expected ${spec.channels.length}`);
  }
  let cin = spec.inChannels;
  spec.channels.forEach((cout, i) => {
    params.add(`${spec.name}/conv${i}/w`, [3, 3, cin, cout], "he");
    params.add(`${spec.name}/conv${i}/b`, [cout], "zeros");
    cin = cout;
  });
}

/** One 3x3-or-1x1 'same' conv with its bias and an optional ReLU: how a network's layers run. */
export type ConvOp = (x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D, layer: { relu: boolean; dilation?: number; firstLayer?: boolean }) => tf.Tensor4D;

/**
 * Training: conv2dSame (forward-conv-only gradients; the stack's first layer skips its input
 * gradient) then a separate ReLU.
 */
export const TRAINING_CONV: ConvOp = (x, w, b, layer) => {
  const y = conv2dSame(x, w, b, { skipInputGrad: layer.firstLayer === true, dilation: layer.dilation ?? 1 });
  return layer.relu ? tf.relu(y) : y;
};

/**
 * Inference only (no gradients): conv, bias and ReLU as one fused kernel (tf.fused.conv2d),
 * which on wasm saves the separate bias and ReLU passes over the full-resolution activations (a
 * third of the first layer's time at 540x360, issue 14). The bias is added inside the
 * convolution's sum, so values differ from TRAINING_CONV by float32 rounding only (about 1e-7
 * relative).
 */
export const FUSED_CONV: ConvOp = (x, w, b, layer) =>
  tf.fused.conv2d({ x, filter: w, strides: 1, pad: "same", dilations: layer.dilation ?? 1, bias: b, ...(layer.relu ? { activation: "relu" as const } : {}) });

/** Runs the stack with `conv` (default the training path); call inside tf.tidy. */
export function runConvStack(params: WeightLookup, spec: ConvStackSpec, x: tf.Tensor4D, conv: ConvOp = TRAINING_CONV): tf.Tensor4D {
  let h = x;
  spec.channels.forEach((_, i) => {
    h = conv(h, params.w4(`${spec.name}/conv${i}/w`), params.w1(`${spec.name}/conv${i}/b`), { relu: true, firstLayer: i === 0 });
    if (spec.pool[i] === true) h = maxPool2(h);
  });
  return h;
}

/** Total downsampling factor of the stack (2 per pool). */
export function convStackStride(spec: ConvStackSpec): number {
  return spec.pool.reduce((s, p) => (p ? s * 2 : s), 1);
}
