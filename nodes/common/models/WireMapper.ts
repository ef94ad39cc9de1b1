/**
 * The perception node's optional wire map (issue 14 on the camera path): a photo wire detector
 * (models/photo/student or models/photo/adapted: the Teacher architecture run fully
 * convolutionally at the frame's own size, src/harness/eval/detectNative.ts) and, optionally, the
 * edge or coherence gate of `detect` (src/harness/eval/edgeGate.ts) give a wire probability per
 * pixel of the frame: the map `drone-harness detect --model <dir> [--edge-gate | --coherence-gate]`
 * writes as <name>.wire.png, here for each camera frame (tested byte for byte against it).
 *
 * The map is a picture for people and for recording (rqt_image_view, a bag replayed on real
 * imagery): it does not steer. The controller's planner reads the pipeline detector's near-threat
 * cells; the photo model has no near-threat output, and the gate rewrites the map only.
 *
 * Two forms: WireMapper maps in the calling thread (lock-step, every frame mapped: bag replays as
 * regression tests); ThreadedWireMapper maps on a worker thread (WireNetThread, the same code and
 * backend, so the same bits) one frame at a time, so the camera callback does not wait for it.
 */
import type { RgbImage } from "../../../src/harness/data/imageCodec";
import { detectNative } from "../../../src/harness/eval/detectNative";
import { gateByPhoto, type GateKind } from "../../../src/harness/eval/edgeGate";
import type { WireNet } from "../../../src/harness/eval/WireNet";
import type { WireNetThread } from "../../../src/harness/data/node/wireNetThread";
import type { Image } from "../sensors/sensorTypes";
import { Rgb8Converter } from "../sensors/toRgb8";

/** The perception node's parameter wire_map_gate: no gate, or the gate of `detect --edge-gate` / `--coherence-gate`. */
export type WireMapGate = "none" | GateKind;
export const WIRE_MAP_GATES: readonly WireMapGate[] = ["none", "edge", "coherence"];

export type WireMap = { width: number; height: number; /** Wire probability per pixel, row-major, in [0, 1]. */ map: Float32Array };

/** What the perception node maps with: in its own thread (a map) or on a worker (a promise of one). */
export interface WireMapSource {
  readonly gate: WireMapGate;
  /** True while a frame's map is being made on a worker (a threaded source takes one at a time). */
  readonly busy: boolean;
  map(image: Image): WireMap | Promise<WireMap>;
  dispose(): void;
}

function checkGate(gate: WireMapGate): void {
  if (!WIRE_MAP_GATES.includes(gate)) throw new RangeError(`wire map gate "${String(gate)}", expected one of ${WIRE_MAP_GATES.join(", ")}`);
}

export class WireMapper implements WireMapSource {
  readonly busy = false;
  private readonly rgb = new Rgb8Converter();

  /** `ownsModel` (default true): dispose the network with the mapper (false when the caller shares it). */
  constructor(
    private readonly net: WireNet,
    readonly gate: WireMapGate,
    private readonly options: { ownsModel?: boolean } = {},
  ) {
    checkGate(gate);
  }

  /** The wire map of a validated image (any size and accepted encoding) at the image's size. */
  map(image: Image): WireMap {
    const { width, height } = image;
    const photo: RgbImage = { width, height, rgb: this.rgb.convert(image) };
    const { map } = detectNative(this.net, photo);
    return { width, height, map: this.gate === "none" ? map : gateByPhoto(map, photo.rgb, width, height, this.gate) };
  }

  dispose(): void {
    if (this.options.ownsModel !== false) this.net.dispose();
  }
}

/**
 * The wire map on a worker thread: the frame is converted to RGB here (the worker gets a copy),
 * detected and gated there. One frame at a time: map() while busy rejects (the node drops that
 * frame's map and counts it). dispose() stops the worker; a map still in flight then rejects.
 */
export class ThreadedWireMapper implements WireMapSource {
  private readonly rgb = new Rgb8Converter();

  constructor(
    private readonly thread: WireNetThread,
    readonly gate: WireMapGate,
  ) {
    checkGate(gate);
  }

  get busy(): boolean {
    return this.thread.busy;
  }

  async map(image: Image): Promise<WireMap> {
    const { width, height } = image;
    const photo: RgbImage = { width, height, rgb: this.rgb.convert(image) };
    const { map } = await this.thread.wireMap(photo, this.gate === "none" ? undefined : this.gate);
    return { width, height, map };
  }

  dispose(): void {
    void this.thread.close().catch(() => undefined);
  }
}
