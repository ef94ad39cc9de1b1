/**
 * The controller's vertical commitment (vertical_commit_*, as config/controller.yaml sets it) in a
 * whole flight through the nodes of launch/sim.launch.xml, lock-step by the main job's own loop: the
 * uncorrected frames it reads (harness/student_output, from the perception node) pair with every
 * policy message by camera stamp, the evidence opens at the wire, and the commitment reads sides.
 * Scenario and seed as test/app/wireCrossing.test.ts (test seed 228: a power line across the path
 * 29 m ahead; the planner climbs for it and passes it at 15.9-17.4 s), the camera at 15 Hz.
 */
import * as path from "node:path";
import { CellScoreAccumulator } from "../../src/app/CellScoreAccumulator";
import { flyFlight } from "../../src/app/flyFlight";
import { loadModels } from "../../src/app/loadModels";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { loadLaunchFile, resolveLaunchPath } from "../../src/ros/launch/loadLaunchFile";
import { findPackageRoot } from "../../src/ros/launch/packageRoot";

// One lock-step flight of 18 s through every node: about 40 s alone on the 2-core machine.
jest.setTimeout(600_000);

const SCENARIO = path.join(__dirname, "..", "fixtures", "scenarios", "default_camera15.yaml");
const SEED = 228;

type Diag = { status: Array<{ name: string; values: Array<{ key: string; value: string }> }> };

it("flies the vertical commitment through the nodes: every policy message finds its uncorrected frame, and sides are read at the wire", async () => {
  const root = findPackageRoot();
  const models = await loadModels(path.join(root, "models"));
  const plan = loadLaunchFile(resolveLaunchPath(root, "sim.launch.xml"), { packageRoot: root, arguments: { scenario: SCENARIO, seed: String(SEED), harness: "true" } });
  const controller = plan.nodes.find((n) => n.executable === "controller");
  if (controller === undefined) throw new Error("launch/sim.launch.xml starts no controller");
  // The commitment as shipped (config/controller.yaml, thirty-fifth session), not set here.
  expect(controller.parameters.vertical_commit_level).toEqual({ type: "double", value: 0.3 });
  let last: Map<string, string> | undefined;
  const { record } = await flyFlight({
    arm: "on", seed: SEED, plan, registry: models.registry, duration_s: 18,
    policyScores: new CellScoreAccumulator(), studentScores: new CellScoreAccumulator(), keepSamples: 0,
    onStarted: (graph) => {
      graph.createNode("commit_diagnostics").createSubscription<Diag>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", { qos: { ...QOS_DEFAULT, depth: 50 } }, (m) => {
        for (const s of m.status) if (s.name === "controller: controller") last = new Map(s.values.map((v) => [v.key, v.value]));
      });
      return Promise.resolve(() => Promise.resolve());
    },
  });
  expect(record.callbackErrors).toBe(0);
  expect(last?.get("vertical_commit")).toBe("level 0.3, 12 wire cells, side each, stall bound none");
  expect(last?.get("vertical_commit_unmatched_frames")).toBe("0");
  const sides = /^(\d+) \(by the wire cells (\d+)\), turned (\d+), left after a stall (\d+)$/.exec(last?.get("vertical_commit_sides") ?? "");
  expect(sides).not.toBeNull();
  // Sides read at the wire's climbs, each from the wire cells (none from the planner's own choice).
  expect(Number(sides![1])).toBeGreaterThan(0);
  expect(Number(sides![2])).toBe(Number(sides![1]));
});
