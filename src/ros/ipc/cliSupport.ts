import { GraphClient, NoLaunchFoundError, type ConnectOptions } from "./GraphClient";

/** Shared by the introspection commands: where to connect and when to stop. */
export type IntrospectionContext = {
  connect?: ConnectOptions;
  /** Resolves when a streaming command (echo, hz) should stop; default SIGINT/SIGTERM. */
  until?: () => Promise<void>;
  /** Interval between `topic hz` reports in ms (default 1000, as ros2 topic hz). */
  hzPeriodMs?: number;
};

/** Removes `--socket PATH` from args, returning it. */
export function takeSocketOption(args: string[]): { rest: string[]; socketPath?: string } {
  const rest: string[] = [];
  let socketPath: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--socket") {
      socketPath = args[i + 1];
      if (socketPath === undefined) throw new RangeError("--socket needs a path");
      i++;
    } else rest.push(a);
  }
  return socketPath === undefined ? { rest } : { rest, socketPath };
}

/**
 * Connects as the context says (an explicit --socket wins); a missing launch is reported on
 * `err` with the directory searched, and undefined is returned.
 */
export async function connectOrReport(ctx: IntrospectionContext, socketPath: string | undefined, err: (text: string) => void): Promise<GraphClient | undefined> {
  try {
    return await GraphClient.connect(socketPath === undefined ? (ctx.connect ?? {}) : { ...ctx.connect, socketPath });
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
