/**
 * worker_threads entry of generateFramesParallel.ts: opens the run (its FrameRun in workerData)
 * at the first job, then flies one seed per message with the expert (or the detector pilot),
 * writes the flight to the cache directory and answers with its frame count. Runs only from the
 * compiled dist/ tree.
 */
import { workerData, parentPort } from "node:worker_threads";
import { frameRecorder, type FrameRun } from "./generateFramesParallel";
import { serveWorkerJobs } from "./workerQueue";

let record: Promise<(seed: number) => number> | undefined;
if (parentPort !== null) serveWorkerJobs(parentPort, async (seed: number) => (await (record ??= frameRecorder(workerData as FrameRun)))(seed));
