/**
 * Frozen-camera check for the safety watchdog (issue 8, "a camera that keeps sending the old
 * pixels with new stamps"). USB/CSI drivers that lose the sensor can keep republishing the last
 * buffer they hold with fresh header stamps; the stamp checks then see a live camera. A real
 * image sensor never delivers two bit-identical frames of a lit scene: photon shot noise and
 * read noise change the low bits of most pixels in every exposure (EMVA Standard 1288, the
 * linear sensor model: temporal noise is never zero). So pixels that stay bit-identical, frame
 * after frame, mean the camera is not exposing any more.
 *
 * Each admitted frame (valid, with an advancing stamp) is reduced to a 64-bit digest of all its
 * bytes and layout (src/control/imageDigest.ts: any one-pixel change of rgb8/bgr8/mono8/mono16 is
 * always detected). A run starts at the node-clock arrival time of the first frame with a new
 * digest; `evaluate(now)` reports "frozen" once the run holds at least two frames (the same
 * pixels really arrived again) and now - start > `timeout_s`. The first frame that differs ends
 * the run: recovery is immediate.
 *
 * Bound: a freeze that starts at time F repeats a frame that arrived at or before F, so with the
 * check on a timer of period P hover is commanded by F + timeout_s + P (for a camera period
 * below timeout_s, so that the first repeat arrives in time).
 *
 * `timeout_s = 0` disables the check (e.g. a simulated camera without noise hovering in still
 * air renders identical frames; docs/nodes.md). A clock that goes backward clears the run, as
 * SafetyWatchdog does.
 */
import { imageDigest, type ImageLayout } from "./imageDigest";

export type FrozenImageDetectorOptions = {
  /** Identical pixels for longer than this (s, node clock) -> frozen. 0 disables. Default 0.5. */
  timeout_s?: number;
};

export type FrozenImageVerdict =
  | { type: "ok" }
  | { type: "frozen"; identical_s: number; frames: number; reason: string };

const OK: FrozenImageVerdict = { type: "ok" };

export class FrozenImageDetector {
  readonly timeoutNs: bigint;
  readonly enabled: boolean;
  private readonly digest = new Uint32Array(2);
  private lastA = 0;
  private lastB = 0;
  private runStartNs: bigint | undefined;
  private runFrames = 0;
  private latestNs: bigint | undefined;
  private runs = 0;

  constructor(options: FrozenImageDetectorOptions = {}) {
    const t = options.timeout_s ?? 0.5;
    if (!(t >= 0 && Number.isFinite(t))) throw new RangeError(`frozen_image_timeout_s=${t}, expected a finite number >= 0 (0 disables)`);
    this.timeoutNs = BigInt(Math.round(t * 1e9));
    this.enabled = t > 0;
  }

  /** Records a frame that arrived at node time `nowNs`. Allocates nothing but the bigint times. */
  observe(data: Uint8Array, layout: ImageLayout, nowNs: bigint): void {
    if (!this.enabled) return;
    this.observeClock(nowNs);
    const d = imageDigest(data, layout, this.digest);
    if (this.runStartNs !== undefined && d[0] === this.lastA && d[1] === this.lastB) {
      this.runFrames++;
      return;
    }
    this.lastA = d[0]!;
    this.lastB = d[1]!;
    this.runStartNs = nowNs;
    this.runFrames = 1;
    this.runs++;
  }

  /** How many distinct-pixel runs began (frames whose digest differed from the previous frame's). */
  get distinctRuns(): number {
    return this.runs;
  }

  /** Seconds the current pixels have been unchanged at `nowNs` (0 until a frame repeats). */
  identicalSeconds(nowNs: bigint): number {
    if (this.runStartNs === undefined || this.runFrames < 2) return 0;
    return Number(nowNs - this.runStartNs) / 1e9;
  }

  evaluate(nowNs: bigint): FrozenImageVerdict {
    if (!this.enabled) return OK;
    this.observeClock(nowNs);
    const start = this.runStartNs;
    if (start === undefined || this.runFrames < 2 || nowNs - start <= this.timeoutNs) return OK;
    const identical_s = Number(nowNs - start) / 1e9;
    return {
      type: "frozen",
      identical_s,
      frames: this.runFrames,
      reason: `camera frozen: identical pixels for ${identical_s.toFixed(2)} s with advancing stamps (${this.runFrames} frames, frozen_image_timeout_s=${Number(this.timeoutNs) / 1e9})`,
    };
  }

  /** Forgets the current run (deactivate, or a clock jump backward). */
  reset(): void {
    this.runStartNs = undefined;
    this.runFrames = 0;
    this.latestNs = undefined;
  }

  private observeClock(nowNs: bigint): void {
    if (this.latestNs !== undefined && nowNs < this.latestNs) this.reset();
    this.latestNs = nowNs;
  }
}
