/** The main job's summary table (plain text, fixed-width columns), from the per-arm figures. */
import type { ArmSummary } from "./summarize";

const f = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");

export type TableRow = { label: string; values: string[] };

/** "12 (harness 9, waiting for first gps/fix 3)": the count, then each cause's share, most frequent first. */
export function overrides(o: ArmSummary["safetyOverrides"]): string {
  const causes = Object.entries(o.byCause).sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  return causes.length === 0 ? String(o.frames) : `${o.frames} (${causes.map(([c, n]) => `${c} ${n}`).join(", ")})`;
}

export function tableRows(arms: readonly ArmSummary[]): TableRow[] {
  const row = (label: string, g: (a: ArmSummary) => string): TableRow => ({ label, values: arms.map(g) });
  return [
    row("flights", (a) => String(a.flights)),
    row("collisions", (a) => `${a.collisions}/${a.flights}`),
    row("goal reached (success)", (a) => `${a.goals}/${a.flights}`),
    row("still flying at end", (a) => `${a.unfinished}/${a.flights}`),
    row("camera frames", (a) => String(a.cameraFrames)),
    row("distance flown, m", (a) => f(a.distance_m, 0)),
    row("AP wire (policy cells)", (a) => f(a.ap.wire.ap, 3)),
    row("AP wire+branch (policy cells)", (a) => f(a.ap.wireBranch.ap, 3)),
    row("AP wire (student cells)", (a) => f(a.apStudent.wire.ap, 3)),
    row("AP wire+branch (student cells)", (a) => f(a.apStudent.wireBranch.ap, 3)),
    row("latency camera->cmd_vel p50, ms", (a) => f(a.latencyMs.p50, 2)),
    row("latency camera->cmd_vel p99, ms", (a) => f(a.latencyMs.p99, 2)),
    row("r mean / p95", (a) => `${f(a.risk.mean, 3)} / ${f(a.risk.p95, 3)}`),
    row("max|delta| mean / p99 / max", (a) => `${f(a.maxAbsDelta.mean, 3)} / ${f(a.maxAbsDelta.p99, 3)} / ${f(a.maxAbsDelta.max, 3)}`),
    row("frames where the correction changed the manoeuvre", (a) => String(a.decisionsChanged)),
    row("frames overridden by the safety node (hover)", (a) => overrides(a.safetyOverrides)),
    row("frames without cmd_vel", (a) => String(a.framesWithoutCommand)),
    row("frames missing truth/policy/correction", (a) => String(a.framesIncomplete)),
    row("callback errors", (a) => String(a.callbackErrors)),
  ];
}

export function formatTable(arms: readonly ArmSummary[]): string {
  const rows = tableRows(arms);
  const header = ["", ...arms.map((a) => (a.arm === "on" ? "harness ON" : "harness OFF"))];
  const all = [header, ...rows.map((r) => [r.label, ...r.values])];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const sep = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(all[0]!), sep, ...all.slice(1).map(line)].join("\n") + "\n";
}
