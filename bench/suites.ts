/** One entry per benchmark file (bench/<area>.bench.ts), each exporting `run(print)`. */
export type BenchSuite = { name: string; run: (print: (line: string) => void) => Promise<void> };

export const SUITES: BenchSuite[] = [
];
