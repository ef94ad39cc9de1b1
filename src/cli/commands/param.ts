import { connectOrReport, takeSocketOption, type IntrospectionContext } from "../../ros/ipc/cliSupport";
import { formatParameter } from "../../ros/ipc/formatParameter";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";

const USAGE = "drone-harness param get <node> <name> | set <node> <name> <value> | list <node>  [--socket PATH]";

/** `drone-harness param ...` against a running launch; output shaped like `ros2 param`. */
export async function runParam(argv: string[], io: CliIO, ctx: IntrospectionContext = {}): Promise<number> {
  const { rest, socketPath } = takeSocketOption(argv);
  const [verb, node, name, value, ...extra] = rest;
  const arity = { get: 3, set: 4, list: 2 } as const;
  if (verb !== "get" && verb !== "set" && verb !== "list") throw new UsageError(verb === undefined ? "missing the verb (get, set, list)" : `unknown verb "${verb}"`);
  const given = [verb, node, name, value].filter((x) => x !== undefined).length;
  if (given !== arity[verb] || extra.length > 0) throw new UsageError(`param ${verb} takes ${arity[verb] - 1} argument(s)`);
  const client = await connectOrReport(ctx, socketPath, io.err);
  if (client === undefined) return 1;
  try {
    switch (verb) {
      case "list":
        for (const p of await client.listParams(node as string)) io.out(`  ${p}\n`);
        return 0;
      case "get":
        io.out(`${formatParameter(await client.getParam(node as string, name as string))}\n`);
        return 0;
      case "set": {
        const r = await client.setParam(node as string, name as string, value as string);
        if (r.successful) {
          io.out("Set parameter successful\n");
          return 0;
        }
        io.err(`Setting parameter failed: ${r.reason}\n`);
        return 1;
      }
    }
  } catch (err) {
    io.err(`${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    client.close();
  }
}

export const command: CliCommand = { usage: USAGE, run: (args, io) => runParam(args, io) };
