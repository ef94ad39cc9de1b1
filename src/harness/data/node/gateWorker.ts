/**
 * worker_threads entry of gateThread.ts: the gating edges of each photo it is sent
 * (photoGateEdges: the Sobel map, or Sobel x coherence, and its floored 99th percentile), answered
 * through serveWorkerJobs ({ type: "ready" } first, then one result or error per photo).
 */
import { parentPort } from "node:worker_threads";
import { photoGateEdges, type GateEdges } from "../../eval/edgeGate";
import type { GateThreadJob } from "./gateThread";
import { serveWorkerJobs } from "./workerQueue";

if (parentPort !== null) serveWorkerJobs<GateThreadJob, GateEdges>(parentPort, (job) => photoGateEdges(job.image.rgb, job.image.width, job.image.height, job.kind));
