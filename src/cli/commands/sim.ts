/**
 * `drone-harness sim` (what `npm start` runs): the main job, closed-loop flights of
 * launch/sim.launch.xml with the trained models, harness on and off on the same test seeds, a
 * summary table, and out/<timestamp>/ with bags, summary.json and report.html (src/app).
 *
 * `drone-harness sim --scenario <yaml|name> --seed N --headless [--duration s] [--save-frames dir]
 * [--perturbed] [--every n]`: flies the embedded simulator with the scripted pilot and prints
 * progress; --save-frames writes PNGs of the camera with the ground-truth mask overlaid.
 * The flight itself is sim/runHeadless.ts.
 */
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import { UsageError, type CliCommand } from "../CliCommand";
import { loadScenarioFile } from "../../../sim/io/loadScenarioFile";
import { writeFramePng } from "../../../sim/io/writePng";
import { describeCollision } from "../../../sim/describeCollision";
import { runHeadless } from "../../../sim/runHeadless";
import { MissingModelsError } from "../../app/loadModels";
import { runMainJob } from "../../app/runMainJob";
import { outputTimestamp, writeMainJobOutput } from "../../app/writeMainJobOutput";
import { FOXGLOVE_DEFAULT_PORT, FoxgloveListenError } from "../../ros/foxglove/FoxgloveBridge";

export type SimArgs = {
  scenario: string;
  seed: number;
  headless: boolean;
  duration?: number;
  saveFrames?: string;
  every: number;
  perturbed: boolean;
  /** Main job (without --headless): seeds per arm, first seed, output dir, models, bagged seeds, report frames per flight. */
  flights: number;
  seedStart: number;
  out?: string;
  models: string;
  bagFlights: number;
  bagSeconds: number;
  samples: number;
  /** Options given that only one of the two modes understands. */
  headlessOnly: string[];
  mainJobOnly: string[];
  /** Serve the flights' topics to Foxglove (main job only). */
  foxglove?: { host: string; port: number };
};

/** Main-job defaults: 3 test seeds x 2 arms x at most 20 s of sim time (a few minutes on 2 cores). */
export const MAIN_JOB_DEFAULTS = { flights: 3, duration_s: 90, bagFlights: 1, bagSeconds: 10, samples: 4 } as const;

function int(name: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name}=${v}, expected an integer in [${min}, ${max}]`);
  return n;
}

function seconds(name: string, v: string): number {
  const n = Number(v);
  if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`${name}=${v}, expected seconds > 0`);
  return n;
}

/** An option being read: its name, its value (the next word, required), and a look at the next word. */
type OptionReader = { name: string; value: () => string; peek: () => string | undefined };

/** The arguments being parsed, and --foxglove-host until --foxglove is known. */
type ParseState = { out: SimArgs; foxgloveHost?: string };

/**
 * The options of `sim`: how each reads into the arguments, and the one mode that alone understands
 * it ("headless" or "mainJob"; both modes understand the others).
 */
const SIM_OPTIONS = new Map<string, { only?: "headless" | "mainJob"; read: (s: ParseState, o: OptionReader) => void }>([
  ["--scenario", { read: (s, o) => (s.out.scenario = o.value()) }],
  ["--seed", { only: "headless", read: (s, o) => (s.out.seed = int(o.name, o.value(), 0, 0xffffffff)) }],
  ["--duration", { read: (s, o) => (s.out.duration = seconds(o.name, o.value())) }],
  [
    "--every",
    {
      only: "headless",
      read: (s, o) => {
        const v = o.value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--every=${v}, expected an integer >= 1`);
        s.out.every = n;
      },
    },
  ],
  ["--save-frames", { only: "headless", read: (s, o) => (s.out.saveFrames = o.value()) }],
  ["--flights", { only: "mainJob", read: (s, o) => (s.out.flights = int(o.name, o.value(), 1, 1000)) }],
  ["--seed-start", { only: "mainJob", read: (s, o) => (s.out.seedStart = int(o.name, o.value(), 0, 0xffffffff)) }],
  ["--out", { only: "mainJob", read: (s, o) => (s.out.out = o.value()) }],
  ["--models", { only: "mainJob", read: (s, o) => (s.out.models = o.value()) }],
  ["--bag-flights", { only: "mainJob", read: (s, o) => (s.out.bagFlights = int(o.name, o.value(), 0, 1000)) }],
  ["--bag-seconds", { only: "mainJob", read: (s, o) => (s.out.bagSeconds = seconds(o.name, o.value())) }],
  ["--samples", { only: "mainJob", read: (s, o) => (s.out.samples = int(o.name, o.value(), 0, 16)) }],
  [
    "--foxglove",
    {
      only: "mainJob",
      read: (s, o) => {
        // An optional port: `--foxglove` alone serves on FOXGLOVE_DEFAULT_PORT.
        const next = o.peek();
        s.out.foxglove = { host: "127.0.0.1", port: next !== undefined && /^\d+$/.test(next) ? int(o.name, o.value(), 0, 65535) : FOXGLOVE_DEFAULT_PORT };
      },
    },
  ],
  ["--foxglove-host", { only: "mainJob", read: (s, o) => (s.foxgloveHost = o.value()) }],
  ["--headless", { read: (s) => (s.out.headless = true) }],
  ["--perturbed", { read: (s) => (s.out.perturbed = true) }],
]);

export function parseSimArgs(args: string[]): SimArgs {
  const out: SimArgs = {
    scenario: "default",
    seed: 0,
    headless: false,
    every: 1,
    perturbed: false,
    flights: MAIN_JOB_DEFAULTS.flights,
    seedStart: 0,
    models: "models",
    bagFlights: MAIN_JOB_DEFAULTS.bagFlights,
    bagSeconds: MAIN_JOB_DEFAULTS.bagSeconds,
    samples: MAIN_JOB_DEFAULTS.samples,
    headlessOnly: [],
    mainJobOnly: [],
  };
  const state: ParseState = { out };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const option = SIM_OPTIONS.get(a);
    if (option === undefined) throw new UsageError(`unknown option ${a}`);
    const reader: OptionReader = {
      name: a,
      value: () => {
        const v = args[++i];
        if (v === undefined) throw new UsageError(`${a} needs a value`);
        return v;
      },
      peek: () => args[i + 1],
    };
    option.read(state, reader);
    if (option.only === "headless") out.headlessOnly.push(a);
    else if (option.only === "mainJob") out.mainJobOnly.push(a);
  }
  if (state.foxgloveHost !== undefined) {
    if (out.foxglove === undefined) throw new UsageError("--foxglove-host only with --foxglove");
    out.foxglove.host = state.foxgloveHost;
  }
  return out;
}

async function runMain(a: SimArgs, args: string[], io: Parameters<CliCommand["run"]>[1]): Promise<number> {
  if (a.headlessOnly.length > 0) throw new UsageError(`${a.headlessOnly.join(", ")} only with --headless (the main job flies test-split seeds from --seed-start)`);
  if (a.perturbed) throw new UsageError("--perturbed only with --headless");
  const outDir = a.out ?? path.join("out", outputTimestamp(new Date()));
  mkdirSync(outDir, { recursive: true });
  const commandLine = ["drone-harness", "sim", ...args].join(" ");
  let result;
  try {
    result = await runMainJob(
      {
        scenario: a.scenario,
        flights: a.flights,
        seedStart: a.seedStart,
        duration_s: a.duration ?? MAIN_JOB_DEFAULTS.duration_s,
        outDir,
        modelDir: a.models,
        bagFlights: a.bagFlights,
        bagSeconds: a.bagSeconds,
        samplesPerFlight: a.samples,
        ...(a.foxglove === undefined ? {} : { foxglove: a.foxglove }),
      },
      { out: io.out, err: io.err, isTTY: process.stderr.isTTY === true },
    );
  } catch (err) {
    if (err instanceof MissingModelsError || err instanceof FoxgloveListenError) {
      io.err(`drone-harness sim: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const files = writeMainJobOutput(outDir, result, commandLine);
  io.out(`wrote ${files.map((f) => path.relative(process.cwd(), f) || f).join(", ")}\n`);
  return result.arms.some((x) => x.callbackErrors > 0 || x.framesWithoutCommand === x.cameraFrames) ? 1 : 0;
}

export const command: CliCommand = {
  usage:
    "drone-harness sim [--scenario <yaml|name>] [--flights N] [--seed-start S] [--duration s] [--out dir] [--models dir] [--bag-flights N] [--bag-seconds s] [--samples N] [--foxglove [port]] [--foxglove-host addr]\n" +
    "       drone-harness sim --headless --scenario <yaml|name> --seed N [--duration s] [--save-frames dir] [--every n] [--perturbed]",
  run: async (args, io) => {
    const a = parseSimArgs(args);
    if (!a.headless) return runMain(a, args, io);
    if (a.mainJobOnly.length > 0) throw new UsageError(`${a.mainJobOnly.join(", ")} only without --headless (the main job)`);
    const scenario = loadScenarioFile(a.scenario);
    if (a.saveFrames !== undefined) mkdirSync(a.saveFrames, { recursive: true });
    const dir = a.saveFrames;
    io.out(`sim: scenario ${scenario.name}, seed ${a.seed}${a.perturbed ? " (perturbed)" : ""}\n`);
    const summary = runHeadless({
      scenario,
      seed: a.seed,
      perturbed: a.perturbed,
      duration_s: a.duration,
      onProgress: (line) => io.out(`${line}\n`),
      onFrame:
        dir === undefined
          ? undefined
          : (index, rgb, mask, sim) => {
              if (index % a.every !== 0) return;
              const name = `frame_${String(index).padStart(5, "0")}`;
              writeFramePng(path.join(dir, `${name}.png`), rgb, sim.camera.width, sim.camera.height);
              writeFramePng(path.join(dir, `${name}_mask.png`), rgb, sim.camera.width, sim.camera.height, mask);
            },
    });
    io.out(
      `sim: ${summary.status} after ${summary.simTime_s.toFixed(2)} s sim time, ${summary.frames} frames, ${summary.distance_m.toFixed(1)} m flown, ` +
        `min clearance ${summary.minClearance_m.toFixed(2)} m, ${(summary.simTime_s / (summary.wallTime_ms / 1000)).toFixed(1)} sim s per wall s\n`,
    );
    if (summary.collision !== undefined) io.out(`sim: collision with ${describeCollision(summary.collision)}\n`);
    return summary.status === "collided" ? 1 : 0;
  },
};
