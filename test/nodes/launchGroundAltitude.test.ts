import { join } from "node:path";

import { factoryOptions } from "../../src/ros/launch/Launcher";
import { loadLaunchFile } from "../../src/ros/launch/loadLaunchFile";
import { loadScenarioFile } from "../../sim/io/loadScenarioFile";

const ROOT = join(__dirname, "..", "..");
const STATE_NODES = ["perception", "harness"];

/** The ground-altitude and state-period parameters each launch gives the state-building nodes. */
function stateParams(file: string): Array<Record<string, unknown>> {
  const plan = loadLaunchFile(join(ROOT, file), { packageRoot: ROOT, arguments: {} });
  const nodes = plan.nodes.filter((d) => STATE_NODES.includes(d.executable));
  expect(nodes.map((d) => d.executable).sort()).toEqual([...STATE_NODES].sort());
  return nodes.map((d) => factoryOptions(d).parameterOverrides);
}

describe("launch files: the state vector's ground altitude and state period", () => {
  it("sim.launch.xml: ground = the scenarios' GPS origin altitude, not the first fix; the sim node untouched", () => {
    for (const p of stateParams("launch/sim.launch.xml")) {
      expect(p.use_first_fix_as_home).toBe(false);
      expect(p.home_altitude_m).toBe(loadScenarioFile("default").gps.originAlt_m);
      expect(p.state_period_s).toBe(0);
    }
    const plan = loadLaunchFile(join(ROOT, "launch/sim.launch.xml"), { packageRoot: ROOT, arguments: {} });
    const sim = plan.nodes.find((d) => d.executable === "sim");
    expect(factoryOptions(sim!).parameterOverrides.home_altitude_m).toBeUndefined();
  });

  it("drone.launch.xml: the node defaults (ground = the first fix, at take-off)", () => {
    for (const p of stateParams("launch/drone.launch.xml")) {
      expect(p.use_first_fix_as_home).toBeUndefined();
      expect(p.home_altitude_m).toBeUndefined();
    }
  });
});
