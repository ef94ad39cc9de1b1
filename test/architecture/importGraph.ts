/**
 * The import graph of the production code (src/, nodes/, sim/), read with the TypeScript
 * compiler's own pre-processor (static imports, `export ... from`, `import type`, `import()`
 * and `require()`), for the layer rule and the no-cycles check (docs/architecture.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

export const REPO_ROOT = path.resolve(__dirname, "..", "..");
export const PRODUCTION_DIRS = ["src", "nodes", "sim"] as const;

/** One import: the importing file and the specifier, and the repo file it resolves to (relative specifiers only). */
export type ImportEdge = { from: string; specifier: string; to?: string };

function listTsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTsFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** Repo-relative POSIX path of the file `specifier` names from `fromFile`, or undefined for a package. */
export function resolveSpecifier(root: string, fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(root, path.dirname(fromFile), specifier).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts"), base]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(root, candidate).split(path.sep).join("/");
  }
  throw new Error(`${fromFile}: cannot resolve import "${specifier}"`);
}

/** Every import of one file's text. */
export function importsOf(root: string, file: string, text: string): ImportEdge[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map(({ fileName }) => ({ from: file, specifier: fileName, to: resolveSpecifier(root, file, fileName) }));
}

/** Repo-relative POSIX paths of every production .ts file (tests excluded). */
export function listProductionFiles(root: string = REPO_ROOT): string[] {
  return PRODUCTION_DIRS.flatMap((dir) => listTsFiles(path.join(root, dir))).map((full) => path.relative(root, full).split(path.sep).join("/"));
}

/** The import edges of every production file under `root`. */
export function readImportGraph(root: string = REPO_ROOT): ImportEdge[] {
  return listProductionFiles(root).flatMap((file) => importsOf(root, file, fs.readFileSync(path.join(root, file), "utf8")));
}

/** The import cycles (strongly connected components of more than one file, or a file importing itself). */
export function findCycles(edges: readonly { from: string; to?: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.to === undefined) continue;
    const list = next.get(e.from) ?? [];
    list.push(e.to);
    next.set(e.from, list);
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const nodes = new Set<string>([...next.keys(), ...[...next.values()].flat()]);
  for (const start of [...nodes].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; i: number };
      const targets = next.get(frame.node) ?? [];
      if (frame.i < targets.length) {
        const t = targets[frame.i++] as string;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, i: 0 });
        } else if (onStack.has(t)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(t) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        const selfLoop = (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}
