import { COMMANDS } from "./commands/index";
import { printedHelp } from "./args";
import { UsageError, type CliIO } from "./CliCommand";

const stdio: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

function help(io: CliIO): void {
  io.out("usage: drone-harness <command> [options]\n\ncommands:\n");
  for (const [name, cmd] of Object.entries(COMMANDS)) io.out(`  ${name.padEnd(10)} ${cmd.summary}\n`);
}

/** Entry point of the `drone-harness` binary; returns the exit code. */
export async function main(argv: string[], io: CliIO = stdio): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    help(io);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS[name];
  if (entry === undefined) {
    io.err(`drone-harness: unknown command "${name}"\n`);
    help(io);
    return 2;
  }
  const cmd = await entry.load();
  // `drone-harness <command> --help` (or -h) anywhere in its arguments: the usage on stdout, exit 0,
  // before the command parses anything or starts work (for every command, so none repeats it).
  if (printedHelp(rest, cmd.usage, io.out)) return 0;
  try {
    return await cmd.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`drone-harness ${name}: ${err.message}\nusage: ${cmd.usage}\n`);
      return 2;
    }
    throw err;
  }
}
