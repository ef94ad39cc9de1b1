/**
 * Wall time in nanoseconds since the Unix epoch with the resolution of process.hrtime: the epoch
 * offset is taken once, so differences are monotonic (system clock steps do not move it).
 */
const EPOCH_OFFSET_NS = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

export function wallNowNs(): bigint {
  return EPOCH_OFFSET_NS + process.hrtime.bigint();
}
