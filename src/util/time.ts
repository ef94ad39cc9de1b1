/**
 * builtin_interfaces/Time (a message header's stamp) <-> bigint nanoseconds: the one home of
 * this conversion for the graph, the nodes, the simulator's fault injection, bags and the main job.
 */
export type Stamp = { sec: number; nanosec: number };

export const NS_PER_S = 1_000_000_000n;

export function stampToNs(t: Stamp): bigint {
  return BigInt(t.sec) * NS_PER_S + BigInt(t.nanosec);
}

/** The stamp of `ns` (nanosec always in [0, 1e9), so times before the epoch have sec < 0). */
export function nsToStamp(ns: bigint): Stamp {
  const sec = ns / NS_PER_S;
  const nanosec = ns - sec * NS_PER_S;
  return nanosec < 0n ? { sec: Number(sec) - 1, nanosec: Number(nanosec + NS_PER_S) } : { sec: Number(sec), nanosec: Number(nanosec) };
}
