/**
 * The spatial Harness network (issue 13 items 1 and 2; SPEC "Harness method", Correction
 * Generator made spatial). Per detector cell it reads what the student said (4 class log-
 * probabilities and the near-threat logit), the texture of the current frame and of the imagined
 * frame one metre ahead, and the cell's image row; it outputs
 *  - the risk r of every region of REGION_CELLS x REGION_CELLS cells (8 x 8 regions on the
 *    32 x 32 grid of a 256 x 256 frame): the probability that the flight collides within the
 *    rollout horizon with a structure in that region;
 *  - the sensitivity S[free, j] >= 0 of every cell's free logit to the state dimensions j
 *    (SENSITIVITY_DIMS: yaw, pitch, forward move), trained toward the finite-difference S_gt.
 *
 * Architecture: 1x1 conv (8 -> 8, ReLU), a 3x3 mean of those features (no weights) concatenated,
 * 1x1 conv (16 -> 6, ReLU) (the 1x1 convs are written as matrix products over the cells); the region risk is a linear read of the 4 x 4 max-pool of the 6
 * features (sigmoid), S a 1x1 conv (6 -> 3, softplus, times `sScale`). 202 weights: the harness
 * must stay about 1 % of the student (SPEC: 0.8-1.5 %), and the student detector has 21,749.
 *
 * Two forward passes with the same weights: `forwardTensors` (tfjs, for training with autodiff)
 * and `forwardCells` (plain loops on typed arrays, for flight: well under a millisecond for
 * 1,024 cells, where the tensor version pays tfjs's per-op overhead). A test checks they agree.
 */
import * as tf from "@tensorflow/tfjs";
import { ParamStore } from "../layers/ParamStore";

/** Input channels per cell (spatialFeatures.ts writes them). */
export const HARNESS_CELL_CHANNELS = 8;
/** A region is REGION_CELLS x REGION_CELLS detector cells. */
export const REGION_CELLS = 4;

/** Row-major region index of row-major cell `c` of a grid `cols` cells wide. */
export function regionOfCell(c: number, cols: number): number {
  return Math.floor(Math.floor(c / cols) / REGION_CELLS) * (cols / REGION_CELLS) + Math.floor((c % cols) / REGION_CELLS);
}

/** Sets out[region] = 1 for every region of a `cols`-wide grid holding a cell with cells[c] === 1 (the others are left as they are). */
export function markRegions(cells: ArrayLike<number>, cols: number, out: { [region: number]: number }): void {
  for (let c = 0; c < cells.length; c++) if (cells[c] === 1) out[regionOfCell(c, cols)] = 1;
}

/** State dimensions of S: yaw (rad), pitch (rad), forward move (m). */
export const SENSITIVITY_DIMS = ["yaw", "pitch", "forward"] as const;
export const NUM_SENSITIVITY_DIMS = SENSITIVITY_DIMS.length;

export type SpatialHarnessConfig = {
  /** Width of the first 1x1 layer. Default 8. */
  hidden1: number;
  /** Width of the second 1x1 layer. Default 6. */
  hidden2: number;
  /**
   * S = softplus(.) * sScale[j]: S_gt spans about two orders of magnitude between the rotations
   * (logit per rad) and the forward move (logit per m); the scale keeps the network's outputs
   * near 1. Default [50, 50, 10] (S_gt on training rollouts: p90 about 70 and 90 logit/rad, 14 logit/m).
   */
  sScale: readonly number[];
  seed: number;
};

export const DEFAULT_SPATIAL_HARNESS_CONFIG: SpatialHarnessConfig = { hidden1: 8, hidden2: 6, sScale: [50, 50, 10], seed: 13 };

export type SpatialHarnessTensors = {
  /** [N, rows / REGION_CELLS, cols / REGION_CELLS] risk in (0, 1). */
  risk: tf.Tensor3D;
  /** [N, rows, cols, NUM_SENSITIVITY_DIMS] S[free, j] >= 0 (in S_gt's units). */
  sensitivity: tf.Tensor4D;
};

/** [1, rows, cols, 1]: how many of a cell's 3 x 3 neighbours (itself included) lie inside the grid. */
function neighbourCounts(rows: number, cols: number): tf.Tensor4D {
  const v = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let q = 0; q < cols; q++) v[r * cols + q] = (Math.min(r + 1, rows - 1) - Math.max(r - 1, 0) + 1) * (Math.min(q + 1, cols - 1) - Math.max(q - 1, 0) + 1);
  return tf.tensor4d(v, [1, rows, cols, 1]);
}

const softplus = (x: number): number => (x > 20 ? x : Math.log1p(Math.exp(x)));

export class SpatialHarness {
  readonly config: SpatialHarnessConfig;
  readonly params: ParamStore;

  constructor(config: Partial<SpatialHarnessConfig> = {}) {
    this.config = { ...DEFAULT_SPATIAL_HARNESS_CONFIG, ...config };
    const { hidden1, hidden2, sScale } = this.config;
    for (const [k, v] of [["hidden1", hidden1], ["hidden2", hidden2]] as const) {
      if (!(Number.isInteger(v) && v >= 1 && v <= 256)) throw new RangeError(`spatial harness ${k}=${v}, expected an integer in [1, 256]`);
    }
    if (sScale.length !== NUM_SENSITIVITY_DIMS || !sScale.every((x) => Number.isFinite(x) && x > 0)) {
      throw new RangeError(`spatial harness sScale=${JSON.stringify(sScale)}, expected ${NUM_SENSITIVITY_DIMS} finite numbers > 0`);
    }
    this.params = new ParamStore("spatial_harness", this.config.seed);
    this.params.add("l1/w", [HARNESS_CELL_CHANNELS, hidden1], "he");
    this.params.add("l1/b", [hidden1], "zeros");
    this.params.add("l2/w", [2 * hidden1, hidden2], "he");
    this.params.add("l2/b", [hidden2], "zeros");
    this.params.add("risk/w", [hidden2, 1], "glorot");
    this.params.add("risk/b", [1], "zeros");
    this.params.add("sens/w", [hidden2, NUM_SENSITIVITY_DIMS], "glorot");
    this.params.add("sens/b", [NUM_SENSITIVITY_DIMS], "zeros");
  }

  parameterCount(): number {
    return this.params.parameterCount();
  }

  trainableVariables(): tf.Variable[] {
    return this.params.trainableVariables();
  }

  dispose(): void {
    this.params.dispose();
  }

  /** [N, rows, cols, HARNESS_CELL_CHANNELS] (rows, cols multiples of REGION_CELLS) -> risk and S; call inside tf.tidy. */
  forwardTensors(features: tf.Tensor4D): SpatialHarnessTensors {
    const [, rows, cols, c] = features.shape;
    if (c !== HARNESS_CELL_CHANNELS || rows % REGION_CELLS !== 0 || cols % REGION_CELLS !== 0) {
      throw new RangeError(`spatial harness features [${features.shape.join(",")}], expected [N,rows,cols,${HARNESS_CELL_CHANNELS}] with rows, cols multiples of ${REGION_CELLS}`);
    }
    const p = this.params;
    const n = features.shape[0];
    // 1x1 layers as matrix products over all cells (their gradients exist on every backend; the
    // wasm backend has no Conv2DBackpropFilter), the 3x3 mean as a sum of 9 shifted copies over
    // the count of cells inside the grid, the region max as a reshape + max.
    const dense = (x: tf.Tensor, name: string): tf.Tensor2D => {
      const w = p.get(`${name}/w`) as tf.Tensor2D;
      return tf.add(tf.matMul(tf.reshape(x, [-1, w.shape[0]]), w), p.get(`${name}/b`));
    };
    const H1 = this.config.hidden1;
    const H2 = this.config.hidden2;
    const h1: tf.Tensor4D = tf.reshape(tf.relu(dense(features, "l1")), [n, rows, cols, H1]);
    const padded: tf.Tensor4D = tf.pad(h1, [[0, 0], [1, 1], [1, 1], [0, 0]]);
    let sum: tf.Tensor4D | undefined;
    for (let dr = 0; dr < 3; dr++) for (let dq = 0; dq < 3; dq++) {
      const part: tf.Tensor4D = tf.slice(padded, [0, dr, dq, 0], [-1, rows, cols, -1]);
      sum = sum === undefined ? part : tf.add<tf.Tensor4D>(sum, part);
    }
    const mean3 = tf.div(sum as tf.Tensor4D, neighbourCounts(rows, cols));
    const h2 = tf.relu(dense(tf.concat([h1, mean3], 3), "l2"));
    const regionsR = rows / REGION_CELLS;
    const regionsC = cols / REGION_CELLS;
    const pooled = tf.max(tf.reshape(h2, [n, regionsR, REGION_CELLS, regionsC, REGION_CELLS, H2]), [2, 4]);
    const risk = tf.reshape<tf.Rank.R3>(tf.sigmoid(dense(pooled, "risk")), [n, regionsR, regionsC]);
    const sensitivity = tf.reshape<tf.Rank.R4>(tf.mul(tf.softplus(dense(h2, "sens")), tf.tensor1d(Array.from(this.config.sScale))), [n, rows, cols, NUM_SENSITIVITY_DIMS]);
    return { risk, sensitivity };
  }

  /** Weights as plain arrays for forwardCells (read once; call again after training). */
  snapshotWeights(): SpatialHarnessWeights {
    const get = (name: string): Float32Array => p.get(name).dataSync() as Float32Array;
    const p = this.params;
    return {
      hidden1: this.config.hidden1,
      hidden2: this.config.hidden2,
      sScale: Float32Array.from(this.config.sScale),
      l1w: get("l1/w"), l1b: get("l1/b"), l2w: get("l2/w"), l2b: get("l2/b"),
      rw: get("risk/w"), rb: get("risk/b"), sw: get("sens/w"), sb: get("sens/b"),
    };
  }
}

export type SpatialHarnessWeights = {
  hidden1: number;
  hidden2: number;
  sScale: Float32Array;
  l1w: Float32Array; l1b: Float32Array; l2w: Float32Array; l2b: Float32Array;
  rw: Float32Array; rb: Float32Array; sw: Float32Array; sb: Float32Array;
};

/**
 * Scratch buffers of forwardCells for one grid size, and the weights re-laid for its loops
 * (`t1`: l1w transposed, one contiguous row of HARNESS_CELL_CHANNELS per hidden unit; `t2`: l2w
 * per output unit with each (h1, m1) weight pair side by side). Same values, so the sums are the
 * same bits; they are rebuilt when forwardCells is given other weights than `packedFrom`.
 */
export type SpatialWorkspace = { h1: Float32Array; m1: Float32Array; h2: Float32Array; t1: Float64Array; t2: Float64Array; packedFrom: SpatialHarnessWeights | undefined };

export function spatialWorkspace(w: SpatialHarnessWeights, cells: number): SpatialWorkspace {
  const H1 = w.hidden1;
  const ws: SpatialWorkspace = { h1: new Float32Array(cells * H1), m1: new Float32Array(cells * H1), h2: new Float32Array(cells * w.hidden2), t1: new Float64Array(H1 * HARNESS_CELL_CHANNELS), t2: new Float64Array(w.hidden2 * 2 * H1), packedFrom: undefined };
  packWeights(w, ws);
  return ws;
}

function packWeights(w: SpatialHarnessWeights, ws: SpatialWorkspace): void {
  const C = HARNESS_CELL_CHANNELS;
  const H1 = w.hidden1;
  const H2 = w.hidden2;
  if (ws.t1.length !== H1 * C || ws.t2.length !== H2 * 2 * H1) throw new RangeError(`spatial workspace made for other layer widths than ${H1} and ${H2}`);
  for (let k = 0; k < H1; k++) for (let i = 0; i < C; i++) ws.t1[k * C + i] = w.l1w[i * H1 + k]!;
  for (let k = 0; k < H2; k++) {
    for (let i = 0; i < H1; i++) {
      ws.t2[k * 2 * H1 + 2 * i] = w.l2w[i * H2 + k]!;
      ws.t2[k * 2 * H1 + 2 * i + 1] = w.l2w[(H1 + i) * H2 + k]!;
    }
  }
  ws.packedFrom = w;
}

/** m1 = the 3x3 mean of h1 per cell and channel over the neighbours inside the grid (forwardCells). */
function neighbourMean(h1: Float32Array, rows: number, cols: number, H1: number, m1: Float32Array): void {
  const rowStride = cols * H1;
  for (let r = 0; r < rows; r++) {
    const r0 = r > 0 ? r - 1 : 0;
    const r1 = r < rows - 1 ? r + 1 : r;
    for (let q = 0; q < cols; q++) {
      const q0 = q > 0 ? q - 1 : 0;
      const q1 = q < cols - 1 ? q + 1 : q;
      const inv = 1 / ((r1 - r0 + 1) * (q1 - q0 + 1));
      const o = (r * cols + q) * H1;
      if (r0 === r - 1 && r1 === r + 1 && q0 === q - 1 && q1 === q + 1) {
        // Inner cell: the nine neighbours unrolled, in the same order as the loop below.
        for (let k = 0; k < H1; k++) {
          const u = o - rowStride - H1 + k;
          const v = u + rowStride;
          const z = v + rowStride;
          let sum = 0;
          sum += h1[u]!;
          sum += h1[u + H1]!;
          sum += h1[u + 2 * H1]!;
          sum += h1[v]!;
          sum += h1[v + H1]!;
          sum += h1[v + 2 * H1]!;
          sum += h1[z]!;
          sum += h1[z + H1]!;
          sum += h1[z + 2 * H1]!;
          m1[o + k] = sum * inv;
        }
        continue;
      }
      for (let k = 0; k < H1; k++) {
        let sum = 0;
        for (let rr = r0; rr <= r1; rr++) for (let qq = q0; qq <= q1; qq++) sum += h1[(rr * cols + qq) * H1 + k]!;
        m1[o + k] = sum * inv;
      }
    }
  }
}

/**
 * The flight forward pass: features (cell-major, HARNESS_CELL_CHANNELS per cell) of a rows x cols
 * grid -> risk per region (row-major regions) and S per cell (NUM_SENSITIVITY_DIMS per cell).
 * Same maths as forwardTensors (the 3x3 mean counts only cells inside the grid, as tf.avgPool
 * "same" does). Every sum adds its terms in the order of the plain loops (inputs in channel order,
 * the 3x3 neighbours row by row), so the re-laid weights and the unrolled inner cells change the
 * time, not the bits (spatialHarness.test.ts compares with a reference).
 */
export function forwardCells(w: SpatialHarnessWeights, features: Float32Array, rows: number, cols: number, ws: SpatialWorkspace, risk: Float32Array, sensitivity: Float32Array): void {
  const cells = rows * cols;
  const C: 8 = HARNESS_CELL_CHANNELS; // static check: the unrolled first layer reads eight inputs
  const H1 = w.hidden1;
  const H2 = w.hidden2;
  const J = NUM_SENSITIVITY_DIMS;
  const regionsR = rows / REGION_CELLS;
  const regionsC = cols / REGION_CELLS;
  if (features.length !== cells * C || risk.length !== regionsR * regionsC || sensitivity.length !== cells * J || ws.h1.length !== cells * H1) {
    throw new RangeError(`forwardCells: features ${features.length}, risk ${risk.length}, sensitivity ${sensitivity.length} for a ${rows}x${cols} grid`);
  }
  if (ws.packedFrom !== w) packWeights(w, ws);
  const { h1, m1, h2, t1, t2 } = ws;
  const { l1b, l2b, sw, sb, sScale } = w;
  for (let c = 0; c < cells; c++) {
    // The cell's eight inputs read once (C is 8: the typed constant above); each sum keeps the
    // order of the plain loop, l1b[k] + f0 t[0] + f1 t[1] + ... (left to right).
    const f = c * C;
    const f0 = features[f]!, f1 = features[f + 1]!, f2 = features[f + 2]!, f3 = features[f + 3]!;
    const f4 = features[f + 4]!, f5 = features[f + 5]!, f6 = features[f + 6]!, f7 = features[f + 7]!;
    for (let k = 0; k < H1; k++) {
      const t = k * C;
      const a = l1b[k]! + f0 * t1[t]! + f1 * t1[t + 1]! + f2 * t1[t + 2]! + f3 * t1[t + 3]! + f4 * t1[t + 4]! + f5 * t1[t + 5]! + f6 * t1[t + 6]! + f7 * t1[t + 7]!;
      h1[c * H1 + k] = a > 0 ? a : 0;
    }
  }
  neighbourMean(h1, rows, cols, H1, m1);
  if (H1 === 8 && H2 === 6) secondLayerUnrolled(w, ws, cells, sensitivity);
  else for (let c = 0; c < cells; c++) {
    const o1 = c * H1;
    const o2 = c * H2;
    for (let k = 0; k < H2; k++) {
      const t = k * 2 * H1;
      let a = l2b[k]!;
      for (let i = 0; i < H1; i++) a += h1[o1 + i]! * t2[t + 2 * i]! + m1[o1 + i]! * t2[t + 2 * i + 1]!;
      h2[o2 + k] = a > 0 ? a : 0;
    }
    for (let j = 0; j < J; j++) {
      let a = sb[j]!;
      for (let k = 0; k < H2; k++) a += h2[o2 + k]! * sw[k * J + j]!;
      sensitivity[c * J + j] = softplus(a) * sScale[j]!;
    }
  }
  regionRisk(w, h2, regionsR, regionsC, cols, risk);
}

/** risk per region: sigmoid of the linear read of the REGION_CELLS x REGION_CELLS max-pool of h2 (forwardCells). */
function regionRisk(w: SpatialHarnessWeights, h2: Float32Array, regionsR: number, regionsC: number, cols: number, risk: Float32Array): void {
  const H2 = w.hidden2;
  const { rw, rb } = w;
  for (let gr = 0; gr < regionsR; gr++) {
    for (let gq = 0; gq < regionsC; gq++) {
      let a = rb[0]!;
      for (let k = 0; k < H2; k++) {
        let m = -Infinity;
        for (let dr = 0; dr < REGION_CELLS; dr++) {
          const row = ((gr * REGION_CELLS + dr) * cols + gq * REGION_CELLS) * H2 + k;
          for (let dq = 0; dq < REGION_CELLS; dq++) {
            const v = h2[row + dq * H2]!;
            if (v > m) m = v;
          }
        }
        a += m * rw[k]!;
      }
      risk[gr * regionsC + gq] = 1 / (1 + Math.exp(-a));
    }
  }
}

/** One cell's hidden2 values in secondLayerUnrolled (no allocation per frame). */
const HIDDEN2_SCRATCH = new Float64Array(6);

/**
 * forwardCells' second layer and S for the default widths (hidden1 8, hidden2 6): each cell's
 * 16 inputs and 6 hidden values are read once into locals instead of once per output unit. Every
 * sum adds the same terms in the same order as the general loop (a += h_i w + m_i w, i = 0..7;
 * then a += h2_k sw, k = 0..5), and h2 goes through float32 as it does when stored and re-read,
 * so the bits are those of the loop (spatialHarness.test.ts checks both paths against a reference).
 */
function secondLayerUnrolled(w: SpatialHarnessWeights, ws: SpatialWorkspace, cells: number, sensitivity: Float32Array): void {
  const { h1, m1, h2, t2 } = ws;
  const { l2b, sw, sb, sScale } = w;
  const J = NUM_SENSITIVITY_DIMS;
  const hidden = HIDDEN2_SCRATCH;
  for (let c = 0; c < cells; c++) {
    const o1 = c * 8;
    const a0 = h1[o1]!, a1 = h1[o1 + 1]!, a2 = h1[o1 + 2]!, a3 = h1[o1 + 3]!, a4 = h1[o1 + 4]!, a5 = h1[o1 + 5]!, a6 = h1[o1 + 6]!, a7 = h1[o1 + 7]!;
    const b0 = m1[o1]!, b1 = m1[o1 + 1]!, b2 = m1[o1 + 2]!, b3 = m1[o1 + 3]!, b4 = m1[o1 + 4]!, b5 = m1[o1 + 5]!, b6 = m1[o1 + 6]!, b7 = m1[o1 + 7]!;
    for (let k = 0; k < 6; k++) {
      const t = k * 16;
      let a = l2b[k]!;
      a += a0 * t2[t]! + b0 * t2[t + 1]!;
      a += a1 * t2[t + 2]! + b1 * t2[t + 3]!;
      a += a2 * t2[t + 4]! + b2 * t2[t + 5]!;
      a += a3 * t2[t + 6]! + b3 * t2[t + 7]!;
      a += a4 * t2[t + 8]! + b4 * t2[t + 9]!;
      a += a5 * t2[t + 10]! + b5 * t2[t + 11]!;
      a += a6 * t2[t + 12]! + b6 * t2[t + 13]!;
      a += a7 * t2[t + 14]! + b7 * t2[t + 15]!;
      const v = Math.fround(a > 0 ? a : 0);
      h2[c * 6 + k] = v;
      hidden[k] = v;
    }
    const q0 = hidden[0]!, q1 = hidden[1]!, q2 = hidden[2]!, q3 = hidden[3]!, q4 = hidden[4]!, q5 = hidden[5]!;
    for (let j = 0; j < J; j++) {
      let a = sb[j]!;
      a += q0 * sw[j]!;
      a += q1 * sw[J + j]!;
      a += q2 * sw[2 * J + j]!;
      a += q3 * sw[3 * J + j]!;
      a += q4 * sw[4 * J + j]!;
      a += q5 * sw[5 * J + j]!;
      sensitivity[c * J + j] = softplus(a) * sScale[j]!;
    }
  }
}
