/**
 * Pooling wrappers. MaxPoolGrad and AvgPoolGrad kernels exist on the wasm backend (SPEC "Known
 * facts for training": prefer stride-1 convs + pooling over strided convs).
 */
import * as tf from "@tensorflow/tfjs";

/** 2x2 max pooling, stride 2 (halves H and W; both must be even). */
export function maxPool2(x: tf.Tensor4D): tf.Tensor4D {
  const [, h, w] = x.shape;
  if (h % 2 !== 0 || w % 2 !== 0) {
    throw new RangeError(`maxPool2 input ${h}x${w}, expected even height and width`);
  }
  return tf.maxPool(x, 2, 2, "valid");
}

/** Average pooling to a fixed gh x gw grid (H and W must be multiples of gh and gw). */
export function avgPoolToGrid(x: tf.Tensor4D, gh: number, gw: number): tf.Tensor4D {
  const [, h, w] = x.shape;
  if (h % gh !== 0 || w % gw !== 0) {
    throw new RangeError(`avgPoolToGrid input ${h}x${w}, expected multiples of ${gh}x${gw}`);
  }
  const fh = h / gh;
  const fw = w / gw;
  return fh === 1 && fw === 1 ? x : tf.avgPool(x, [fh, fw], [fh, fw], "valid");
}

/** Mean over H and W: [N,H,W,C] -> [N,C]. */
export function globalAvgPool(x: tf.Tensor4D): tf.Tensor2D {
  return tf.mean(x, [1, 2]);
}
