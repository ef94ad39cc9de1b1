import { connectOrReport, takeSocketOption, type IntrospectionContext } from "../../ros/ipc/cliSupport";
import { printedHelp } from "../args";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";

const USAGE = "drone-harness node list [--socket PATH] [--launch NAME]";

/** `drone-harness node list`: the running launch's nodes, one fully qualified name a line (ros2 node list). */
export async function runNode(argv: string[], io: CliIO, ctx: IntrospectionContext = {}): Promise<number> {
  // `topic --help` (or `topic list -h`): the usage on stdout, exit 0, as ros2 does.
  if (printedHelp(argv, USAGE, io.out)) return 0;
  const { rest, socketPath, launch } = takeSocketOption(argv);
  const [verb, ...extra] = rest;
  if (verb !== "list") throw new UsageError(verb === undefined ? "missing the verb (list)" : `unknown verb "${verb}"`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0] ?? ""}"`);
  const client = await connectOrReport(ctx, socketPath, io.err, launch);
  if (client === undefined) return 1;
  try {
    for (const n of await client.listNodes()) io.out(`${n}\n`);
    return 0;
  } finally {
    client.close();
  }
}

export const command: CliCommand = { usage: USAGE, run: (args, io) => runNode(args, io) };
