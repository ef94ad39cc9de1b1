/**
 * Checks a rendered report.html in headless Chromium (Debian's chromium package): the page's own
 * script writes what the browser decoded into <pre id="report-check"> (renderReport.ts); we run
 * `chromium --headless --dump-dom` and read it back. Every <img> must have decoded
 * (naturalWidth > 0) and every expected plot must be present with data points.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";

export const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export type RenderedImage = { alt: string; naturalWidth: number; naturalHeight: number; complete: boolean };
export type RenderedPlot = { name: string; points: number; paths: number; width: number };
export type ReportCheck = { images: RenderedImage[]; plots: RenderedPlot[] };
export type ReportVerdict = { ok: boolean; problems: string[]; check: ReportCheck };

export function findChromium(): string | undefined {
  const env = process.env.CHROMIUM;
  if (env !== undefined && env !== "") return env;
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p));
}

export const CHROMIUM_MISSING = "chromium not found (looked at $CHROMIUM and " + CHROMIUM_CANDIDATES.join(", ") + "): install it with `sudo apt-get install chromium` (CI's .ci/run installs it)";

/** Common flags: no network, no first-run work, a throwaway profile. */
export function chromiumArgs(userDataDir: string): string[] {
  return [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    `--user-data-dir=${userDataDir}`,
  ];
}

function run(bin: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`${bin} failed: ${err.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

/** The JSON the report's script left in the dumped DOM. */
export function parseDumpedCheck(dom: string): ReportCheck {
  const m = /<pre id="report-check"[^>]*data-ready="1"[^>]*>([\s\S]*?)<\/pre>/.exec(dom) ?? /<pre id="report-check"[^>]*>([\s\S]*?)<\/pre>/.exec(dom);
  if (m === null) throw new Error("the dumped DOM has no <pre id=\"report-check\">: not a main-job report");
  const text = m[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  if (text.trim() === "") throw new Error("the report's check script did not run (empty <pre id=\"report-check\">)");
  return JSON.parse(text) as ReportCheck;
}

/** Problems with what the browser rendered; `expectedPlots` are name prefixes that must be present. */
export function judge(check: ReportCheck, expectedPlots: readonly string[]): ReportVerdict {
  const problems: string[] = [];
  if (check.images.length === 0) problems.push("no <img> in the report");
  for (const i of check.images) if (!(i.naturalWidth > 0 && i.naturalHeight > 0)) problems.push(`image "${i.alt}" did not decode (naturalWidth=${i.naturalWidth})`);
  for (const p of expectedPlots) {
    const found = check.plots.filter((x) => x.name.startsWith(p));
    if (found.length === 0) problems.push(`plot ${p}* missing`);
    for (const f of found) {
      if (!(f.points > 0)) problems.push(`plot ${f.name} has no data points`);
      if (!(f.width > 0)) problems.push(`plot ${f.name} has zero rendered width`);
    }
  }
  return { ok: problems.length === 0, problems, check };
}

export const EXPECTED_PLOTS = ["map-seed-", "altitude", "cmd-vx", "cmd-vz", "cmd-yaw", "risk", "delta", "pr-wire", "pr-wireBranch"] as const;

export type CheckReportOptions = { chromium?: string; screenshot?: string; windowSize?: [number, number]; timeoutMs?: number };

/** Renders `reportHtml` in headless Chromium, checks it, and optionally saves a screenshot. */
export async function checkReport(reportHtml: string, o: CheckReportOptions = {}): Promise<ReportVerdict> {
  const bin = o.chromium ?? findChromium();
  if (bin === undefined) throw new Error(CHROMIUM_MISSING);
  const url = pathToFileURL(path.resolve(reportHtml)).href;
  const profile = mkdtempSync(path.join(tmpdir(), "dh-chromium-"));
  const timeout = o.timeoutMs ?? 60_000;
  try {
    const dom = await run(bin, [...chromiumArgs(profile), "--virtual-time-budget=5000", "--dump-dom", url], timeout);
    const verdict = judge(parseDumpedCheck(dom), EXPECTED_PLOTS);
    if (o.screenshot !== undefined) {
      const [w, h] = o.windowSize ?? [1600, 4000];
      await run(bin, [...chromiumArgs(profile), `--window-size=${w},${h}`, `--screenshot=${path.resolve(o.screenshot)}`, url], timeout);
      if (!existsSync(o.screenshot)) verdict.problems.push(`chromium wrote no screenshot at ${o.screenshot}`);
    }
    verdict.ok = verdict.problems.length === 0;
    return verdict;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
