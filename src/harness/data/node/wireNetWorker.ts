/**
 * worker_threads entry of wireNetThread.ts: loads the detector of workerData.dir once (its own
 * wasm backend), reports the load error or serves each photo with detectPass, or detectNative of
 * the mirrored photo for a job marked `mirrored`, its map gated for a job with `gate` (serveWorkerJobs:
 * { type: "ready" } first, then one result or error per photo).
 */
import { parentPort, workerData } from "node:worker_threads";
import { initBackend } from "../../backend";
import { detectNative, detectPass, mirrorRgb, type NativeDetection } from "../../eval/detectNative";
import { gateByPhoto } from "../../eval/edgeGate";
import { teacherWireNet, type WireNet } from "../../eval/WireNet";
import { loadTeacher } from "../../modelfile";
import type { WireNetThreadData, WireNetThreadJob } from "./wireNetThread";
import { serveWorkerJobs, type WorkerReply } from "./workerQueue";

async function serve(port: NonNullable<typeof parentPort>, data: WireNetThreadData): Promise<void> {
  let net: WireNet;
  try {
    await initBackend();
    net = teacherWireNet((await loadTeacher(data.dir)).model, data.name, { frozen: true });
  } catch (e) {
    port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies WorkerReply<NativeDetection>);
    return;
  }
  serveWorkerJobs<WireNetThreadJob, NativeDetection>(port, (job) => {
    if (job.mirrored === true) return detectNative(net, mirrorRgb(job.image));
    const found = detectPass(net, job.image, job.flipAverage);
    if (job.gate === undefined) return found;
    const { rgb, width, height } = job.image;
    return { ...found, map: gateByPhoto(found.map, rgb, width, height, job.gate) };
  });
}

if (parentPort !== null) void serve(parentPort, workerData as WireNetThreadData);
