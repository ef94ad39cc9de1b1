/**
 * The subcommands of `drone-harness`, loaded lazily so that `drone-harness bag info` does not
 * pay for TensorFlow.js or OpenCV start-up. One file per subcommand under this folder.
 */
import type { CliCommand } from "../CliCommand";

export const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
};
