/**
 * Wall time in nanoseconds since the Unix epoch with the resolution of process.hrtime: the epoch
 * offset is taken once, so differences are monotonic (system clock steps do not move it).
 */
const EPOCH_OFFSET_NS = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

export function wallNowNs(): bigint {
  return EPOCH_OFFSET_NS + process.hrtime.bigint();
}

/** bigint nanoseconds -> builtin_interfaces/Time. */
export function nsToTime(ns: bigint): { sec: number; nanosec: number } {
  const sec = ns / 1_000_000_000n;
  const nanosec = ns - sec * 1_000_000_000n;
  return nanosec < 0n ? { sec: Number(sec) - 1, nanosec: Number(nanosec + 1_000_000_000n) } : { sec: Number(sec), nanosec: Number(nanosec) };
}

export function timeToNs(t: { sec: number; nanosec: number }): bigint {
  return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nanosec);
}
