/**
 * A pool of worker_threads taking jobs from one shared queue (the data, rollout and evaluation
 * stages on both cores). A worker posts { type: "ready" } once, then answers every job it is sent
 * with { type: "result", result } or { type: "error", message }. The first error stops every
 * worker before the call rejects. Results come back in job order.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";

export type WorkerReply<R> = { type: "ready" } | { type: "result"; result: R } | { type: "error"; message: string };

/**
 * Path of a compiled worker script of this folder (workers run JavaScript): next to this file in
 * dist/, or, under ts-jest (source tree), its twin in dist/ (npm run build first).
 */
export function compiledWorkerScript(name: string): string {
  const here = path.join(__dirname, `${name}.js`);
  if (fs.existsSync(here)) return here;
  const root = path.resolve(__dirname, "..", "..", "..", "..");
  const built = path.join(root, "dist", "src", "harness", "data", "node", `${name}.js`);
  if (!fs.existsSync(built)) throw new Error(`${built} not found: run "npm run build" first (worker threads run the compiled JavaScript)`);
  return built;
}

export async function runWorkerQueue<J, R>(script: string, workerData: unknown, jobs: readonly J[], workers: number, onResult?: (job: J, result: R, index: number) => void): Promise<R[]> {
  const results: R[] = new Array<R>(jobs.length);
  const queue = jobs.map((job, i) => ({ job, i }));
  const running: Worker[] = [];
  const one = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(script, { workerData });
      running.push(worker);
      let current: { job: J; i: number } | undefined;
      const next = (): void => {
        current = queue.shift();
        if (current === undefined) void worker.terminate().then(() => resolve());
        else worker.postMessage(current.job);
      };
      worker.on("message", (m: WorkerReply<R>) => {
        if (m.type === "error") {
          reject(new Error(`${path.basename(script)}: ${m.message}`));
          return;
        }
        if (m.type === "result" && current !== undefined) {
          results[current.i] = m.result;
          onResult?.(current.job, m.result, current.i);
        }
        next();
      });
      worker.on("error", reject);
    });
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, one));
  } catch (e) {
    await Promise.all(running.map((w) => w.terminate()));
    throw e;
  }
  return results;
}

/** The worker side: answers each job with `handle`'s result (or its error). */
export function serveWorkerJobs<J, R>(port: { on(event: "message", f: (job: J) => void): unknown; postMessage(m: WorkerReply<R>): void }, handle: (job: J) => Promise<R> | R): void {
  port.on("message", (job: J) => {
    Promise.resolve()
      .then(() => handle(job))
      .then(
        (result) => port.postMessage({ type: "result", result }),
        (e: unknown) => port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) }),
      );
  });
  port.postMessage({ type: "ready" });
}
