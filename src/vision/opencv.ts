/**
 * The one place that touches `@techstark/opencv-js` (OpenCV 4.5 compiled to WASM by Emscripten).
 *
 * `Cv` is the small structural subset of the OpenCV.js API this package uses; everything else in
 * src/vision is written against it, so the rest of the code neither imports the 7.6 MB module nor
 * depends on the `mirada` type package that ships with it.
 *
 * Quirks of the 4.5.2 build in Node (checked in dist/opencv.js):
 * - `require()` returns the Emscripten `Module` object synchronously, but the WASM runtime is not
 *   ready yet (`cv.Mat` is undefined for ~0.3 s). Readiness is signalled by
 *   `Module.onRuntimeInitialized`.
 * - The module defines `Module.then(fn)` that calls `fn(Module)`: it is a thenable whose value is
 *   itself, so `await cv`, `resolve(cv)` or returning it from an async function spins forever
 *   inside the promise machinery (the Emscripten MODULARIZE thenable bug; later Emscripten
 *   versions removed `then`). Once the runtime is ready we delete `then` from the module, which
 *   nothing else in OpenCV.js uses, so it can be passed through promises like any object.
 * - WASM memory is not garbage-collected: every `cv.Mat` must be `delete()`d. The build allows
 *   memory growth, and `HEAPU8.length` only ever grows, so a leak shows up as heap growth.
 * - Built without threads (`Parallel framework: none`), so each call runs on the calling thread.
 * - Evaluating it installs process-wide handlers: `process.on("uncaughtException")` (rethrows) and
 *   `process.on("unhandledRejection", abort)`; `loadOpenCv` removes exactly those two again.
 * - No `cv.convertMaps` in this build: RolloutWarper writes remap's fixed-point maps itself.
 */

/** An OpenCV `cv::Mat` as exposed by embind. Only the members used in this package. */
export interface CvMat {
  readonly rows: number;
  readonly cols: number;
  /** Bytes of the matrix (view into the WASM heap; invalidated when the heap grows). */
  readonly data: Uint8Array;
  readonly data32F: Float32Array;
  readonly data16S: Int16Array;
  readonly data16U: Uint16Array;
  type(): number;
  channels(): number;
  isContinuous(): boolean;
  isDeleted(): boolean;
  delete(): void;
  copyTo(dst: CvMat): void;
  convertTo(dst: CvMat, rtype: number, alpha?: number, beta?: number): void;
  setTo(value: CvScalar): CvMat;
}

/** cv::Scalar: embind maps it to a 4-element array. */
export type CvScalar = number[];

/** cv::Size as an embind value object (a plain JS object, nothing to delete). */
export type CvSize = { width: number; height: number };

/** cv::TermCriteria: an embind value object too (no `delete`). */
export type CvTermCriteria = { type: number; maxCount: number; epsilon: number };

export interface Cv {
  Mat: {
    new (): CvMat;
    new (rows: number, cols: number, type: number): CvMat;
    new (rows: number, cols: number, type: number, scalar: CvScalar): CvMat;
  };
  Size: new (width: number, height: number) => CvSize;
  TermCriteria: new (type: number, maxCount: number, epsilon: number) => CvTermCriteria;
  Scalar: new (v0: number, v1?: number, v2?: number, v3?: number) => CvScalar;

  readonly CV_8UC1: number;
  readonly CV_8UC2: number;
  readonly CV_32FC1: number;
  readonly CV_32FC2: number;
  readonly CV_32F: number;
  readonly CV_16SC2: number;
  readonly CV_16UC1: number;
  readonly CV_8U: number;
  readonly INTER_LINEAR: number;
  readonly INTER_NEAREST: number;
  readonly INTER_AREA: number;
  readonly BORDER_CONSTANT: number;
  readonly BORDER_REPLICATE: number;
  readonly BORDER_REFLECT_101: number;
  readonly MORPH_RECT: number;
  readonly MORPH_TOPHAT: number;
  readonly MORPH_BLACKHAT: number;
  readonly OPTFLOW_FARNEBACK_GAUSSIAN: number;
  readonly TERM_CRITERIA_EPS: number;
  readonly TERM_CRITERIA_COUNT: number;
  readonly THRESH_TRUNC: number;

  calcOpticalFlowFarneback(
    prev: CvMat,
    next: CvMat,
    flow: CvMat,
    pyrScale: number,
    levels: number,
    winsize: number,
    iterations: number,
    polyN: number,
    polySigma: number,
    flags: number,
  ): void;
  calcOpticalFlowPyrLK(
    prevImg: CvMat,
    nextImg: CvMat,
    prevPts: CvMat,
    nextPts: CvMat,
    status: CvMat,
    err: CvMat,
    winSize: CvSize,
    maxLevel: number,
    criteria: CvTermCriteria,
  ): void;
  remap(src: CvMat, dst: CvMat, map1: CvMat, map2: CvMat, interpolation: number, borderMode: number, borderValue: CvScalar): void;
  resize(src: CvMat, dst: CvMat, dsize: CvSize, fx: number, fy: number, interpolation: number): void;
  Sobel(src: CvMat, dst: CvMat, ddepth: number, dx: number, dy: number, ksize: number, scale: number, delta: number, borderType: number): void;
  magnitude(x: CvMat, y: CvMat, magnitude: CvMat): void;
  morphologyEx(src: CvMat, dst: CvMat, op: number, kernel: CvMat): void;
  getStructuringElement(shape: number, ksize: CvSize): CvMat;
  max(a: CvMat, b: CvMat, dst: CvMat): void;
  threshold(src: CvMat, dst: CvMat, thresh: number, maxval: number, type: number): number;

  /** Emscripten heap view: its length is the current WASM memory size in bytes. */
  readonly HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

/** The shape of the raw module before initialisation (see the quirks above). */
type RawModule = Partial<Cv> & { onRuntimeInitialized?: () => void; then?: unknown };

let loading: Promise<Cv> | undefined;

const PROCESS_EVENTS = ["uncaughtException", "unhandledRejection"] as const;

/**
 * Loads OpenCV.js once per process and resolves when its WASM runtime is initialised. Later calls
 * return the same instance. Typical cost: ~0.35 s on first call (WASM compile), 0 afterwards.
 */
export async function loadOpenCv(): Promise<Cv> {
  loading ??= new Promise<Cv>((resolve, reject) => {
    // The module adds process-wide "uncaughtException" (rethrow) and "unhandledRejection" (abort)
    // listeners when it is evaluated (see above). They would override the host's own error
    // handling (a node that logs and continues would die instead), so exactly the listeners it
    // added are removed again; Node's defaults and anyone else's handlers stay in place.
    // Viewed as a plain EventEmitter: the listeners are only compared and removed, never called.
    const emitter: Pick<NodeJS.EventEmitter, "listeners" | "removeListener"> = process;
    const before = PROCESS_EVENTS.map((e) => new Set(emitter.listeners(e)));
    // Lazy require keeps the 7.6 MB module out of processes that never use vision.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const raw = require("@techstark/opencv-js") as RawModule;
    PROCESS_EVENTS.forEach((event, i) => {
      for (const listener of emitter.listeners(event)) {
        if (!(before[i] as Set<unknown>).has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    });
    const done = (): void => {
      if (typeof raw.Mat !== "function") {
        reject(new Error("@techstark/opencv-js initialised without cv.Mat; unsupported build"));
        return;
      }
      // The module is a self-referential thenable (see above): drop `then` before resolving.
      delete raw.then;
      resolve(raw as Cv);
    };
    if (typeof raw.Mat === "function") {
      done();
    } else {
      const previous = raw.onRuntimeInitialized;
      raw.onRuntimeInitialized = (): void => {
        previous?.();
        done();
      };
    }
  });
  return loading;
}

/** Current size of the WASM linear memory in bytes (grows, never shrinks). */
export function wasmHeapBytes(cv: Cv): number {
  return cv.HEAPU8.length;
}

/**
 * The address a fresh 16 MiB allocation would get. dlmalloc serves a block that large from the top
 * of the heap, so this is the heap's high-water mark of live allocations: it moves up when memory
 * is leaked and returns to the same value when everything allocated since has been freed. Used by
 * the leak test next to `wasmHeapBytes`, which only moves in 16 MiB-ish growth steps.
 */
export function wasmHeapTop(cv: Cv): number {
  const probe = cv._malloc(1 << 24);
  cv._free(probe);
  return probe;
}
