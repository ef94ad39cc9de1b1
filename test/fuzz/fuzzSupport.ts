/**
 * Shared pieces of the fuzz suites (issue 8): case counts and seed from the environment, a byte
 * mutator (bit flips, byte sets, truncation, deletion, duplication and insertion of ranges), a
 * per-case time budget and a per-target summary line.
 *
 * FUZZ_RUNS sets the cases per target (default small so `npx jest test/fuzz` stays well under
 * 60 s on the shared machine; `npm run fuzz` runs 20000). FUZZ_SEED picks the fast-check seed, so
 * a failure is reproducible: fast-check prints the seed and path of the shrunk counterexample.
 */
import fc from "fast-check";

/** Cases per target: FUZZ_RUNS, else `fallback`. */
export function fuzzRuns(fallback: number): number {
  const env = process.env.FUZZ_RUNS;
  if (env === undefined || env === "") return fallback;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`FUZZ_RUNS=${env}, expected an integer >= 1`);
  return n;
}

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261130);

// A long run (`npm run fuzz`) outlasts jest.config.js's 120 s per test: allow an hour per test.
if (process.env.FUZZ_RUNS !== undefined) jest.setTimeout(3_600_000);

/** fast-check parameters for one target. */
export function fcParams(runs: number): fc.Parameters<unknown> {
  return { numRuns: runs, seed: FUZZ_SEED, endOnFailure: true };
}

export type Mutation =
  | { kind: "flip"; at: number; bit: number }
  | { kind: "set"; at: number; value: number }
  | { kind: "truncate"; at: number }
  | { kind: "delete"; at: number; length: number }
  | { kind: "duplicate"; at: number; length: number }
  | { kind: "insert"; at: number; bytes: Uint8Array };

/** Positions are fractions of the current length, so one arbitrary fits inputs of any size. */
// Unbiased: fast-check biases numbers towards the bounds, which would put every edit at byte 0.
const frac = fc.noBias(fc.integer({ min: 0, max: 999_999 })).map((n) => n / 1_000_000);

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("flip" as const), at: frac, bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("set" as const), at: frac, value: fc.constantFrom(0, 0xff, 0x7f, 0x80, 0x01, 0xfe) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: frac }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: frac, length: fc.integer({ min: 1, max: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("duplicate" as const), at: frac, length: fc.integer({ min: 1, max: 64 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("insert" as const), at: frac, bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }) },
);

export const mutationsArb: fc.Arbitrary<Mutation[]> = fc.array(mutationArb, { minLength: 1, maxLength: 6 });

/** Applies `ops` to a copy of `base`. */
export function mutate(base: Uint8Array, ops: readonly Mutation[]): Uint8Array {
  let b: Uint8Array = base.slice();
  for (const op of ops) {
    const at = Math.floor(op.at * b.length);
    switch (op.kind) {
      case "flip":
        if (b.length > 0) b[at] = b[at]! ^ (1 << op.bit);
        break;
      case "set":
        if (b.length > 0) b[at] = op.value;
        break;
      case "truncate":
        b = b.slice(0, at);
        break;
      case "delete":
        b = concat(b.subarray(0, at), b.subarray(Math.min(b.length, at + op.length)));
        break;
      case "duplicate":
        b = concat(b.subarray(0, at + Math.min(op.length, b.length - at)), b.subarray(at));
        break;
      case "insert":
        b = concat(b.subarray(0, at), op.bytes, b.subarray(at));
        break;
    }
  }
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Per-case wall-time budget: a case that takes longer is a hang (not a performance target). */
export const CASE_DEADLINE_MS = Number(process.env.FUZZ_CASE_DEADLINE_MS ?? 5000);

/** Counts outcomes of one target and prints one summary line. */
export class FuzzTally {
  readonly outcomes = new Map<string, number>();
  cases = 0;
  maxCaseMs = 0;
  constructor(readonly target: string) {}

  /** Runs one synchronous case; `fn` returns the outcome label. Throws when over the deadline. */
  run(fn: () => string): void {
    const t0 = performance.now();
    const label = fn();
    this.#count(label, performance.now() - t0);
  }

  /** Runs one asynchronous case, rejected when it does not settle within the deadline. */
  async runAsync(fn: () => Promise<string>): Promise<void> {
    const t0 = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.target}: case did not finish within ${CASE_DEADLINE_MS} ms (hang)`)), CASE_DEADLINE_MS);
    });
    try {
      const label = await Promise.race([fn(), deadline]);
      this.#count(label, performance.now() - t0);
    } finally {
      clearTimeout(timer);
    }
  }

  #count(label: string, ms: number): void {
    if (ms > CASE_DEADLINE_MS) throw new Error(`${this.target}: case took ${ms.toFixed(0)} ms, over the ${CASE_DEADLINE_MS} ms deadline (hang)`);
    this.cases++;
    this.maxCaseMs = Math.max(this.maxCaseMs, ms);
    this.outcomes.set(label, (this.outcomes.get(label) ?? 0) + 1);
  }

  summary(): string {
    const parts = [...this.outcomes].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
    return `fuzz ${this.target}: ${this.cases} cases (${parts.join(", ")}), slowest case ${this.maxCaseMs.toFixed(1)} ms, seed ${FUZZ_SEED}`;
  }

  print(): void {
    console.log(this.summary());
  }
}

/**
 * The outcome label of an error that is of one of the `expected` classes and whose message
 * matches `shape`; any other error is rethrown (a crash of the wrong kind is a bug).
 */
export function expectedError(err: unknown, expected: ReadonlyArray<abstract new (...args: never[]) => Error>, shape: RegExp): string {
  const ok = expected.find((c) => err instanceof c);
  if (ok === undefined || !(err instanceof Error)) {
    throw new Error(`unexpected ${err instanceof Error ? err.constructor.name : typeof err}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!shape.test(err.message)) throw new Error(`${err.constructor.name} message does not name the problem as expected (${shape}): ${err.message}`, { cause: err });
  return `rejected (${err.constructor.name})`;
}
