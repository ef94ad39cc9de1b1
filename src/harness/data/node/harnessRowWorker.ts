/** worker_threads entry of harnessRowsParallel.ts: flies one (condition, row) job per message. */
import { parentPort } from "node:worker_threads";
import { runHarnessRowJob } from "./harnessRowsParallel";
import { serveWorkerJobs } from "./workerQueue";

if (parentPort !== null) serveWorkerJobs(parentPort, runHarnessRowJob);
