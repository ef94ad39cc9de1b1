/**
 * The layer rule and the no-cycles rule of docs/architecture.md, checked on the import graph of
 * src/, nodes/ and sim/.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findCycles, listProductionFiles, readImportGraph, REPO_ROOT, type ImportEdge } from "./importGraph";
import { layerBreaks } from "./layerRule";

const edges = readImportGraph();

describe("layers (docs/architecture.md)", () => {
  it("every import of src/, nodes/ and sim/ follows the layer rule", () => {
    expect(layerBreaks(edges)).toEqual([]);
  });

  it("has no import cycles (type-only imports count)", () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it("keeps test helpers (expect* functions, jest, fast-check) out of production code", () => {
    const helpers = listProductionFiles().filter((f) => {
      const text = fs.readFileSync(path.join(REPO_ROOT, f), "utf8");
      return /export (async )?function\*? ?expect[A-Z]/.test(text) || /from "(@jest\/globals|fast-check)"/.test(text);
    });
    expect(helpers).toEqual([]);
  });

  it("reports each layer break that issue 17 found", () => {
    const found: ImportEdge[] = [
      { from: "sim/faults/faultySimNode.ts", specifier: "../../nodes/sim", to: "nodes/sim.ts" },
      { from: "src/harness/data/simEnvironment.ts", specifier: "../../../sim", to: "sim/index.ts" },
      { from: "src/control/Controller.ts", specifier: "../harness/actions", to: "src/harness/actions.ts" },
      { from: "src/control/px4.ts", specifier: "../harness/actions", to: "src/harness/actions.ts" },
      { from: "src/ros/launch/runLaunch.ts", specifier: "../../cli/CliCommand", to: "src/cli/CliCommand.ts" },
      { from: "src/control/visionTypes.ts", specifier: "../ros/graph/types", to: "src/ros/graph/types.ts" },
      { from: "nodes/controller.ts", specifier: "../sim/Scenario", to: "sim/Scenario.ts" },
      { from: "src/harness/models/Student.ts", specifier: "node:fs", to: undefined },
      { from: "src/util/Rng.ts", specifier: "../control/actions", to: "src/control/actions.ts" },
    ];
    for (const e of found) expect(layerBreaks([e])).toHaveLength(1);
  });

  it("reports a loop such as BagWriter <-> Db3FileWriter", () => {
    const loop = [
      { from: "src/bag/BagWriter.ts", to: "src/bag/Db3FileWriter.ts" },
      { from: "src/bag/Db3FileWriter.ts", to: "src/bag/BagWriter.ts" },
      { from: "src/bag/index.ts", to: "src/bag/BagWriter.ts" },
    ];
    expect(findCycles(loop)).toEqual([["src/bag/BagWriter.ts", "src/bag/Db3FileWriter.ts"]]);
  });
});
