/**
 * worker_threads entry of wireNetThread.ts: loads the detector of workerData.dir once (its own
 * wasm backend), reports { type: "ready" } (or the load error), then answers each photo with
 * detectNative or detectNativeFlipAveraged.
 */
import { parentPort, workerData } from "node:worker_threads";
import { initBackend } from "../../backend";
import { detectNative, detectNativeFlipAveraged, type NativeDetection } from "../../eval/detectNative";
import { teacherWireNet, type WireNet } from "../../eval/WireNet";
import { loadTeacher } from "../../modelfile";
import type { WireNetThreadData, WireNetThreadJob } from "./wireNetThread";
import type { WorkerReply } from "./workerQueue";

async function serve(port: NonNullable<typeof parentPort>, data: WireNetThreadData): Promise<void> {
  let net: WireNet;
  try {
    await initBackend();
    net = teacherWireNet((await loadTeacher(data.dir)).model, data.name, { frozen: true });
  } catch (e) {
    port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies WorkerReply<NativeDetection>);
    return;
  }
  port.on("message", (job: WireNetThreadJob) => {
    try {
      const d = job.flipAverage ? detectNativeFlipAveraged(net, job.image) : detectNative(net, job.image);
      port.postMessage({ type: "result", result: d } satisfies WorkerReply<NativeDetection>);
    } catch (e) {
      port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies WorkerReply<NativeDetection>);
    }
  });
  port.postMessage({ type: "ready" } satisfies WorkerReply<NativeDetection>);
}

if (parentPort !== null) void serve(parentPort, workerData as WireNetThreadData);
