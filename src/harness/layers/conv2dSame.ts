/**
 * 3x3 (any odd k) stride-1 'same' convolution with bias whose gradients come from tf.customGrad,
 * so training runs on the wasm backend: wasm has no Conv2DBackpropFilter kernel and its
 * conv2dTranspose is about 10x slower than a forward conv (SPEC "Known facts for training").
 * Both gradients below are ordinary forward conv2d calls.
 *
 * Derivation (NHWC, kernel W[ky,kx,c,o], p = (k-1)/2, Xp = X zero-padded by p on each side):
 *   Y[n,y,x,o] = b[o] + sum_{ky,kx,c} Xp[n, y+ky, x+kx, c] * W[ky,kx,c,o]
 * Filter gradient:
 *   dW[ky,kx,c,o] = sum_{n,y,x} Xp[n, y+ky, x+kx, c] * dY[n,y,x,o]
 * Rename the axes so that c plays "batch", n plays "input channel" and dY is the filter:
 *   X^T  = transpose(Xp, [3,1,2,0])  : [C, H+2p, W+2p, N]
 *   dY^T = transpose(dY, [1,2,0,3])  : [H, W, N, O]
 *   conv2d(X^T, dY^T, stride 1, 'valid')[c,ky,kx,o] = sum_{y,x,n} X^T[c,ky+y,kx+x,n] dY^T[y,x,n,o]
 * which is dW[ky,kx,c,o] with output size (H+2p) - H + 1 = k: exactly k x k, so no slicing is
 * needed for stride 1 (for stride s the filter would be dilated by s and the output sliced to k x k,
 * SPEC "Known facts"). transpose([1,2,0,3]) gives [k,k,C,O].
 * Input gradient (stride 1, 'same', odd k): the correlation's adjoint is the correlation with the
 * kernel rotated by 180 degrees and in/out channels swapped:
 *   dX = conv2d(dY, transpose(reverse(W, [0,1]), [0,1,3,2]), 1, 'same')
 * Bias gradient: db[o] = sum_{n,y,x} dY[n,y,x,o].
 */
import * as tf from "@tensorflow/tfjs";

export type Conv2dSameOptions = {
  /**
   * Return a zero input gradient instead of computing it (first layer: the image needs no
   * gradient, SPEC "Known facts": skip the input gradient of the first layer). Default false.
   */
  skipInputGrad?: boolean;
  /**
   * Dilation rate d >= 1 (atrous convolution, Yu & Koltun 2016; Madaan et al. 2017 use dilated
   * convs to see long thin wires). 'same' padding p = d(k-1)/2. Gradients, in the notation above
   * with taps at y + d*ky: dW[ky,kx,c,o] = sum Xp[n, y+d*ky, x+d*kx, c] dY[n,y,x,o], i.e. the
   * 'valid' conv of X^T with dY^T at stride d (output (H+2p-H)/d + 1 = k); dX is the dilated
   * 'same' conv of dY with the rotated kernel. Default 1.
   */
  dilation?: number;
};

type ConvFn = (x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D) => tf.Tensor4D;

function makeConv(skipInputGrad: boolean, d: number): ConvFn {
  const f = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const x = args[0] as tf.Tensor4D;
    const w = args[1] as tf.Tensor4D;
    const b = args[2] as tf.Tensor1D;
    const save = args[3] as tf.GradSaveFunc;
    save([x, w]);
    const value = tf.add(d === 1 ? tf.conv2d(x, w, 1, "same") : tf.conv2d(x, w, 1, "same", "NHWC", d), b);
    const gradFunc = (dy: tf.Tensor, saved: tf.Tensor[]): tf.Tensor[] => {
      const [xs, ws] = saved as [tf.Tensor4D, tf.Tensor4D];
      const dy4 = dy as tf.Tensor4D;
      const k = ws.shape[0];
      const p = (d * (k - 1)) / 2;
      const dW = tf.tidy(() => {
        const xp = tf.pad(xs, [[0, 0], [p, p], [p, p], [0, 0]]);
        const xT = tf.transpose<tf.Tensor4D>(xp, [3, 1, 2, 0]);
        const dyT = tf.transpose<tf.Tensor4D>(dy4, [1, 2, 0, 3]);
        return tf.transpose(tf.conv2d(xT, dyT, d, "valid"), [1, 2, 0, 3]);
      });
      const db = tf.sum(dy4, [0, 1, 2]);
      const dX = skipInputGrad
        ? tf.zerosLike(xs)
        : tf.tidy(() => {
            const wr = tf.transpose<tf.Tensor4D>(tf.reverse(ws, [0, 1]), [0, 1, 3, 2]);
            return d === 1 ? tf.conv2d(dy4, wr, 1, "same") : tf.conv2d(dy4, wr, 1, "same", "NHWC", d);
          });
      return [dX, dW, db];
    };
    return { value, gradFunc };
  });
  return f as unknown as ConvFn;
}

const convs = new Map<string, ConvFn>();

function convFor(skipInputGrad: boolean, d: number): ConvFn {
  const key = `${skipInputGrad ? 1 : 0}:${d}`;
  let f = convs.get(key);
  if (f === undefined) {
    f = makeConv(skipInputGrad, d);
    convs.set(key, f);
  }
  return f;
}

/**
 * y = conv2d(x, w, 1, 'same') + b with forward-conv-only gradients.
 * x: [N,H,W,C], w: [k,k,C,O] with odd k, b: [O].
 */
export function conv2dSame(x: tf.Tensor4D, w: tf.Tensor4D, b: tf.Tensor1D, options: Conv2dSameOptions = {}): tf.Tensor4D {
  const [kh, kw, cin, cout] = w.shape;
  if (kh !== kw || kh % 2 !== 1) {
    throw new RangeError(`conv2dSame kernel ${kh}x${kw}, expected a square odd size (1, 3, 5, ...)`);
  }
  if (x.shape[3] !== cin) {
    throw new RangeError(`conv2dSame input channels=${x.shape[3]}, expected ${cin} (kernel [${w.shape.join(",")}])`);
  }
  if (b.shape[0] !== cout) {
    throw new RangeError(`conv2dSame bias length=${b.shape[0]}, expected ${cout}`);
  }
  const d = options.dilation ?? 1;
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`conv2dSame dilation=${d}, expected an integer >= 1`);
  return convFor(options.skipInputGrad === true, d)(x, w, b);
}
