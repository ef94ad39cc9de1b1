/**
 * The relative links of the repository's Markdown (README.md and docs/*.md) and whether each
 * resolves: the file exists, and a `#fragment` into a Markdown file names one of its headings.
 * Heading anchors follow GitHub's rule as github-slugger implements it (lower case; characters that
 * are not letters, digits, spaces, hyphens or underscores dropped; spaces to hyphens; the n-th
 * repeat of a slug gets "-n"). Code fences are skipped. No network: http(s) and mailto links are
 * not followed.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** GitHub's anchor of a heading's text (inline code marks and link targets removed first). */
export function headingSlug(text: string): string {
  const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
  return plain.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors of a Markdown text's headings, repeats numbered as GitHub does. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of linesOutsideFences(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = headingSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The targets of the inline links `[text](target)` of a Markdown text, outside code fences. */
export function linkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const line of linesOutsideFences(markdown)) for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]!);
  return out;
}

/** The lines of a Markdown text that are not inside a ``` code fence (the fence lines themselves excluded). */
function* linesOutsideFences(markdown: string): Generator<string> {
  let inFence = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) inFence = !inFence;
    else if (!inFence) yield line;
  }
}

export type BrokenLink = { file: string; target: string; problem: "no such file" | "no such heading" };

/** Every relative link of `files` (paths under `root`) that does not resolve. */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string): Set<string> => {
    let a = anchors.get(file);
    if (a === undefined) anchors.set(file, (a = headingAnchors(fs.readFileSync(path.join(root, file), "utf8"))));
    return a;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const target of linkTargets(fs.readFileSync(path.join(root, file), "utf8"))) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const hash = target.indexOf("#");
      const p = hash === -1 ? target : target.slice(0, hash);
      const fragment = hash === -1 ? "" : decodeURIComponent(target.slice(hash + 1));
      const resolved = p === "" ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(p)));
      if (!fs.existsSync(path.join(root, resolved))) broken.push({ file, target, problem: "no such file" });
      else if (fragment !== "" && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment)) broken.push({ file, target, problem: "no such heading" });
    }
  }
  return broken;
}
