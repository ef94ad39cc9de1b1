/** Fully connected layer y = x W + b (x: [N, in], W: [in, out], b: [out]); matMul's gradient is matMul, which wasm has. */
import * as tf from "@tensorflow/tfjs";

export function dense(x: tf.Tensor2D, w: tf.Tensor2D, b: tf.Tensor1D): tf.Tensor2D {
  if (x.shape[1] !== w.shape[0]) {
    throw new RangeError(`dense input width=${x.shape[1]}, expected ${w.shape[0]}`);
  }
  return tf.add(tf.matMul(x, w), b);
}
