/**
 * Closed-loop flight outcomes and their rates (SPEC "How results are measured": collision rate =
 * share of flights over a fixed set of scenario seeds that hit a wire or branch; success rate =
 * goal reached in time). Other collisions (pole/trunk, ground) are counted separately so the
 * table can show them, and they also end a flight without success.
 */
export type FlightOutcome =
  | { type: "goal"; seed: number; time_s: number }
  | { type: "collision"; seed: number; time_s: number; obstacle: "wire" | "branch" | "pole_trunk" | "ground" }
  | { type: "timeout"; seed: number; time_s: number };

export type FlightRates = {
  flights: number;
  /** Flights that hit a wire or a branch / flights. */
  collisionRate: number;
  /** Flights that hit anything (including poles, trunks, the ground) / flights. */
  anyCollisionRate: number;
  successRate: number;
  timeoutRate: number;
  /** 95 % Wilson score interval of the thin-obstacle collision rate (Wilson 1927). */
  collisionRate95: [number, number];
};

/** Wilson score interval for k successes in n trials at z (1.96 for 95 %). */
export function wilsonInterval(k: number, n: number, z = 1.959964): [number, number] {
  if (n <= 0) return [Number.NaN, Number.NaN];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function flightRates(outcomes: readonly FlightOutcome[]): FlightRates {
  const n = outcomes.length;
  let thin = 0;
  let any = 0;
  let goal = 0;
  let timeout = 0;
  for (const o of outcomes) {
    switch (o.type) {
      case "goal":
        goal++;
        break;
      case "timeout":
        timeout++;
        break;
      case "collision":
        any++;
        if (o.obstacle === "wire" || o.obstacle === "branch") thin++;
        break;
    }
  }
  const rate = (k: number): number => (n === 0 ? Number.NaN : k / n);
  return {
    flights: n,
    collisionRate: rate(thin),
    anyCollisionRate: rate(any),
    successRate: rate(goal),
    timeoutRate: rate(timeout),
    collisionRate95: wilsonInterval(thin, n),
  };
}

/** A rate as "12.0 %" (NaN as "NaN"), for the report tables. */
export const formatPercent = (x: number): string => (Number.isNaN(x) ? "NaN" : `${(100 * x).toFixed(1)} %`);

/** A 95 % interval as "[5.6, 23.8]" (percent). */
export const formatInterval = (c: readonly [number, number]): string => `[${(100 * c[0]).toFixed(1)}, ${(100 * c[1]).toFixed(1)}]`;

/** "N split seeds (first..last)": the heading of a condition's table. */
export const formatSeedRange = (condition: string, seeds: readonly number[], split: string): string => `${condition}: ${seeds.length} ${split} seeds (${seeds[0] ?? "-"}..${seeds[seeds.length - 1] ?? "-"})`;
