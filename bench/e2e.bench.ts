/**
 * End-to-end closed loop (issue 6, item 4) as the main job runs it: launch/sim.launch.xml on the
 * embedded graph in lock-step with the trained models (models/), simulator frames rendered at
 * 256x256, camera image delivered -> /cmd_vel of the same stamp (src/app/flyFlight.ts), harness
 * ON vs OFF in the same run. OFF runs the same pipeline with delta = 0 (the harness still
 * computes its correction), so the student-only cost is in bench/nodes.bench.ts (harness node
 * removed); here the ratio is what the A/B switch costs in the real launch. Short flights
 * alternate between the arms so both see the same machine load. Peak RSS: VmHWM of
 * /proc/self/status (Linux), else process.resourceUsage().maxRSS.
 * Targets (issue 6): p50 < 25 ms with the harness on, overhead < 30 %, RSS < 600 MB.
 */
import { CellScoreAccumulator } from "../src/app/CellScoreAccumulator";
import { flyFlight } from "../src/app/flyFlight";
import { loadModels } from "../src/app/loadModels";
import { peakRssMb } from "../src/app/peakRss";
import { nearestRank } from "../src/app/summarize";
import { loadLaunchFile, resolveLaunchPath } from "../src/ros/launch/loadLaunchFile";
import { findPackageRoot } from "../src/ros/launch/packageRoot";
import { seedsOfSplit } from "../sim/splits";

const FLIGHT_S = 3;
const ROUNDS = 3;

export async function run(print: (line: string) => void): Promise<void> {
  const models = await loadModels("models");
  const root = findPackageRoot();
  const launchPath = resolveLaunchPath(root, "sim.launch.xml");
  const seeds = seedsOfSplit("test", ROUNDS);
  const lat: Record<"on" | "off", number[]> = { on: [], off: [] };
  print(`e2e: launch/sim.launch.xml lock-step, trained models, backend ${models.backend}, ${ROUNDS} rounds x ${FLIGHT_S} s per arm (test seeds ${seeds.join(", ")}), first 10 frames of each flight dropped (warm-up)`);
  try {
    for (const [i, seed] of seeds.entries()) {
      const arms: Array<"on" | "off"> = i % 2 === 0 ? ["on", "off"] : ["off", "on"];
      for (const arm of arms) {
        const plan = loadLaunchFile(launchPath, { packageRoot: root, arguments: { seed: String(seed), harness: arm === "on" ? "true" : "false" } });
        const { record } = await flyFlight({ arm, seed, plan, registry: models.registry, duration_s: FLIGHT_S, policyScores: new CellScoreAccumulator(), studentScores: new CellScoreAccumulator(), keepSamples: 0 });
        lat[arm].push(...record.latencyMs.slice(10));
      }
    }
  } finally {
    models.dispose();
  }
  const q = (arm: "on" | "off", p: number): number => nearestRank(Float64Array.from(lat[arm]).sort(), p);
  for (const arm of ["on", "off"] as const) print(`  harness ${arm.toUpperCase().padEnd(3)}: frames ${lat[arm].length}, p50 ${q(arm, 0.5).toFixed(2)} ms, p99 ${q(arm, 0.99).toFixed(2)} ms`);
  const ratio = q("on", 0.5) / q("off", 0.5);
  const rss = peakRssMb();
  print(`  overhead ON/OFF (p50 ratio): ${ratio.toFixed(3)}`);
  print(`  peak RSS: ${rss.toFixed(0)} MB`);
  const verdict = (ok: boolean): string => (ok ? "met" : "NOT met");
  print(`  targets: p50 ON < 25 ms ${verdict(q("on", 0.5) < 25)}; overhead < 30 % ${verdict(ratio < 1.3)}; RSS < 600 MB ${verdict(rss < 600)}`);
}
