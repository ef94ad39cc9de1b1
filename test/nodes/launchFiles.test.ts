import { join } from "node:path";

import { createNodeRegistry } from "../../nodes";
import { EmbeddedGraph } from "../../src/ros/graph";
import { factoryOptions } from "../../src/ros/launch/Launcher";
import { loadLaunchFile } from "../../src/ros/launch/loadLaunchFile";
import { activateIfLifecycle, type LaunchedNode } from "../../src/ros/launch/NodeFactory";
import { FakeCorrector, FakeDetector } from "./fixtures";
import { WireMapper } from "../../nodes/common/models/WireMapper";

const ROOT = join(__dirname, "..", "..");
const MINE = ["perception", "harness", "controller", "safety"];

/**
 * The launch files (launch/, config/*.yaml) against the nodes' parameter declarations: every
 * processing node of each launch configures and activates with the parameters the launch gives
 * it (a wrong type or out-of-range value fails configure).
 */
describe("launch files start the processing nodes", () => {
  for (const [file, args] of [
    ["launch/nodes.launch.xml", {}],
    ["launch/nodes.launch.xml", { output: "px4", harness: "false" }],
    ["launch/drone.launch.xml", {}],
  ] as Array<[string, Record<string, string>]>) {
    it(`${file} ${JSON.stringify(args)}`, async () => {
      const plan = loadLaunchFile(join(ROOT, file), { packageRoot: ROOT, arguments: args });
      const registry = createNodeRegistry({ detector: () => new FakeDetector(), corrector: () => new FakeCorrector() });
      const graph = new EmbeddedGraph({ stderrLevel: "silent" });
      const started: LaunchedNode[] = [];
      const mine = plan.nodes.filter((d) => MINE.includes(d.executable));
      expect(mine.map((d) => d.executable).sort()).toEqual([...MINE].sort());
      for (const d of mine) {
        const l = await registry[d.executable]!(graph, factoryOptions(d));
        await activateIfLifecycle(l);
        started.push(l);
        if (d.executable === "harness") {
          // The launch argument `harness` is the A/B switch.
          expect(l.node.getParameter("correction_enabled").value).toBe(args.harness !== "false");
        }
      }
      for (const l of started) await l.stop();
      await graph.shutdown();
    });
  }
});

describe("launch/photos.launch.xml (real imagery: perception with the wire map)", () => {
  for (const args of [{}, { wire_map_gate: "edge", wire_map_model_dir: "models/photo/adapted", wire_map_thread: "false" }] as Array<Record<string, string>>) {
    it(JSON.stringify(args), async () => {
      const plan = loadLaunchFile(join(ROOT, "launch/photos.launch.xml"), { packageRoot: ROOT, arguments: args });
      expect(plan.nodes.map((d) => d.executable)).toEqual(["perception"]);
      const asked: unknown[] = [];
      const registry = createNodeRegistry({
        detector: () => new FakeDetector(),
        corrector: () => new FakeCorrector(),
        wireMapper: (p) => {
          asked.push(p);
          return new WireMapper({ name: "fake", sizeMultiple: 8, classLogits: () => { throw new Error("not run"); }, dispose: () => undefined }, p.gate);
        },
      });
      const graph = new EmbeddedGraph({ stderrLevel: "silent" });
      const l = await registry.perception!(graph, factoryOptions(plan.nodes[0]!));
      await activateIfLifecycle(l);
      // Any frame size (the sim's 256x256 pin lifted), the photo model and the gate of the arguments.
      expect([l.node.getParameter("expected_width").value, l.node.getParameter("expected_height").value]).toEqual([0, 0]);
      expect(asked).toEqual([{ modelDir: args.wire_map_model_dir ?? "models/photo/student", gate: args.wire_map_gate ?? "coherence", thread: args.wire_map_thread !== "false" }]);
      await l.stop();
      await graph.shutdown();
    });
  }
});
