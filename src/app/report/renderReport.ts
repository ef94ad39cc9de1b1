/**
 * report.html of the main job: one self-contained page (inline SVG and PNG data URIs, inline CSS
 * and script, no external resource). Pure: the job's result in, HTML out.
 *
 * A small inline script writes, on load, a JSON summary of what the browser rendered into
 * <pre id="report-check"> (each <img>'s naturalWidth/Height, each plot's data-points), which
 * scripts/check-report.ts reads back from headless Chromium's --dump-dom.
 */
import { overrides, tableRows } from "../formatTable";
import { DELTA_RUNAWAY } from "../../harness/correction/constants";
import type { MainJobResult } from "../runMainJob";
import { ARMS, type Arm, type FlightRecord, type FrameSample } from "../types";
import { drawBoxes, pngDataUri } from "./framePng";
import { escapeXml, linePlot, type PlotSeries } from "./svg";
import { ARM_COLORS, topDownMap } from "./topDownMap";

const ARM_NAME: Record<Arm, string> = { on: "harness ON", off: "harness OFF" };
const PALETTE = ["#1f6fd1", "#e07b00", "#2a9d3a", "#c2185b", "#7b1fa2", "#00838f", "#6d4c41", "#546e7a"];

/** Names of the ground-truth classes of a collision (sim/World.ts; 0 is the ground). */
const HIT_NAMES = ["ground", "wire", "branch", "pole/trunk"];
export const hitName = (cls: number): string => HIT_NAMES[cls] ?? `class ${cls}`;


function esc(s: string): string {
  return escapeXml(s);
}

/** A frame's perception boxes next to the boxes after the harness. */
function framePair(f: FlightRecord, s: FrameSample): string {
  const raw = pngDataUri(drawBoxes(s.rgb, s.width, s.height, s.raw, s.truth), s.width, s.height);
  const cor = pngDataUri(drawBoxes(s.rgb, s.width, s.height, s.corrected, s.truth), s.width, s.height);
  const t = `t=${s.time_s.toFixed(2)} s`;
  return (
    `<div class="pair"><figure><img alt="${esc(`${f.arm} seed ${f.seed} ${t} raw`)}" src="${raw}" width="${s.width * 1.5}" height="${s.height * 1.5}">` +
    `<figcaption>${t} perception (obstacles_raw, before the harness; the student ran with the texture gain the harness set for this frame): ${s.raw.length} boxes</figcaption></figure>` +
    `<figure><img alt="${esc(`${f.arm} seed ${f.seed} ${t} corrected`)}" src="${cor}" width="${s.width * 1.5}" height="${s.height * 1.5}">` +
    `<figcaption>${t} after the harness (obstacles, ${f.arm === "on" ? "correction applied" : "correction off"}): ${s.corrected.length} boxes</figcaption></figure></div>`
  );
}

function framesSection(flights: readonly FlightRecord[]): string {
  const out: string[] = [];
  for (const arm of ARMS) {
    const plain = (s: FrameSample): boolean => s.beforeCollision !== true && s.decisionChange === undefined;
    const f = flights.find((x) => x.arm === arm && x.samples.some(plain));
    if (f === undefined) continue;
    out.push(`<h3>${ARM_NAME[arm]}, seed ${f.seed}</h3><div class="frames">`);
    for (const s of f.samples) if (plain(s)) out.push(framePair(f, s));
    out.push(`</div>`);
  }
  return out.join("");
}

/**
 * The frames of the ON arm where the correction changed the planner's manoeuvre (the student's
 * cells say one manoeuvre, the corrected cells another; src/app/decisionChange.ts), per flight.
 */
export function decisionChangeFrames(flights: readonly FlightRecord[]): string {
  const out: string[] = [];
  for (const f of flights.filter((x) => x.arm === "on")) {
    const kept = f.samples.filter((s) => s.decisionChange !== undefined);
    out.push(`<h3>seed ${f.seed}: the correction changed the manoeuvre at ${f.decisionsChanged} of ${f.cameraFrames} camera frames${kept.length > 0 ? ` (the first ${kept.length} shown)` : ""}</h3>`);
    if (kept.length === 0) continue;
    out.push(`<div class="frames">`);
    for (const s of kept) out.push(`<p>t=${s.time_s.toFixed(2)} s: student's cells -> <b>${esc(s.decisionChange?.raw ?? "")}</b>, corrected cells -> <b>${esc(s.decisionChange?.corrected ?? "")}</b></p>${framePair(f, s)}`);
    out.push(`</div>`);
  }
  return out.length === 0 ? "<p>No harness-ON flight.</p>" : out.join("");
}

/** The last camera frame before each collision, both box sets. */
export function collisionFrames(flights: readonly FlightRecord[]): string {
  const out: string[] = [];
  for (const f of flights) {
    const s = f.samples.find((x) => x.beforeCollision === true);
    if (s === undefined || f.collision === undefined) continue;
    out.push(`<h3>${ARM_NAME[f.arm]}, seed ${f.seed}: hit ${hitName(f.collision.cls)} at t=${f.collision.time_s.toFixed(2)} s</h3><div class="frames">${framePair(f, s)}</div>`);
  }
  return out.length === 0 ? "<p>No collision.</p>" : out.join("");
}

/** One series per flight of both arms on shared axes: ON solid, OFF dashed, one color per seed. */
function bothArms(flights: readonly FlightRecord[], y: (f: FlightRecord) => number[]): PlotSeries[] {
  const seeds = [...new Set(flights.map((f) => f.seed))];
  return flights.map((f) => ({
    name: `seed ${f.seed} ${f.arm.toUpperCase()}`,
    color: PALETTE[seeds.indexOf(f.seed) % PALETTE.length]!,
    x: f.series.time_s,
    y: y(f),
    ...(f.arm === "off" ? { dashed: true } : {}),
  }));
}

function seriesPlots(flights: readonly FlightRecord[]): string {
  const out: string[] = [];
  const shared = "harness ON solid, OFF dashed";
  out.push(linePlot({ name: "altitude", title: `altitude over time (${shared})`, xLabel: "sim time, s", yLabel: "z above ground, m", series: bothArms(flights, (f) => f.series.z) }));
  out.push(linePlot({ name: "cmd-vx", title: `commanded forward speed, /cmd_vel (${shared})`, xLabel: "sim time, s", yLabel: "vx, m/s", series: bothArms(flights, (f) => f.series.cmdVx) }));
  out.push(linePlot({ name: "cmd-vz", title: `commanded vertical speed, /cmd_vel (${shared})`, xLabel: "sim time, s", yLabel: "vz, m/s", series: bothArms(flights, (f) => f.series.cmdVz) }));
  out.push(linePlot({ name: "cmd-yaw", title: `commanded yaw rate, /cmd_vel (${shared})`, xLabel: "sim time, s", yLabel: "yaw rate, rad/s", series: bothArms(flights, (f) => f.series.cmdYawRate) }));
  out.push(linePlot({ name: "risk", title: `risk r over time (${shared})`, xLabel: "sim time, s", yLabel: "r", series: bothArms(flights, (f) => f.series.risk), yRange: [0, 1] }));
  out.push(
    linePlot({
      name: "delta",
      title: `max|delta| over time (${shared}; OFF: computed, not applied)`,
      xLabel: "sim time, s",
      yLabel: "max|delta|",
      series: bothArms(flights, (f) => f.series.maxAbsDelta),
      hLines: [{ y: DELTA_RUNAWAY, label: `runaway ${DELTA_RUNAWAY}` }],
    }),
  );
  return out.join("");
}

/** Per seed: camera frames both arms answered, how many commands differed (> 1e-6 in any component), and the first differing time. */
export function differingDecisions(flights: readonly FlightRecord[]): Array<{ seed: number; compared: number; differing: number; first_s: number | undefined }> {
  const out: Array<{ seed: number; compared: number; differing: number; first_s: number | undefined }> = [];
  for (const on of flights.filter((f) => f.arm === "on")) {
    const off = flights.find((f) => f.arm === "off" && f.seed === on.seed);
    if (off === undefined) continue;
    const a = on.series, b = off.series;
    const n = Math.min(a.time_s.length, b.time_s.length);
    let compared = 0, differing = 0;
    let first: number | undefined;
    for (let i = 0; i < n; i++) {
      const va = [a.cmdVx[i]!, a.cmdVz[i]!, a.cmdYawRate[i]!], vb = [b.cmdVx[i]!, b.cmdVz[i]!, b.cmdYawRate[i]!];
      if (a.time_s[i] !== b.time_s[i] || ![...va, ...vb].every(Number.isFinite)) continue;
      compared++;
      if (va.some((v, k) => Math.abs(v - vb[k]!) > 1e-6)) {
        differing++;
        first ??= a.time_s[i]!;
      }
    }
    out.push({ seed: on.seed, compared, differing, first_s: first });
  }
  return out;
}

function prPlots(result: MainJobResult): string {
  const out: string[] = [];
  for (const key of ["wire", "wireBranch"] as const) {
    const series: PlotSeries[] = [];
    for (const a of result.arms) {
      const c = a.ap[key];
      series.push({ name: `${ARM_NAME[a.arm]}: policy cells, AP ${c.ap.toFixed(3)}`, color: ARM_COLORS[a.arm], x: c.recall, y: c.precision });
    }
    const on = result.arms.find((a) => a.arm === "on");
    if (on !== undefined) {
      const c = on.apStudent[key];
      series.push({ name: `ON run, student cells, AP ${c.ap.toFixed(3)}`, color: "#555", x: c.recall, y: c.precision, dashed: true });
    }
    const title = key === "wire" ? "precision-recall, wire cells" : "precision-recall, wire+branch cells";
    out.push(linePlot({ name: `pr-${key}`, title, xLabel: "recall", yLabel: "precision (interpolated)", series, xRange: [0, 1], yRange: [0, 1] }));
  }
  return out.join("");
}

/** Seeds whose ON and OFF flights took the same path (within 1 mm at every frame): the correction never changed the chosen action there. */
export function identicalSeeds(flights: readonly FlightRecord[]): number[] {
  const out: number[] = [];
  for (const on of flights.filter((f) => f.arm === "on")) {
    const off = flights.find((f) => f.arm === "off" && f.seed === on.seed);
    if (off === undefined || off.series.x.length !== on.series.x.length) continue;
    let same = true;
    for (let i = 0; i < on.series.x.length && same; i++) {
      same = Math.abs(on.series.x[i]! - off.series.x[i]!) < 1e-3 && Math.abs(on.series.y[i]! - off.series.y[i]!) < 1e-3 && Math.abs(on.series.z[i]! - off.series.z[i]!) < 1e-3;
    }
    if (same) out.push(on.seed);
  }
  return out;
}

/**
 * Runs in the browser when the page has loaded: writes what each image and plot rendered as into
 * <pre id="report-check"> and sets data-ready="1" (read back by checkReport.ts).
 */
const REPORT_CHECK_SCRIPT = `window.addEventListener("load", function () {
  var images = Array.prototype.map.call(document.images, function (i) { return { alt: i.alt, naturalWidth: i.naturalWidth, naturalHeight: i.naturalHeight, complete: i.complete }; });
  var plots = Array.prototype.map.call(document.querySelectorAll("svg.plot"), function (s) { return { name: s.getAttribute("data-plot"), points: Number(s.getAttribute("data-points")), paths: s.querySelectorAll("path").length, width: s.getBoundingClientRect().width }; });
  var el = document.getElementById("report-check");
  el.textContent = JSON.stringify({ images: images, plots: plots });
  el.setAttribute("data-ready", "1");
});`;

/** Per seed, the frames where ON and OFF both answered at the same time and how many of their commands differed. */
function decisionsTable(flights: readonly FlightRecord[]): string {
  return (
    `<table><thead><tr><th>seed</th><th>frames compared (same time, both answered)</th><th>commands that differed ON vs OFF</th><th>first at</th></tr></thead><tbody>` +
    differingDecisions(flights)
      .map((d) => `<tr><td>${d.seed}</td><td>${d.compared}</td><td>${d.differing}</td><td>${d.first_s === undefined ? "never" : `t=${d.first_s.toFixed(2)} s`}</td></tr>`)
      .join("") +
    `</tbody></table>`
  );
}

/** One row per flight: status, distance, clearance, latency quantiles, safety-node hovers, wall time, whether it was bagged. */
export function flightsTableOf(flights: readonly FlightRecord[]): string {
  return (
    `<table><thead><tr><th>seed</th><th>arm</th><th>status</th><th>sim s</th><th>distance m</th><th>frames</th><th>min clearance to a structure</th><th>latency p50 / p99 ms</th><th>frames the safety node hovered</th><th>wall s</th><th>bag</th></tr></thead><tbody>` +
    flights
      .map((f) => {
        const l = [...f.latencyMs].sort((a, b) => a - b);
        const q = (p: number): string => (l.length === 0 ? "n/a" : l[Math.min(l.length - 1, Math.ceil(p * l.length) - 1)]!.toFixed(2));
        return `<tr><td>${f.seed}</td><td style="color:${ARM_COLORS[f.arm]}">${f.arm}</td><td>${f.status}${f.collision !== undefined ? ` (${hitName(f.collision.cls)} at t=${f.collision.time_s.toFixed(1)} s)` : ""}</td><td>${f.simTime_s.toFixed(1)}</td><td>${f.distance_m.toFixed(0)}</td><td>${f.cameraFrames}</td><td>${Number.isFinite(f.minClearance.clearance_m) ? `${f.minClearance.clearance_m.toFixed(2)} m at t=${f.minClearance.time_s.toFixed(1)} s` : "n/a"}</td><td>${q(0.5)} / ${q(0.99)}</td><td>${esc(overrides(f.safetyOverrides))}</td><td>${(f.wallTime_ms / 1000).toFixed(1)}</td><td>${f.recorded ? "yes" : ""}</td></tr>`;
      })
      .join("") +
    `</tbody></table>`
  );
}

export function renderReport(result: MainJobResult, commandLine: string, generatedAt: Date): string {
  const o = result.options;
  const same = identicalSeeds(result.flights);
  const sameNote =
    same.length === 0
      ? ""
      : `<p><b>ON and OFF flew the same path on ${same.length} of ${result.seeds.length} seeds (${same.join(", ")})</b>: on those seeds no command the controller sent differed between the arms (the decisions table below counts them frame by frame).</p>`;
  const decisions = decisionsTable(result.flights);
  const rows = tableRows(result.arms);
  const table =
    `<table><thead><tr><th></th>${result.arms.map((a) => `<th style="color:${ARM_COLORS[a.arm]}">${ARM_NAME[a.arm]}</th>`).join("")}</tr></thead><tbody>` +
    rows.map((r) => `<tr><td>${esc(r.label)}</td>${r.values.map((v) => `<td>${esc(v)}</td>`).join("")}</tr>`).join("") +
    `</tbody></table>`;
  const flightsTable = flightsTableOf(result.flights);
  const maps = result.worlds.map((w) => topDownMap(w, result.flights.filter((f) => f.seed === w.seed))).join("");
  const bags = result.bags.length === 0 ? "<p>No bag recorded (--bag-flights 0).</p>" : `<p>rosbag2 MCAP bags (metadata.yaml + .mcap, zstd chunks) of every topic, the first ${o.bagSeconds} s of sim time of the first seed's flight per arm (--bag-seconds, --bag-flights); log time is sim time.</p><ul>${result.bags.map((b) => `<li><code>${esc(b.directory)}</code>: ${b.messages} messages${b.problems.length > 0 ? `, problems: ${esc(b.problems.join("; "))}` : ""}</li>`).join("")}</ul>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>drone-harness main job report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1800px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}
code,pre{background:#f4f4f4;padding:2px 4px}
.row{display:flex;flex-wrap:wrap;gap:12px}.frames{display:flex;flex-wrap:wrap;gap:18px}.pair{display:flex;gap:4px}
figure{margin:0}figcaption{font-size:12px;color:#444;max-width:384px}img{image-rendering:pixelated;border:1px solid #999}
.legend span{display:inline-block;margin-right:14px}#report-check{display:none}
</style></head><body>
<h1>drone-harness main job</h1>
<p>Command: <code>${esc(commandLine)}</code><br>
Generated ${esc(generatedAt.toISOString())}; scenario <code>${esc(o.scenario)}</code>; test-split seeds ${result.seeds.join(", ")}; at most ${o.duration_s} s of sim time per flight;
launch/sim.launch.xml on the embedded graph in lock-step; backend ${esc(result.backend)}; models from <code>${esc(o.modelDir)}</code>${result.trainingCommand !== undefined ? ` (trained with <code>${esc(result.trainingCommand)}</code>)` : ""}.
Wall time ${result.wallTime_s.toFixed(0)} s, peak RSS ${result.peakRss_mb.toFixed(0)} MB.</p>
<h2>Summary</h2>
${table}
<p>AP: area under the all-points interpolated precision-recall curve over all grid cells of all camera frames of the arm (8x8 px cells; a cell is positive where the simulator's ground-truth mask has a pixel of the class). "Policy cells" are the cell probabilities on harness/policy (after the correction in the ON arm; the student's own with the correction off); "student cells" are harness/student_output, which in the ON arm already includes the harness's texture gain on the student's Sobel input (harness/texture_gain, seed 4.2 texture rule; 1 with the correction off). Latency: wall time from the camera image reaching the graph to /cmd_vel with the same stamp (lock-step, so the simulator waits for it). r and max|delta|: harness/correction per frame (in the OFF arm the correction is computed but not applied).</p>
${sameNote}
<h3>Decisions that differed</h3>
${decisions}
<h3>Flights</h3>
${flightsTable}
<h2>Flights from above</h2>
<p class="legend"><span style="color:${ARM_COLORS.on}">&#9473; harness ON</span><span style="color:${ARM_COLORS.off}">&#9476; harness OFF</span><span style="color:#d00">&#10005; collision</span><span>&#9473; wires (black), branches (green), &#9679; poles/trunks (brown), start (green dot), goal (purple square)</span></p>
<div class="row">${maps}</div>
<h2>Camera frames: raw vs corrected detections</h2>
<p>The frames of each arm's first flight with the most wire/branch pixels in the ground-truth mask. Box colours: wire red, branch green, pole/trunk yellow; thin white boxes: ground-truth wires and branches.</p>
${framesSection(result.flights)}
<h2>Frames where the correction changed the planner's decision</h2>
${decisionChangeFrames(result.flights)}
<h2>The last camera frame before each collision</h2>
${collisionFrames(result.flights)}
<h2>Altitude, commands, risk r and max|delta| over time, both arms on shared axes</h2>
<div class="row">${seriesPlots(result.flights)}</div>
<h2>Precision-recall</h2>
<div class="row">${prPlots(result)}</div>
<h2>Bags</h2>
${bags}
<pre id="report-check" data-ready="0"></pre>
<script>${REPORT_CHECK_SCRIPT}</script>
</body></html>
`;
}
