import { GraphClient, NoLaunchFoundError, describeLaunch, type ConnectOptions } from "./GraphClient";

/** Shared by the introspection commands: where to connect and when to stop. */
export type IntrospectionContext = {
  connect?: ConnectOptions;
  /** Resolves when a streaming command (echo, hz) should stop; default SIGINT/SIGTERM. */
  until?: () => Promise<void>;
  /** Interval between `topic hz` reports in ms (default 1000, as ros2 topic hz). */
  hzPeriodMs?: number;
};

/** Removes `--socket PATH` and `--launch NAME` from args, returning them. */
export function takeSocketOption(args: string[]): { rest: string[]; socketPath?: string; launch?: string } {
  const rest: string[] = [];
  const taken: { socketPath?: string; launch?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--socket" || a === "--launch") {
      const value = args[i + 1];
      if (value === undefined) throw new RangeError(`${a} needs a ${a === "--socket" ? "path" : "launch file name"}`);
      taken[a === "--socket" ? "socketPath" : "launch"] = value;
      i++;
    } else rest.push(a);
  }
  return { rest, ...taken };
}

/**
 * Connects as the context says (an explicit --socket wins); a missing launch is reported on
 * `err` with the directory searched, and undefined is returned.
 */
export async function connectOrReport(ctx: IntrospectionContext, socketPath: string | undefined, err: (text: string) => void, launch?: string): Promise<GraphClient | undefined> {
  try {
    const options: ConnectOptions = socketPath === undefined ? { ...ctx.connect } : { ...ctx.connect, socketPath };
    if (launch !== undefined) options.launch = launch;
    const client = await GraphClient.connect(options);
    // Several launches may run for one user: say which one answers (found by ROS_DOMAIN_ID and --launch).
    if (client.launchInfo !== undefined) err(`attached to launch ${describeLaunch(client.launchInfo)}\n`);
    return client;
  } catch (e) {
    if (e instanceof NoLaunchFoundError) {
      err(`${e.message}\n`);
      return undefined;
    }
    err(`cannot connect to ${socketPath ?? "the launch"}: ${e instanceof Error ? e.message : String(e)}\n`);
    return undefined;
  }
}

/** "chatter" -> "/chatter" (the CLI resolves relative names against the root namespace). */
export const absoluteName = (name: string): string => (name.startsWith("/") ? name : `/${name}`);
