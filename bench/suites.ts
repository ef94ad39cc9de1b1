/** One entry per benchmark file (bench/<area>.bench.ts), each exporting `run(print)`. */
export type BenchSuite = { name: string; run: (print: (line: string) => void) => Promise<void> };

export const SUITES: BenchSuite[] = [
  { name: "bag", run: async (print) => (await import("./bag.bench.js")).run(print) },
  { name: "dds", run: async (print) => (await import("./dds.bench.js")).run(print) },
  { name: "detect", run: async (print) => (await import("./detect.bench.js")).run(print) },
  { name: "e2e", run: async (print) => (await import("./e2e.bench.js")).run(print) },
  { name: "graph", run: async (print) => (await import("./graph.bench.js")).run(print) },
  { name: "harness", run: async (print) => (await import("./harness.bench.js")).run(print) },
  { name: "ipc", run: async (print) => (await import("./ipc.bench.js")).run(print) },
  { name: "nodes", run: async (print) => (await import("./nodes.bench.js")).run(print) },
  { name: "pipeline", run: async (print) => (await import("./pipeline.bench.js")).run(print) },
  { name: "safety", run: async (print) => (await import("./safety.bench.js")).run(print) },
  { name: "sim", run: async (print) => (await import("./sim.bench.js")).run(print) },
  { name: "vision", run: async (print) => (await import("./vision.bench.js")).run(print) },
];
