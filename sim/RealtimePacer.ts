/**
 * Real-time pacing of a fixed-step simulation (the sim node's "realtime" mode).
 *
 * A ROS timer that fires late skips the periods it missed (rclcpp and EmbeddedTimer both do), so
 * a simulator ticked once per timer callback loses a physics tick whenever the event loop is busy
 * for longer than a tick (5 ms at 200 Hz): rendering a camera frame, a garbage collection, a burst
 * of DDS traffic. Sim time then drifts behind wall time even on a machine with capacity to spare
 * (measured: 0.979x with the nodes in their own processes, 2026-12-02). This pacer counts the ticks
 * due since the start by the wall clock and returns how many to run now, so the late ones are
 * caught up in the next callback, as Gazebo runs physics steps back to back to hold a real-time
 * factor of 1. It catches up at most `maxCatchUpNs` of sim time at once: a machine that cannot
 * keep up at all then runs slower than real time (the excess is given up and counted, and the sim
 * node's lag warning says so) instead of stalling its event loop in ever longer bursts.
 */
export class RealtimePacer {
  /** Ticks given up because they were more than maxCatchUpNs late. */
  droppedTicks = 0n;
  #startNs: bigint | undefined;
  #ticks = 0n;
  readonly #maxBurst: bigint;

  constructor(
    readonly tickNs: bigint,
    readonly maxCatchUpNs: bigint,
  ) {
    if (tickNs <= 0n) throw new RangeError(`tickNs=${tickNs}, expected > 0`);
    if (maxCatchUpNs < 0n) throw new RangeError(`maxCatchUpNs=${maxCatchUpNs}, expected >= 0`);
    // At least one tick per call, so a catch-up of 0 still ticks once per callback (the timer's own pace).
    this.#maxBurst = maxCatchUpNs / tickNs > 1n ? maxCatchUpNs / tickNs : 1n;
  }

  /** Ticks to run at wall-clock instant `wallNs` (the first call is one tick, and starts the count). */
  due(wallNs: bigint): number {
    if (this.#startNs === undefined) this.#startNs = wallNs - this.tickNs;
    const target = (wallNs - this.#startNs) / this.tickNs;
    let n = target - this.#ticks;
    if (n <= 0n) return 0;
    if (n > this.#maxBurst) {
      const excess = n - this.#maxBurst;
      this.droppedTicks += excess;
      this.#startNs += excess * this.tickNs;
      n = this.#maxBurst;
    }
    this.#ticks += n;
    return Number(n);
  }
}
