/**
 * worker_threads entry of spatialRolloutsParallel.ts: loads the detector and harness once (the job
 * in workerData), then flies one seed per message and posts the flight back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { spatialFlyer, type SpatialRolloutJob } from "./spatialRolloutsParallel";
import { serveWorkerJobs } from "./workerQueue";

const fly = spatialFlyer(workerData as SpatialRolloutJob);
if (parentPort !== null) serveWorkerJobs(parentPort, async (seed: number) => (await fly)(seed));
