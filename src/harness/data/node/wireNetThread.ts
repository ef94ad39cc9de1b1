/**
 * A wire detector on its own worker thread (wireNetWorker.ts), for `detect --partner`: the
 * second network of a two-network ensemble runs on the other core while the first runs in the
 * calling thread (the wasm backend is single-threaded): 1.5x one network's time on this 2-core
 * machine against 2.2x one after the other (`npm run bench -- detect`; two passes at once share
 * the memory bus). The worker loads the detector from its folder (teacher.model.json)
 * and answers one photo at a time with detectNative (or its flip average): the same code and
 * backend as in the calling thread, so the same bits. `detect --tta flip` uses one the same way
 * for the mirrored photo's pass of its own network (detectMirrored). The perception node's
 * perception/wire_map runs on one (wireMap: the detection gated on the worker), so the camera
 * callback does not wait for it.
 */
import * as path from "node:path";
import type { RgbImage } from "../imageCodec";
import type { NativeDetection } from "../../eval/detectNative";
import type { GateKind } from "../../eval/edgeGate";
import { JobThread } from "./jobThread";

/**
 * What the worker is asked per photo: the detection of `image` (flip-averaged with
 * `flipAverage`), or with `mirrored` the plain detection of the image mirrored left-right (the
 * second pass of a flip average whose first pass runs in the calling thread); with `gate`, the
 * map gated by the photo's edges (edgeGate.ts photoGateEdges + applyGate, as `detect` gates).
 */
export type WireNetThreadJob = { image: RgbImage; flipAverage: boolean; mirrored?: boolean; gate?: GateKind };

/** What the worker is started with: the detector's folder and the name it reports under. */
export type WireNetThreadData = { dir: string; name: string };

export class WireNetThread extends JobThread<WireNetThreadJob, NativeDetection> {
  /** Starts the worker and waits until it has loaded the detector in `dir`. */
  static start(dir: string, name = dir): Promise<WireNetThread> {
    const data: WireNetThreadData = { dir: path.resolve(dir), name };
    return JobThread.startWorker("wireNetWorker", data, name, "the detector was loaded", (worker) => new WireNetThread(worker, name, "photo"));
  }

  /** The detection of one photo on the worker (one at a time; the image is copied to it). */
  detect(image: RgbImage, flipAverage = false): Promise<NativeDetection> {
    return this.post({ image, flipAverage });
  }

  /**
   * The plain detection of the photo mirrored left-right (the worker mirrors it), for
   * averageWithMirrored: the flip average's second pass, run beside the first.
   */
  detectMirrored(image: RgbImage): Promise<NativeDetection> {
    return this.post({ image, flipAverage: false, mirrored: true });
  }

  /** The plain detection of one photo with its map gated by `gate` (absent: ungated), on the worker. */
  wireMap(image: RgbImage, gate?: GateKind): Promise<NativeDetection> {
    return this.post({ image, flipAverage: false, ...(gate === undefined ? {} : { gate }) });
  }
}
