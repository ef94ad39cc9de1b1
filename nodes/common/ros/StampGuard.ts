/**
 * Per-topic header-stamp checks (issue 8): duplicates, out-of-order messages and stamps far in the
 * future are dropped; a stamp far behind the last one is a time jump (simulator reset, bag loop):
 * the message is accepted and the caller clears its histories, as tf2's BufferCore does when
 * time goes backward.
 */
import type { RosTime } from "../../../src/ros/graph/types";
import { stampToNs } from "../../../src/util/time";
import type { DropReason } from "../sensors/inputValidation";

export type StampVerdict =
  | { type: "ok" }
  | { type: "jump_back"; detail: string }
  | { type: "drop"; reason: Extract<DropReason, "duplicate" | "out_of_order" | "future_stamp">; detail: string };

export type StampGuardOptions = {
  /** A stamp more than this ahead of the node clock is dropped. Default 1 s. */
  maxFuture_s?: number;
  /** A stamp more than this behind the last accepted one is a time jump, not reordering. Default 1 s. */
  jumpBack_s?: number;
};

const OK: StampVerdict = { type: "ok" };

/** The one stamp -> nanoseconds conversion (src/util/time.ts), re-exported for the nodes. */
export { stampToNs };

export class StampGuard {
  private lastNs: bigint | undefined;
  private readonly maxFutureNs: bigint;
  private readonly jumpBackNs: bigint;

  constructor(options: StampGuardOptions = {}) {
    const f = options.maxFuture_s ?? 1;
    const j = options.jumpBack_s ?? 1;
    if (!(f >= 0 && Number.isFinite(f))) throw new RangeError(`maxFuture_s=${f}, expected a finite number >= 0`);
    if (!(j > 0 && Number.isFinite(j))) throw new RangeError(`jumpBack_s=${j}, expected a finite number > 0`);
    this.maxFutureNs = BigInt(Math.round(f * 1e9));
    this.jumpBackNs = BigInt(Math.round(j * 1e9));
  }

  /** Classifies `stamp` against the last accepted stamp and the node clock `nowNs`. */
  check(stamp: RosTime, nowNs: bigint): StampVerdict {
    const s = stampToNs(stamp);
    if (s > nowNs + this.maxFutureNs) {
      return { type: "drop", reason: "future_stamp", detail: `stamp ${fmt(s)} s is ${fmt(s - nowNs)} s ahead of the clock (max ${fmt(this.maxFutureNs)} s)` };
    }
    const last = this.lastNs;
    if (last !== undefined) {
      if (s === last) return { type: "drop", reason: "duplicate", detail: `stamp ${fmt(s)} s repeated` };
      if (s < last - this.jumpBackNs) {
        this.lastNs = s;
        return { type: "jump_back", detail: `stamp went back ${fmt(last - s)} s (from ${fmt(last)} to ${fmt(s)}): histories cleared` };
      }
      if (s < last) return { type: "drop", reason: "out_of_order", detail: `stamp ${fmt(s)} s older than the last ${fmt(last)} s` };
    }
    this.lastNs = s;
    return OK;
  }

  reset(): void {
    this.lastNs = undefined;
  }
}

function fmt(ns: bigint): string {
  return (Number(ns) / 1e9).toFixed(3);
}
