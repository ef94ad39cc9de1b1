/** Where a command writes; tests pass buffers, the binary passes process streams. */
export type CliIO = {
  out: (text: string) => void;
  err: (text: string) => void;
};

/** A subcommand: parses its own arguments, returns the process exit code. */
export type CliCommand = {
  usage: string;
  run: (args: string[], io: CliIO) => Promise<number>;
};

/** Thrown for bad command-line input; the dispatcher prints the message and the usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
