/**
 * The harness node's pairing of harness/student_output with its camera image by header stamp:
 * a short ring of recent images, and the student outputs that arrived before their image
 * (possible across processes: the image and the student output travel different paths), matched
 * when the image comes. So perception and harness work the same in one process or across
 * processes.
 */
import type { Image } from "./sensorTypes";
import { stampToNs } from "../ros/StampGuard";
import type { StudentOutputMsg } from "../models/studentOutputMsg";

/** A student output waiting for its image, with its stamp in ns. */
export type WaitingOutput = { msg: StudentOutputMsg; stampNs: bigint };

export type StudentMatch =
  | { type: "matched"; image: Image }
  | { type: "waiting" }
  /** The output waits; the oldest waiting one was given up to keep at most `pendingMax`. */
  | { type: "dropped"; oldest: StudentOutputMsg };

export class StudentImageMatcher {
  private readonly images: Array<Image | undefined>;
  private imageNext = 0;
  private readonly pending: WaitingOutput[] = [];

  /** `imageBuffer`: recent images kept; `pendingMax`: student outputs kept waiting for their image. */
  constructor(imageBuffer: number, readonly pendingMax = 4) {
    this.images = new Array<Image | undefined>(imageBuffer).fill(undefined);
  }

  /** Keeps `image`; returns the waiting student output with its stamp, taken off the wait list, if there is one. */
  addImage(image: Image): WaitingOutput | undefined {
    this.images[this.imageNext] = image;
    this.imageNext = (this.imageNext + 1) % this.images.length;
    if (this.pending.length === 0) return undefined;
    const stampNs = stampToNs(image.header.stamp);
    for (let i = 0; i < this.pending.length; i++) {
      const entry = this.pending[i] as WaitingOutput;
      if (entry.stampNs === stampNs) {
        this.pending.splice(i, 1);
        return entry;
      }
    }
    return undefined;
  }

  /** The kept image with stamp `stampNs` (on a repeated stamp, the last matching slot of the ring); else `msg` waits for it. */
  imageFor(msg: StudentOutputMsg, stampNs: bigint): StudentMatch {
    let image: Image | undefined;
    for (const im of this.images) if (im !== undefined && stampToNs(im.header.stamp) === stampNs) image = im;
    if (image !== undefined) return { type: "matched", image };
    this.pending.push({ msg, stampNs });
    if (this.pending.length <= this.pendingMax) return { type: "waiting" };
    return { type: "dropped", oldest: (this.pending.shift() as WaitingOutput).msg };
  }

  /** Forgets images and waiting outputs (time jump back, deactivate). */
  clear(): void {
    this.images.fill(undefined);
    this.pending.length = 0;
  }
}
