/**
 * The finite-output check run when a model file is loaded: one forward pass on a fixed probe input
 * (a smooth pattern in [-1, 1], not zeros, so scaled weights cannot hide behind zero biases); any
 * NaN or infinity in an output makes the file unusable. Weights x1e30 with a recomputed sha256
 * decode fine but overflow float32 in the first layers (issue 16 item 7: `detect` printed 4,096
 * NaN cells, 0 detections, exit 0).
 */
import * as tf from "@tensorflow/tfjs";
import { HarnessNet } from "../models/HarnessNet";
import { HARNESS_IMAGE_CHANNELS, HARNESS_IMAGE_SIZE, IMAGE_CHANNELS, ROLLOUT_STEPS } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import { Student } from "../models/Student";
import { HARNESS_CELL_CHANNELS, REGION_CELLS, SpatialHarness } from "../spatial/SpatialHarness";
import { ModelFileError } from "./ModelFileError";
import type { AnyModel } from "./modelFromDecoded";

/** Side of the probe image for the student and teacher (a multiple of 32). */
const PROBE_SIZE = 32;

/** [1, ...shape] filled with sin(0.37 k + phase), a deterministic pattern in [-1, 1]. */
function probe(shape: number[], phase: number): tf.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(n);
  for (let k = 0; k < n; k++) v[k] = Math.sin(0.37 * k + phase);
  return tf.tensor(v, [1, ...shape]);
}

/** Number of NaN or infinite values in `values`. */
export function countNonFinite(values: ArrayLike<number>): number {
  let bad = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) bad++;
  return bad;
}

/** The outputs of `model` on the probe input, by name (tensors disposed). */
function probeOutputs(model: AnyModel): Array<[string, Float32Array]> {
  return tf.tidy(() => {
    const state = probe([STATE_DIM], 1) as tf.Tensor2D;
    let outputs: Array<[string, tf.Tensor]>;
    if (model instanceof Student) {
      const o = model.forward({ image: probe([PROBE_SIZE, PROBE_SIZE, IMAGE_CHANNELS], 0) as tf.Tensor4D, state });
      outputs = [["detLogits", o.detLogits], ["actionLogits", o.actionLogits]];
    } else if (model instanceof HarnessNet) {
      const o = model.forward({
        image: probe([HARNESS_IMAGE_SIZE, HARNESS_IMAGE_SIZE, HARNESS_IMAGE_CHANNELS], 0) as tf.Tensor4D,
        state,
        rolloutRewards: probe([ROLLOUT_STEPS], 2) as tf.Tensor2D,
        stateRates: tf.abs(probe([STATE_DIM], 3)) as tf.Tensor2D,
      });
      outputs = [["sensitivity", o.sensitivity], ["risk", o.risk], ["embedding", o.embedding]];
    } else if (model instanceof SpatialHarness) {
      const o = model.forwardTensors(probe([2 * REGION_CELLS, 2 * REGION_CELLS, HARNESS_CELL_CHANNELS], 0) as tf.Tensor4D);
      outputs = [["risk", o.risk], ["sensitivity", o.sensitivity]];
    } else {
      outputs = [["logits", model.forward(probe([PROBE_SIZE, PROBE_SIZE, IMAGE_CHANNELS], 0) as tf.Tensor4D)]];
    }
    return outputs.map(([name, t]): [string, Float32Array] => [name, t.dataSync() as Float32Array]);
  });
}

/** Throws ModelFileError naming `file` and the output when the probe pass gives a NaN or infinity. */
export function checkFiniteOutputs(file: string, model: AnyModel): void {
  for (const [name, values] of probeOutputs(model)) {
    const bad = countNonFinite(values);
    if (bad > 0) {
      throw new ModelFileError(file, `output ${name} has ${bad} of ${values.length} values NaN or infinite on the probe input: the weights do not make a usable model (scaled or corrupted?)`);
    }
  }
}
