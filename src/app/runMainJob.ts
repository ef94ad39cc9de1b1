/**
 * The main job (`npm start` = `drone-harness sim`): closed-loop flights of launch/sim.launch.xml
 * on the embedded graph with the committed models, harness ON and OFF on the same test-split
 * seeds (sim/splits.ts; never training seeds), interleaved per seed so both arms see the same
 * machine load. Collects the flight records, AP accumulators and a bag of one flight per arm;
 * the caller writes summary.json and report.html (writeMainJobOutput.ts).
 */
import * as path from "node:path";
import { seedsOfSplit } from "../../sim/splits";
import { loadLaunchFile, resolveLaunchPath } from "../ros/launch/loadLaunchFile";
import type { LaunchPlan } from "../ros/launch/LaunchPlan";
import type { NodeRegistry } from "../ros/launch/NodeFactory";
import { findPackageRoot } from "../ros/launch/packageRoot";
import { CellScoreAccumulator } from "./CellScoreAccumulator";
import { flyFlight } from "./flyFlight";
import { FoxgloveLiveView } from "./FoxgloveLiveView";
import { formatTable } from "./formatTable";
import { loadModels } from "./loadModels";
import { peakRssMb } from "./peakRss";
import { ProgressBar } from "./ProgressBar";
import { startFlightBag, type BagResult } from "./recordFlightBag";
import { summarizeArm, type ArmSummary } from "./summarize";
import { ARMS, type Arm, type FlightRecord, type WorldSketch } from "./types";

/** Sim seconds of the discarded warm-up flight. */
export const WARMUP_S = 1;

export type MainJobOptions = {
  /** Scenario name (sim/scenarios/NAME.yaml) or path. Default "default". */
  scenario: string;
  /** Seeds per arm (each flown with the harness on and off). */
  flights: number;
  /** The first test-split seed at or above this is the first seed. */
  seedStart: number;
  /** Simulated seconds per flight at most. */
  duration_s: number;
  /** Output directory (created). */
  outDir: string;
  /** Folder of the trained models. */
  modelDir: string;
  /** Seeds (from the first) whose flights are recorded to a bag, per arm. */
  bagFlights: number;
  /** Sim seconds recorded from the start of each bagged flight (bounds the bag: about 7 MB per second at 256x256). */
  bagSeconds: number;
  /** Frames kept per flight for the report. */
  samplesPerFlight: number;
  /**
   * Serve the flights' topics on the Foxglove WebSocket protocol at host:port: one server for the
   * whole job, bound before the models load, attached to each flight's graph in turn
   * (FoxgloveLiveView.ts). Default: none.
   */
  foxglove?: { host: string; port: number };
};

export type MainJobIO = { err: (text: string) => void; out: (text: string) => void; isTTY: boolean };

export type MainJobResult = {
  options: MainJobOptions;
  seeds: number[];
  backend: string;
  trainingCommand: string | undefined;
  flights: FlightRecord[];
  worlds: WorldSketch[];
  arms: ArmSummary[];
  bags: BagResult[];
  wallTime_s: number;
  peakRss_mb: number;
};

/** The discarded warm-up flight (WARMUP_S of sim time, harness on, nothing kept). */
async function warmUp(plan: LaunchPlan, seed: number, registry: NodeRegistry): Promise<void> {
  await flyFlight({
    arm: "on",
    seed,
    plan,
    registry,
    duration_s: WARMUP_S,
    policyScores: new CellScoreAccumulator(),
    studentScores: new CellScoreAccumulator(),
    keepSamples: 0,
  });
}

/** Warns about an arm where more than a tenth of the camera frames missed a message of their stamp. */
function warnIncomplete(arms: readonly ArmSummary[], io: MainJobIO): void {
  for (const a of arms) {
    if (a.framesIncomplete > 0.1 * a.cameraFrames) {
      io.err(`main job: WARNING harness ${a.arm.toUpperCase()}: ${a.framesIncomplete} of ${a.cameraFrames} camera frames lacked sim/ground_truth, harness/policy, harness/student_output or harness/correction for their stamp; their figures are n/a or partial\n`);
    }
  }
}

export async function runMainJob(o: MainJobOptions, io: MainJobIO): Promise<MainJobResult> {
  if (!Number.isInteger(o.flights) || o.flights < 1) throw new RangeError(`flights=${o.flights}, expected an integer >= 1`);
  if (!(o.duration_s > 0)) throw new RangeError(`duration_s=${o.duration_s}, expected > 0`);
  const t0 = Date.now();
  const live = o.foxglove === undefined ? undefined : await FoxgloveLiveView.start(o.foxglove, io);
  const models = await loadModels(o.modelDir).catch(async (err: unknown) => {
    await live?.close();
    throw err;
  });
  try {
    const seeds = seedsOfSplit("test", o.flights, o.seedStart);
    const packageRoot = findPackageRoot();
    const launchPath = resolveLaunchPath(packageRoot, "sim.launch.xml");
    const planFor = (seed: number, arm: Arm): LaunchPlan =>
      loadLaunchFile(launchPath, { packageRoot, arguments: { scenario: o.scenario, seed: String(seed), harness: arm === "on" ? "true" : "false" } });
    io.err(`main job: scenario ${o.scenario}, test seeds ${seeds.join(", ")}, ${o.duration_s} s per flight, harness on/off, backend ${models.backend}\n`);
    const acc = Object.fromEntries(ARMS.map((a) => [a, { policy: new CellScoreAccumulator(), student: new CellScoreAccumulator() }])) as Record<Arm, { policy: CellScoreAccumulator; student: CellScoreAccumulator }>;
    const flights: FlightRecord[] = [];
    const worlds: WorldSketch[] = [];
    const bags: BagResult[] = [];
    const bar = new ProgressBar({ total: seeds.length * ARMS.length, write: io.err, isTTY: io.isTTY });
    // Warm-up: the first frames through the wasm networks and the JIT are several times slower
    // than the rest; one discarded second of flight keeps them out of the first arm's latency.
    await warmUp(planFor(seeds[0]!, "on"), seeds[0]!, models.registry);
    let peakRss = process.memoryUsage().rss;
    for (const [i, seed] of seeds.entries()) {
      for (const arm of ARMS) {
        const plan = planFor(seed, arm);
        const record = i < o.bagFlights;
        const label = `seed ${seed} harness ${arm.toUpperCase()}`;
        const flown = flyFlight({
          arm,
          seed,
          plan,
          registry: models.registry,
          duration_s: o.duration_s,
          policyScores: acc[arm].policy,
          studentScores: acc[arm].student,
          keepSamples: i === 0 ? o.samplesPerFlight : 0,
          bagSeconds: o.bagSeconds,
          onStarted: record ? (graph) => startFlightBag(graph, path.join(o.outDir, `bag_${arm}_seed${seed}`), (b) => bags.push(b)) : undefined,
          onGraph: live === undefined ? undefined : (graph) => live.attach(graph),
          onFrame: (t) => {
            bar.update(t / o.duration_s, `${label} t=${t.toFixed(1)} s`);
            peakRss = Math.max(peakRss, process.memoryUsage.rss());
          },
        });
        const { record: r, world } = await flown.finally(() => live?.detach());
        flights.push(r);
        if (arm === "on") worlds.push(world);
        bar.flightDone(
          `${label}: ${r.status} at t=${r.simTime_s.toFixed(1)} s, ${r.distance_m.toFixed(0)} m, ${r.cameraFrames} frames, ${(r.wallTime_ms / 1000).toFixed(1)} s wall`,
        );
      }
    }
    bar.clear();
    const arms = ARMS.map((a) => summarizeArm(a, flights, acc[a].policy.summary(), acc[a].student.summary()));
    io.out(formatTable(arms));
    warnIncomplete(arms, io);
    return {
      options: o,
      seeds,
      backend: models.backend,
      trainingCommand: models.trainingCommand,
      flights,
      worlds,
      arms,
      bags,
      wallTime_s: (Date.now() - t0) / 1000,
      peakRss_mb: Math.max(peakRss / 2 ** 20, peakRssMb()),
    };
  } finally {
    models.dispose();
    await live?.close();
  }
}
