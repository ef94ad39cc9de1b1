/**
 * Counts dropped input messages by topic and reason and logs each (topic, reason) at most once
 * per `throttle_s` of node time (Logger.throttle): a burst of bad messages gives one log line,
 * the counts go to /diagnostics (issue 8: "logged once per burst, counted, dropped").
 */
import type { Logger } from "../../../src/ros/graph/types";
import type { DropReason, InputCheck } from "../sensors/inputValidation";
import type { StampVerdict } from "./StampGuard";

export class InputHealth {
  private readonly drops = new Map<string, number>();
  private readonly throttleNs: bigint;
  private totalDrops = 0;
  private resets = 0;

  constructor(private readonly logger: Logger, throttle_s = 5) {
    if (!(throttle_s > 0)) throw new RangeError(`throttle_s=${throttle_s}, expected a number > 0`);
    this.throttleNs = BigInt(Math.round(throttle_s * 1e9));
  }

  drop(topic: string, reason: DropReason, detail: string): void {
    const key = `${topic}:${reason}`;
    this.drops.set(key, (this.drops.get(key) ?? 0) + 1);
    this.totalDrops++;
    this.logger.throttle("warn", key, this.throttleNs, `dropping ${topic} message (${reason}): ${detail}`);
  }

  /** A time jump backward on `topic`: histories were cleared. */
  timeJump(topic: string, detail: string): void {
    this.resets++;
    this.logger.throttle("warn", `${topic}:jump_back`, this.throttleNs, `${topic}: ${detail}`);
  }

  /**
   * The gate every subscriber applies: a content check, then a stamp check (computed only when
   * the content is fine). Rejections and stamp drops are counted and the message is dropped
   * (returns false); a backward time jump is counted, `onJumpBack` runs (clear histories, as tf2
   * does on a sim reset) and the message is kept.
   */
  admit(topic: string, check: InputCheck, verdict: () => StampVerdict, onJumpBack?: () => void): boolean {
    if (check.type === "reject") {
      this.drop(topic, check.reason, check.detail);
      return false;
    }
    const v = verdict();
    switch (v.type) {
      case "drop":
        this.drop(topic, v.reason, v.detail);
        return false;
      case "jump_back":
        this.timeJump(topic, v.detail);
        onJumpBack?.();
        return true;
      case "ok":
        return true;
    }
  }

  count(topic: string, reason: DropReason): number {
    return this.drops.get(`${topic}:${reason}`) ?? 0;
  }

  get total(): number {
    return this.totalDrops;
  }

  get timeJumps(): number {
    return this.resets;
  }

  /** [key, value] pairs for a DiagnosticStatus: "drops/<topic>:<reason>" -> count. */
  keyValues(): Array<{ key: string; value: string }> {
    const out = [{ key: "drops_total", value: String(this.totalDrops) }, { key: "time_jumps", value: String(this.resets) }];
    for (const [k, v] of this.drops) out.push({ key: `drops/${k}`, value: String(v) });
    return out;
  }
}
