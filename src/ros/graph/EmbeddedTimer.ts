import type { NodeClock } from "./NodeClock";
import type { Timer } from "./types";

/**
 * A timer on a node's clock (rclcpp::GenericTimer over rcl_timer_t): due at start + k*period;
 * when the executor is late (or sim time jumps) by several periods it fires once and the next
 * deadline moves to the first multiple in the future, as rcl_timer_call does. A clock that jumps
 * backwards (sim time reset) restarts the period from the new time.
 */
export class EmbeddedTimer implements Timer {
  readonly periodNs: bigint;
  /** Fully qualified name of the node that created the timer (the executor blames it for errors). */
  readonly owner: string | undefined;
  readonly #clock: NodeClock;
  readonly #callback: () => void;
  #nextDueNs: bigint;
  #canceled = false;

  constructor(periodNs: bigint, clock: NodeClock, callback: () => void, owner?: string) {
    if (periodNs <= 0n) throw new RangeError(`timer period ${periodNs} ns: expected > 0`);
    this.periodNs = periodNs;
    this.owner = owner;
    this.#clock = clock;
    this.#callback = callback;
    this.#nextDueNs = clock.nowNs() + periodNs;
  }

  get clock(): NodeClock {
    return this.#clock;
  }

  cancel(): void {
    this.#canceled = true;
  }

  isCanceled(): boolean {
    return this.#canceled;
  }

  /** Restart the period from the clock's current time (clock source changed). */
  reset(): void {
    this.#nextDueNs = this.#clock.nowNs() + this.periodNs;
  }

  /** Nanoseconds until due on its clock (<= 0: due). */
  remainingNs(): bigint {
    const now = this.#clock.nowNs();
    if (now < this.#nextDueNs - this.periodNs) this.#nextDueNs = now + this.periodNs;
    return this.#nextDueNs - now;
  }

  /** Runs the callback if due; returns whether it ran. Exceptions propagate to the executor. */
  fireIfDue(): boolean {
    if (this.#canceled || this.remainingNs() > 0n) return false;
    const now = this.#clock.nowNs();
    const behind = (now - this.#nextDueNs) / this.periodNs;
    this.#nextDueNs += (behind + 1n) * this.periodNs;
    this.#callback();
    return true;
  }
}
