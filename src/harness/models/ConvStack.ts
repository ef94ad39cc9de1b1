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

/** Runs the stack; call inside tf.tidy. */
export function runConvStack(params: ParamStore, spec: ConvStackSpec, x: tf.Tensor4D): tf.Tensor4D {
  let h = x;
  spec.channels.forEach((_, i) => {
    const w = params.w4(`${spec.name}/conv${i}/w`);
    const b = params.w1(`${spec.name}/conv${i}/b`);
    h = tf.relu(conv2dSame(h, w, b, { skipInputGrad: i === 0 }));
    if (spec.pool[i] === true) h = maxPool2(h);
  });
  return h;
}

/**
 * The same stack for inference only (no gradients): each conv, its bias and its ReLU are one
 * fused kernel (tf.fused.conv2d), which on wasm saves the separate bias and ReLU passes over the
 * full-resolution activations (a third of the first layer's time at 540x360, issue 14). The
 * bias is added inside the convolution's sum, so values differ from runConvStack by float32
 * rounding only (about 1e-7 relative).
 */
export function runConvStackInference(params: WeightLookup, spec: ConvStackSpec, x: tf.Tensor4D): tf.Tensor4D {
  let h = x;
  spec.channels.forEach((_, i) => {
    h = tf.fused.conv2d({ x: h, filter: params.w4(`${spec.name}/conv${i}/w`), strides: 1, pad: "same", bias: params.w1(`${spec.name}/conv${i}/b`), activation: "relu" });
    if (spec.pool[i] === true) h = maxPool2(h);
  });
  return h;
}

/** Total downsampling factor of the stack (2 per pool). */
export function convStackStride(spec: ConvStackSpec): number {
  return spec.pool.reduce((s, p) => (p ? s * 2 : s), 1);
}
