/**
 * The edge or coherence gate's photo side on a worker thread, for `detect --edge-gate |
 * --coherence-gate` with two threads: the Sobel map (and the structure tensor's coherence) and
 * their 99th percentile depend on the photo only, so they are computed on the other core while the
 * network runs in the calling thread, and only the per-pixel gate waits for the network's map
 * (edgeGate.ts applyGate). The same function as in the calling thread, so the same bits.
 */
import type { RgbImage } from "../imageCodec";
import type { GateEdges, GateKind } from "../../eval/edgeGate";
import { JobThread } from "./jobThread";

/** One photo's job: its pixels and which gate's edges. */
export type GateThreadJob = { image: RgbImage; kind: GateKind };

export class GateThread extends JobThread<GateThreadJob, GateEdges> {
  /** Starts the worker and waits until it is ready. */
  static start(name = "gate edges"): Promise<GateThread> {
    return JobThread.startWorker("gateWorker", undefined, name, "it was ready", (worker) => new GateThread(worker, name, "photo"));
  }

  /** photoGateEdges of `image` on the worker (one photo at a time; the image is copied to it). */
  edges(image: RgbImage, kind: GateKind): Promise<GateEdges> {
    return this.post({ image, kind });
  }
}
