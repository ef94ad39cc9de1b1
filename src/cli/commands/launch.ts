import { NODE_REGISTRY } from "../../../nodes/index";
import { LAUNCH_USAGE, runLaunch } from "../runLaunch";
import type { CliCommand } from "../CliCommand";

/** `drone-harness launch launch/<file>.launch.xml [name:=value ...]`: see src/ros/launch/runLaunch.ts. */
export const command: CliCommand = {
  usage: LAUNCH_USAGE,
  run: (args, io) => runLaunch(args, io, { registry: NODE_REGISTRY }),
};
