/**
 * A wire detector as the photo tools see it (issue 14): a fully convolutional network from the
 * 4-channel image input (RGB + Sobel, imageInput.ts) to per-cell class logits on an 8 px grid,
 * at any input size that is a multiple of `sizeMultiple`. Adapters for the two architectures:
 * the Teacher class (models/pipeline/{teacher,student}: 4 class logits + the near-threat logit,
 * which is ignored here) and the co-evolved Student (models/: its detection head with the state
 * at zero, the centre of every normalised range, as a still photo has no sensors).
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_DETECTION_CLASSES } from "../actions";
import { WeightSnapshot, type WeightLookup } from "../layers/WeightSnapshot";
import type { Student } from "../models/Student";
import { STATE_DIM } from "../models/stateVector";
import type { Teacher } from "../models/Teacher";

export type WireNet = {
  /** Shown in reports, e.g. "student (models/pipeline/student)". */
  readonly name: string;
  /** Input height and width must be multiples of this (the pooling). */
  readonly sizeMultiple: number;
  /** [N,H,W,4] image input -> [N,H/8,W/8,4] class logits; call inside tf.tidy. */
  classLogits(input: tf.Tensor4D): tf.Tensor4D;
  dispose(): void;
};

/** Pixels per output cell of every detector here (three 2x2 pools). */
export const WIRE_CELL_PX = 8;

export type TeacherWireNetOptions = {
  /**
   * Run Teacher.infer (convs fused with their bias and ReLU, inference only) instead of
   * Teacher.forward (the training graph). Equal up to float32 rounding. Default true.
   */
  fused?: boolean;
  /**
   * The teacher's weights will not change while this net is used (a model loaded for `detect`):
   * keep a WeightSnapshot per input shape, the SHAPE_CACHE most recent ones, so the wasm backend
   * keeps its convolution set-up for each photo shape (WeightSnapshot.ts). Only with fused.
   * Leave it false when the weights are trained between calls (realKFold). Default false.
   */
  frozen?: boolean;
};

/** Input shapes whose weight snapshots a frozen teacherWireNet keeps (landscape + portrait, with room). */
export const SHAPE_CACHE = 4;

export function teacherWireNet(teacher: Teacher, name: string, options: TeacherWireNetOptions = {}): WireNet {
  const fused = options.fused ?? true;
  const snapshots = new Map<string, WeightSnapshot>();
  const weightsFor = (input: tf.Tensor4D): WeightLookup => {
    if (options.frozen !== true) return teacher.params;
    const key = `${input.shape[1]}x${input.shape[2]}`;
    let w = snapshots.get(key);
    if (w !== undefined) snapshots.delete(key); // re-inserted below: the Map's order is recency
    else {
      w = new WeightSnapshot(teacher.params);
      if (snapshots.size >= SHAPE_CACHE) {
        const [oldest, old] = snapshots.entries().next().value as [string, WeightSnapshot];
        old.dispose();
        snapshots.delete(oldest);
      }
    }
    snapshots.set(key, w);
    return w;
  };
  return {
    name,
    sizeMultiple: WIRE_CELL_PX,
    classLogits: (input) => {
      const out = fused ? teacher.infer(input, weightsFor(input)) : teacher.forward(input);
      return out.shape[3] === NUM_DETECTION_CLASSES ? out : tf.slice(out, [0, 0, 0, 0], [-1, -1, -1, NUM_DETECTION_CLASSES]);
    },
    dispose: () => {
      for (const w of snapshots.values()) w.dispose();
      snapshots.clear();
      teacher.dispose();
    },
  };
}

/**
 * The Student's detection head. Its perceive() also pools features to the policy's 4x4 grid, so
 * inputs are multiples of 32. With a zero state (and zero rates) the harness correction of a
 * still photo is exactly zero (delta = -lambda r S |ds/dt|, SPEC "Correction Generator"), so this
 * is also the "corrected" detector on a photo.
 */
export function studentWireNet(student: Student, name: string): WireNet {
  return {
    name,
    sizeMultiple: 32,
    classLogits: (input) => student.heads(student.perceive(input), tf.zeros([input.shape[0], STATE_DIM])).detLogits,
    dispose: () => student.dispose(),
  };
}
