/**
 * One worker thread answering one job at a time (the protocol of workerQueue.ts: { type: "ready" }
 * once, then one result or error per job), for work that runs beside the calling thread on the
 * other core: the second network of `detect --partner` (wireNetThread.ts) and the gate's edge maps
 * of `detect --edge-gate | --coherence-gate` (gateThread.ts). A worker that dies or errors fails
 * the job in flight and every later one with a message naming it; nothing waits forever.
 */
import { Worker } from "node:worker_threads";
import { compiledWorkerScript, type WorkerReply } from "./workerQueue";

export class JobThread<J, R> {
  private pending: { resolve: (r: R) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;

  /** `unit` names a job in the busy message ("one photo at a time"). */
  protected constructor(
    private readonly worker: Worker,
    readonly name: string,
    private readonly unit: string,
  ) {
    worker.on("message", (m: WorkerReply<R>) => {
      const p = this.pending;
      this.pending = undefined;
      if (m.type === "result") p?.resolve(m.result);
      else if (m.type === "error") p?.reject(new Error(`${name}: ${m.message}`));
    });
    worker.on("error", (e) => this.fail(e));
    worker.on("exit", (code) => this.fail(new Error(`${name}: its worker thread exited (code ${code})`)));
  }

  /**
   * Starts the compiled worker `script` of this folder with `workerData` and waits for its
   * { type: "ready" } (what it loads first, e.g. a detector, has loaded), then wraps it by `make`.
   */
  protected static startWorker<T>(script: string, workerData: unknown, name: string, what: string, make: (worker: Worker) => T): Promise<T> {
    const worker = new Worker(compiledWorkerScript(script), { workerData });
    return new Promise<T>((resolve, reject) => {
      const onExit = (code: number): void => reject(new Error(`${name}: its worker thread exited (code ${code}) before ${what}`));
      const onReady = (m: WorkerReply<unknown>): void => {
        worker.off("error", reject);
        worker.off("exit", onExit);
        if (m.type === "ready") resolve(make(worker));
        else {
          reject(new Error(`${name}: ${m.type === "error" ? m.message : "unexpected first message"}`));
          void worker.terminate();
        }
      };
      worker.once("message", onReady);
      worker.once("error", reject);
      worker.once("exit", onExit);
    });
  }

  /** True while a job is on the worker (a post now would be refused). */
  get busy(): boolean {
    return this.pending !== undefined;
  }

  /** Sends one job (its data copied to the worker) and resolves with the worker's answer. */
  protected post(job: J): Promise<R> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.pending !== undefined) return Promise.reject(new Error(`${this.name}: one ${this.unit} at a time (the previous one is still running)`));
    return new Promise<R>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error(`${this.name}: closed`);
    await this.worker.terminate();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.pending?.reject(e);
    this.pending = undefined;
  }
}
