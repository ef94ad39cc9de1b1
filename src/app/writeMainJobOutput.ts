/**
 * Writes the main job's files into its output directory (the thin file adapter around the pure
 * report code): summary.json (every figure, per arm and per flight, without pixels) and
 * report.html. The bags are written during the flights (recordFlightBag.ts).
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { renderReport } from "./report/renderReport";
import type { MainJobResult } from "./runMainJob";

/** "2026-11-30T06-40-00Z": an ISO-8601 UTC time without characters that are awkward in file names. */
export function outputTimestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/:/g, "-");
}

/** summary.json content: NaN (no value) becomes null, as JSON has no NaN. */
export function summaryJson(result: MainJobResult, commandLine: string): string {
  const flights = result.flights.map((f) => ({
    arm: f.arm,
    seed: f.seed,
    status: f.status,
    simTime_s: f.simTime_s,
    cameraFrames: f.cameraFrames,
    distance_m: f.distance_m,
    minClearance: f.minClearance,
    collision: f.collision ?? null,
    framesWithoutCommand: f.framesWithoutCommand,
    framesWithoutCommandAt_s: f.framesWithoutCommandAt_s,
    framesIncomplete: f.framesIncomplete,
    callbackErrors: f.callbackErrors,
    recorded: f.recorded,
    wallTime_ms: f.wallTime_ms,
    latencyMs: f.latencyMs,
    series: f.series,
  }));
  return JSON.stringify(
    { command: commandLine, options: result.options, seeds: result.seeds, backend: result.backend, trainingCommand: result.trainingCommand ?? null, wallTime_s: result.wallTime_s, peakRss_mb: result.peakRss_mb, arms: result.arms, bags: result.bags, flights },
    (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? null : v),
    1,
  );
}

export function writeMainJobOutput(outDir: string, result: MainJobResult, commandLine: string, now = new Date()): string[] {
  const summary = path.join(outDir, "summary.json");
  writeFileSync(summary, summaryJson(result, commandLine));
  const report = path.join(outDir, "report.html");
  writeFileSync(report, renderReport(result, commandLine, now));
  return [...result.bags.map((b) => b.directory), summary, report];
}
