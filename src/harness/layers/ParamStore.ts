/**
 * Named trainable weights of one model (a plain functional model, not tf.layers: `model.fit` with
 * conv layers fails on the wasm backend, SPEC "Known facts for training"). Each model owns one
 * store, so an optimizer can be given exactly that model's variables (`trainableVariables()`):
 * a harness training step then cannot touch the student's weights, and vice versa.
 */
import * as tf from "@tensorflow/tfjs";
import { Rng } from "../../util/Rng";

export type Init = "he" | "glorot" | "zeros";

export type NamedWeight = { name: string; shape: number[]; values: Float32Array };

let instances = 0;

/** Active allocation budget (withParameterBudget): elements left and variables made under it. */
let budget: { remaining: number; created: tf.Variable[] } | undefined;

/**
 * Runs `build` (typically a model constructor) so that every ParamStore.add inside it fails
 * before allocating once the total would exceed `maxElements`; on failure the variables made so
 * far are disposed. Model files use it so a config in a file cannot allocate more than the
 * weights the file actually holds.
 */
export function withParameterBudget<T>(maxElements: number, build: () => T): T {
  const previous = budget;
  const current = { remaining: maxElements, created: [] as tf.Variable[] };
  budget = current;
  try {
    return build();
  } catch (err) {
    for (const v of current.created) v.dispose();
    throw err;
  } finally {
    budget = previous;
  }
}

export class ParamStore {
  private readonly instance = ++instances;
  private readonly vars = new Map<string, tf.Variable>();
  private readonly rng: Rng;

  /** @param prefix prepended to variable names (tfjs variable names must be unique per process). */
  constructor(
    readonly prefix: string,
    seed: number,
  ) {
    this.rng = new Rng(seed);
  }

  /**
   * Adds a weight. "he": N(0, 2/fanIn) for ReLU layers (He et al. 2015, sec. 2.2); "glorot":
   * N(0, 2/(fanIn+fanOut)) for linear outputs (Glorot & Bengio 2010, eq. 12 normal variant).
   * For a conv kernel [kh, kw, cin, cout] fanIn = kh*kw*cin and fanOut = kh*kw*cout.
   */
  add(name: string, shape: number[], init: Init): tf.Variable {
    if (this.vars.has(name)) {
      throw new Error(`weight "${name}" already exists in ${this.prefix}`);
    }
    const size = shape.reduce((a, b) => a * b, 1);
    if (budget !== undefined) {
      if (size > budget.remaining) {
        throw new RangeError(`weight "${name}" [${shape.join(",")}] needs ${size} values, over the remaining parameter budget of ${budget.remaining}`);
      }
      budget.remaining -= size;
    }
    const values = new Float32Array(size);
    if (init !== "zeros") {
      const receptive = shape.length === 4 ? (shape[0] ?? 1) * (shape[1] ?? 1) : 1;
      const fanIn = receptive * (shape[shape.length - 2] ?? 1);
      const fanOut = receptive * (shape[shape.length - 1] ?? 1);
      const std = init === "he" ? Math.sqrt(2 / fanIn) : Math.sqrt(2 / (fanIn + fanOut));
      for (let i = 0; i < size; i++) values[i] = this.rng.normal() * std;
    }
    // tf.variable shares the initial tensor's data; dispose the initial tensor so that disposing
    // the variable frees the memory.
    const initial = tf.tensor(values, shape, "float32");
    const v = tf.variable(initial, true, `${this.prefix}#${this.instance}/${name}`);
    initial.dispose();
    this.vars.set(name, v);
    budget?.created.push(v);
    return v;
  }

  get(name: string): tf.Variable {
    const v = this.vars.get(name);
    if (v === undefined) {
      throw new Error(`weight "${name}" not found in ${this.prefix}; have ${[...this.vars.keys()].join(", ")}`);
    }
    return v;
  }

  /** The weight as a rank-4 tensor (conv kernel); throws naming it if its rank differs. */
  w4(name: string): tf.Tensor4D {
    return this.ranked(name, 4) as tf.Tensor4D;
  }

  /** The weight as a rank-2 tensor (dense kernel). */
  w2(name: string): tf.Tensor2D {
    return this.ranked(name, 2) as tf.Tensor2D;
  }

  /** The weight as a rank-1 tensor (bias). */
  w1(name: string): tf.Tensor1D {
    return this.ranked(name, 1) as tf.Tensor1D;
  }

  private ranked(name: string, rank: number): tf.Tensor {
    const v = this.get(name);
    if (v.rank !== rank) {
      throw new RangeError(`weight "${name}" has rank ${v.rank}, expected ${rank}`);
    }
    return v;
  }

  names(): string[] {
    return [...this.vars.keys()];
  }

  trainableVariables(): tf.Variable[] {
    return [...this.vars.values()];
  }

  parameterCount(): number {
    let n = 0;
    for (const v of this.vars.values()) n += v.size;
    return n;
  }

  /** Copies every weight out (for model files and tests). */
  snapshot(): NamedWeight[] {
    return [...this.vars.entries()].map(([name, v]) => ({ name, shape: v.shape.slice(), values: v.dataSync<"float32">().slice() }));
  }

  /** Loads weights by name; every name and shape must match this store exactly. */
  load(weights: readonly NamedWeight[]): void {
    const seen = new Set<string>();
    for (const w of weights) {
      const v = this.vars.get(w.name);
      if (v === undefined) {
        throw new Error(`weight "${w.name}" is not part of ${this.prefix}`);
      }
      if (w.shape.length !== v.shape.length || w.shape.some((d, i) => d !== v.shape[i])) {
        throw new Error(`weight "${w.name}" has shape [${w.shape.join(",")}], expected [${v.shape.join(",")}]`);
      }
      seen.add(w.name);
    }
    const missing = this.names().filter((n) => !seen.has(n));
    if (missing.length > 0) {
      throw new Error(`weights missing for ${this.prefix}: ${missing.join(", ")}`);
    }
    for (const w of weights) {
      const v = this.get(w.name);
      tf.tidy(() => v.assign(tf.tensor(w.values, w.shape, "float32")));
    }
  }

  /** Copies the named weights of another store (same names and shapes) into this one. */
  copyFrom(other: ParamStore, names: readonly string[]): void {
    for (const n of names) this.get(n).assign(other.get(n));
  }

  dispose(): void {
    for (const v of this.vars.values()) v.dispose();
    this.vars.clear();
  }
}
