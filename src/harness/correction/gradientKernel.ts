/**
 * The WebAssembly form of cellGradientStats' hot loop (gradientKernel.wat): the gradient magnitude
 * of two pixels per f64x2 instruction, then the per-cell sums in the scalar loop's order, so the
 * same bits as the JavaScript loop (test/harness/correction/gradientKernel.test.ts). One instance
 * per thread, compiled on first use; its memory grows to the largest image seen. Where
 * WebAssembly SIMD is missing, kernelCellSums returns undefined and the caller runs JavaScript.
 */
import { GRADIENT_KERNEL_WASM } from "./gradientKernelBinary";

/**
 * The part of the WebAssembly JavaScript API used here (the project's `lib` is ES2022 without the
 * DOM, whose declarations carry the full API; Node.js has had it since v8).
 */
type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
};

type Kernel = {
  memory: WasmMemory;
  cellSums: (grey: number, width: number, height: number, cellPx: number, squares: number, row: number, acc: number) => void;
};

/** undefined: not tried yet; null: this runtime cannot instantiate it. */
let kernel: Kernel | null | undefined;

function load(): Kernel | null {
  if (kernel !== undefined) return kernel;
  try {
    const bytes = Uint8Array.from(atob(GRADIENT_KERNEL_WASM), (c) => c.charCodeAt(0));
    const exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as Kernel;
    kernel = { memory: exports.memory, cellSums: exports.cellSums };
  } catch {
    kernel = null;
  }
  return kernel;
}

/** True when the kernel runs in this thread (WebAssembly with SIMD). */
export function gradientKernelAvailable(): boolean {
  return load() !== null;
}

/** What kernelCellSums computes besides the sums of G. */
export type KernelCellSumsOptions = {
  /** Also the sums of G^2 (a variance is wanted). Default false: those entries are 0. */
  squares?: boolean;
};

/**
 * The views on the kernel's memory for the last image size (rebuilt when the size changes or the
 * memory grows, so a stream of frames of one size allocates nothing).
 */
let views: { buffer: ArrayBuffer; n: number; cells: number; grey: Float32Array; sums: Float64Array; rowAt: number; accAt: number } | undefined;

/**
 * Per cell c (row-major, (width / cellPx) * (height / cellPx) cells): sums[2c] = sum of G and,
 * with `squares`, sums[2c + 1] = sum of G^2 (else 0), with G = sqrt(dx^2 + dy^2) of the undivided
 * central differences, neighbours clamped. A view on the kernel's memory, valid until the next
 * call; undefined when the kernel is not available. width and height must be multiples of cellPx.
 */
export function kernelCellSums(grey: Float32Array, width: number, height: number, cellPx: number, options: KernelCellSumsOptions = {}): Float64Array | undefined {
  const k = load();
  if (k === null) return undefined;
  const n = width * height;
  const cells = (width / cellPx) * (height / cellPx);
  if (views?.buffer !== k.memory.buffer || views.n !== n || views.cells !== cells) {
    const rowAt = align(4 * n, 16);
    const accAt = align(rowAt + 8 * width, 16);
    const bytes = accAt + 16 * cells;
    const have = k.memory.buffer.byteLength;
    if (bytes > have) k.memory.grow(Math.ceil((bytes - have) / 65536));
    views = { buffer: k.memory.buffer, n, cells, grey: new Float32Array(k.memory.buffer, 0, n), sums: new Float64Array(k.memory.buffer, accAt, 2 * cells), rowAt, accAt };
  }
  views.grey.set(grey);
  k.cellSums(0, width, height, cellPx, options.squares === true ? 1 : 0, views.rowAt, views.accAt);
  return views.sums;
}

function align(x: number, to: number): number {
  return Math.ceil(x / to) * to;
}
