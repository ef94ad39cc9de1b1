import { safeEval } from "./safeEval";

/** What substitutions can see while a launch file is evaluated. */
export type SubstitutionContext = {
  /** Launch configuration (declared `<arg>` or `<let>`), or undefined when not set. */
  variable(name: string): string | undefined;
  env(name: string): string | undefined;
  /** Share directory of a package; throws ForeignPackageError for packages the launcher cannot see. */
  findPackageShare(pkg: string): string;
  /** Directory and file name of the launch file being evaluated ($(dirname), $(filename)). */
  dirname: string;
  filename: string;
};

/** `$(find-pkg-share pkg)` of a package the embedded launcher does not provide (e.g. ros_gz_sim). */
export class ForeignPackageError extends Error {
  override readonly name = "ForeignPackageError";
  constructor(readonly pkg: string) {
    super(`$(find-pkg-share ${pkg}): package "${pkg}" is not available to the embedded launcher (only drone_harness is; use ros2 launch on a ROS 2 machine)`);
  }
}

type Part = { kind: "text"; text: string } | { kind: "sub"; name: string; args: Part[][] };

/**
 * Parses launch substitutions as the ros2/launch frontend grammar does (launch/frontend/grammar.lark):
 * `$(name arg ...)`, arguments separated by spaces, optionally quoted with ' or ", nesting allowed.
 */
function parse(text: string): Part[] {
  let i = 0;
  const parseParts = (stop: (c: string) => boolean): Part[] => {
    const parts: Part[] = [];
    let buf = "";
    while (i < text.length) {
      const c = text[i] as string;
      if (c === "$" && text[i + 1] === "(") {
        if (buf !== "") parts.push({ kind: "text", text: buf });
        buf = "";
        i += 2;
        parts.push(parseSub());
        continue;
      }
      if (stop(c)) break;
      buf += c;
      i++;
    }
    if (buf !== "") parts.push({ kind: "text", text: buf });
    return parts;
  };
  const parseSub = (): Part => {
    const name = /^[A-Za-z][A-Za-z0-9_-]*/.exec(text.slice(i))?.[0];
    if (name === undefined) throw new RangeError(`substitution "$(${text.slice(i, i + 20)}" has no name`);
    i += name.length;
    const args: Part[][] = [];
    for (;;) {
      while (text[i] === " " || text[i] === "\t" || text[i] === "\n") i++;
      const c = text[i];
      if (c === undefined) throw new RangeError(`substitution "$(${name}" is not closed with ")"`);
      if (c === ")") {
        i++;
        return { kind: "sub", name, args };
      }
      if (c === "'" || c === '"') {
        i++;
        args.push(parseParts((ch) => ch === c));
        if (text[i] !== c) throw new RangeError(`substitution "$(${name}": unterminated ${c}-quoted argument`);
        i++;
      } else {
        args.push(parseParts((ch) => ch === " " || ch === "\t" || ch === "\n" || ch === ")"));
      }
    }
  };
  const parts = parseParts(() => false);
  return parts;
}

function arity(name: string, args: string[], min: number, max: number): void {
  if (args.length < min || args.length > max) {
    throw new RangeError(`$(${name}) takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${args.length}`);
  }
}

/** Expands every `$(...)` in `text`. Throws RangeError (or ForeignPackageError) with the reason. */
export function substitute(text: string, ctx: SubstitutionContext): string {
  if (!text.includes("$(")) return text;
  const evalParts = (parts: Part[]): string => parts.map((p) => (p.kind === "text" ? p.text : evalSub(p.name, p.args.map(evalParts)))).join("");
  const evalSub = (name: string, args: string[]): string => {
    switch (name) {
      case "var": {
        arity(name, args, 1, 1);
        const v = ctx.variable(args[0] as string);
        if (v === undefined) throw new RangeError(`$(var ${args[0]}): launch configuration "${args[0]}" is not set (declare it with <arg> or <let>)`);
        return v;
      }
      case "env": {
        arity(name, args, 1, 2);
        const v = ctx.env(args[0] as string) ?? args[1];
        if (v === undefined) throw new RangeError(`$(env ${args[0]}): environment variable "${args[0]}" is not set and no default is given`);
        return v;
      }
      case "optenv":
        arity(name, args, 1, 2);
        return ctx.env(args[0] as string) ?? args[1] ?? "";
      case "find-pkg-share":
        arity(name, args, 1, 1);
        return ctx.findPackageShare(args[0] as string);
      case "eval":
        arity(name, args, 1, 1);
        return safeEval(args[0] as string);
      case "dirname":
        arity(name, args, 0, 0);
        return ctx.dirname;
      case "filename":
        arity(name, args, 0, 0);
        return ctx.filename;
      default:
        throw new RangeError(`$(${name}) is not supported by the embedded launcher (supported: var, env, optenv, find-pkg-share, eval, dirname, filename)`);
    }
  };
  return evalParts(parse(text));
}
