/**
 * `drone-harness gazebo export --scenario <yaml|name> --seed N --out <dir> [--perturbed]`: writes
 * the seed's world as an SDF 1.9 world (world.sdf) and a ros_gz_bridge config (bridge.yaml) that
 * maps the Gazebo topics to the ROS topic contract. See sim/gazebo/.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { UsageError, type CliCommand } from "../CliCommand";
import { loadScenarioFile } from "../../../sim/io/loadScenarioFile";
import { buildWorld } from "../../../sim/buildWorld";
import { exportGazebo } from "../../../sim/gazebo/exportGazebo";

export const command: CliCommand = {
  usage: "drone-harness gazebo export --scenario <yaml|name> --seed N --out <dir> [--perturbed]",
  run: async (args, io) => {
    const [sub, ...rest] = args;
    if (sub !== "export") throw new UsageError(`unknown subcommand ${sub ?? "(none)"}; expected "export"`);
    let scenarioName = "default";
    let seed = 0;
    let out: string | undefined;
    let perturbed = false;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i]!;
      const value = (): string => {
        const v = rest[++i];
        if (v === undefined) throw new UsageError(`${a} needs a value`);
        return v;
      };
      switch (a) {
        case "--scenario":
          scenarioName = value();
          break;
        case "--seed": {
          const v = value();
          seed = Number(v);
          if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new UsageError(`--seed=${v}, expected an integer in [0, 4294967295]`);
          break;
        }
        case "--out":
          out = value();
          break;
        case "--perturbed":
          perturbed = true;
          break;
        default:
          throw new UsageError(`unknown option ${a}`);
      }
    }
    if (out === undefined) throw new UsageError("--out <dir> is required");
    const scenario = loadScenarioFile(scenarioName);
    // The ground texture is not exported (Gazebo gets a plain ground plane): build a small one.
    scenario.ground.textureSize = 64;
    const world = buildWorld(scenario, seed, { perturbed });
    const files = exportGazebo(world);
    mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(out, name), text);
      io.out(`gazebo: wrote ${path.join(out, name)} (${text.length} bytes)\n`);
    }
    io.out(
      `gazebo: run with: ros2 launch drone_harness gazebo.launch.xml world:=${path.join(out, "world.sdf")} config_file:=${path.join(out, "bridge.yaml")}` +
        ` (gz sim, the bridge, the nodes and odom_to_gps_vel for gps/vel)\n`,
    );
    return 0;
  },
};
