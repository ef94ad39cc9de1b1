/**
 * Picks the TensorFlow.js backend (SPEC "Dependencies"): @tensorflow/tfjs-node where it installs
 * (optional dependency: its install downloads libtensorflow, which fails without internet), else
 * @tensorflow/tfjs-backend-wasm (single-threaded: the threaded build does not initialise in Node,
 * SPEC "Known facts for training"), else the pure-JS cpu backend with a warning (100x slower for
 * convs). Every module imports `@tensorflow/tfjs`, whose tfjs-core is the one the backends register
 * into (one copy in node_modules), so there is a single kernel registry.
 *
 * This is an adapter: it resolves package files on disk. The harness core only imports `tf`.
 */
import * as path from "node:path";
import { createRequire } from "node:module";
import * as tf from "@tensorflow/tfjs";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";

export type BackendName = "tensorflow" | "wasm" | "cpu";

export type InitBackendOptions = {
  /** Backend to use; "auto" tries tfjs-node, then wasm, then cpu. Default "auto". */
  prefer?: "auto" | BackendName;
  /** Receives the warning when falling back to cpu. Default: process.stderr. */
  warn?: (message: string) => void;
};

export type BackendInfo = { name: BackendName; simd: boolean };

const localRequire = createRequire(__filename);

let initialised: Promise<BackendInfo> | undefined;

async function tryTfjsNode(): Promise<boolean> {
  try {
    // Registers the "tensorflow" backend into the same tfjs-core as a side effect.
    localRequire("@tensorflow/tfjs-node");
  } catch {
    return false;
  }
  try {
    // Throws "not found in registry" when tfjs-node registered into another copy of tfjs-core.
    return await tf.setBackend("tensorflow");
  } catch {
    return false;
  }
}

async function tryWasm(): Promise<boolean> {
  const wasmFile = localRequire.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm");
  setWasmPaths(path.dirname(wasmFile) + path.sep);
  // The threaded build needs SharedArrayBuffer workers that Node does not provide to emscripten.
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  try {
    return await tf.setBackend("wasm");
  } catch {
    return false;
  }
}

async function pick(options: InitBackendOptions): Promise<BackendInfo> {
  const prefer = options.prefer ?? "auto";
  const warn = options.warn ?? ((m: string) => process.stderr.write(`${m}\n`));
  if ((prefer === "auto" || prefer === "tensorflow") && (await tryTfjsNode())) {
    await tf.ready();
    return { name: "tensorflow", simd: false };
  }
  if ((prefer === "auto" || prefer === "wasm") && (await tryWasm())) {
    await tf.ready();
    const simd = (await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT")) === true;
    return { name: "wasm", simd };
  }
  if (prefer !== "cpu") {
    warn(`drone-harness: backend "${prefer}" unavailable, falling back to the cpu backend (about 100x slower for convolutions; do not train on it)`);
  }
  await tf.setBackend("cpu");
  await tf.ready();
  return { name: "cpu", simd: false };
}

/**
 * Initialises the backend once per process and returns which one runs. Later calls return the
 * first result (switching backends mid-run would move every variable).
 */
export function initBackend(options: InitBackendOptions = {}): Promise<BackendInfo> {
  initialised ??= pick(options);
  return initialised;
}
