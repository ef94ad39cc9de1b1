import { connectOrReport, takeSocketOption, type IntrospectionContext } from "../../ros/ipc/cliSupport";
import { formatParameter } from "../../ros/ipc/formatParameter";
import { printedHelp } from "../args";
import { UsageError, type CliCommand, type CliIO } from "../CliCommand";

const USAGE = "drone-harness param get <node> <name> | set <node> <name> <value> | list [<node>]  [--socket PATH] [--launch NAME]";

/** `drone-harness param ...` against a running launch; output shaped like `ros2 param`. */
export async function runParam(argv: string[], io: CliIO, ctx: IntrospectionContext = {}): Promise<number> {
  // `topic --help` (or `topic list -h`): the usage on stdout, exit 0, as ros2 does.
  if (printedHelp(argv, USAGE, io.out)) return 0;
  const { rest, socketPath, launch } = takeSocketOption(argv);
  const [verb, node, name, value, ...extra] = rest;
  const arity = { get: [3], set: [4], list: [1, 2] } as const;
  if (verb !== "get" && verb !== "set" && verb !== "list") throw new UsageError(verb === undefined ? "missing the verb (get, set, list)" : `unknown verb "${verb}"`);
  const given = [verb, node, name, value].filter((x) => x !== undefined).length;
  if (!(arity[verb] as readonly number[]).includes(given) || extra.length > 0) {
    throw new UsageError(`param ${verb} takes ${arity[verb].map((n) => n - 1).join(" or ")} argument(s)`);
  }
  const client = await connectOrReport(ctx, socketPath, io.err, launch);
  if (client === undefined) return 1;
  try {
    switch (verb) {
      case "list":
        if (node !== undefined) {
          for (const p of await client.listParams(node)) io.out(`  ${p}\n`);
          return 0;
        }
        // Every node's parameters under its name, as `ros2 param list` without a node.
        for (const n of await client.listNodes()) {
          let params: string[];
          try {
            params = await client.listParams(n);
          } catch (err) {
            io.err(`${n}: ${err instanceof Error ? err.message : String(err)}\n`);
            continue;
          }
          io.out(`${n}:\n`);
          for (const p of params) io.out(`  ${p}\n`);
        }
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
