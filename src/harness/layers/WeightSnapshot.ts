/**
 * A frozen copy of a ParamStore's weights in fresh tensors, readable like the store (w4, w1).
 * Why a copy helps (issue 14): the wasm backend caches one XNNPACK convolution operator per
 * filter tensor, and that operator keeps the set-up (indirection buffer) of the last input size
 * it ran; photos alternating between 540x360 and 360x540 made every convolution redo it, about
 * a quarter of the student's forward time. One snapshot per input shape keeps each set-up.
 */
import * as tf from "@tensorflow/tfjs";
import type { ParamStore } from "./ParamStore";

/** Read access to named weights (a ParamStore or a WeightSnapshot). */
export type WeightLookup = {
  w4(name: string): tf.Tensor4D;
  w1(name: string): tf.Tensor1D;
};

export class WeightSnapshot implements WeightLookup {
  private readonly tensors = new Map<string, tf.Tensor>();

  constructor(params: ParamStore) {
    for (const name of params.names()) {
      const v = params.get(name);
      // Kept: the first snapshot of a shape is usually made inside the caller's tf.tidy.
      this.tensors.set(name, tf.keep(tf.tensor(v.dataSync(), v.shape, "float32")));
    }
  }

  w4(name: string): tf.Tensor4D {
    return this.ranked(name, 4) as tf.Tensor4D;
  }

  w1(name: string): tf.Tensor1D {
    return this.ranked(name, 1) as tf.Tensor1D;
  }

  private ranked(name: string, rank: number): tf.Tensor {
    const t = this.tensors.get(name);
    if (t === undefined) throw new Error(`weight "${name}" not found in the snapshot; have ${[...this.tensors.keys()].join(", ")}`);
    if (t.rank !== rank) throw new RangeError(`weight "${name}" has rank ${t.rank}, expected ${rank}`);
    return t;
  }

  dispose(): void {
    for (const t of this.tensors.values()) t.dispose();
    this.tensors.clear();
  }
}
