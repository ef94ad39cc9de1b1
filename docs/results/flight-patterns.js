// Thirty-sixth session: how the flights of an `eval --harness --json` output end, per row and condition, from each
// flight's decision trace (action, goal_m = horizontal distance to the goal): strikes inside / outside a radius of the
// goal and their last manoeuvre; timeouts by where they end and what they flew in their last 20 s (hover share); and,
// for every outcome, the vertical reversals (a climb after a descend or the reverse within 1 s) per minute of flight.
//   node docs/results/flight-patterns.js EVAL.json [radius_m] [--detail]   (default 6: the nodes' arrival radius)
// --detail (thirty-eighth session) adds to each timeout its closest approach to the goal over the whole flight and the
// shares of its last 20 s's decisions by manoeuvre (c cruise, s slow, h hover, u climb, d descend, y yaw either way).
const fs = require("fs");
const ACT = "cshudlr"; // ACTIONS order: cruise slow hover climb descend yaw_left yaw_right
const detail = process.argv.includes("--detail");
const [file, radiusArg] = process.argv.slice(2).filter((a) => a !== "--detail");
if (!file) throw new Error("usage: node docs/results/flight-patterns.js EVAL.json [radius_m] [--detail]");
const radius = radiusArg === undefined ? 6 : Number(radiusArg);
if (!(radius > 0)) throw new Error(`radius_m=${radiusArg}, expected a positive number`);
const json = JSON.parse(fs.readFileSync(file, "utf8"));
if (!Array.isArray(json.conditions)) throw new Error(`${file}: no conditions; expected the output of eval --harness --json`);

/** Vertical reversals of a trace: a climb after a descend (or the reverse) within 4 decisions (1 s at 4 Hz). */
function reversals(trace) {
  let n = 0, last = -1, lastStep = -Infinity;
  for (const s of trace) {
    const a = ACT[s.action];
    if (a !== "u" && a !== "d") continue;
    if (last !== -1 && a !== last && s.step - lastStep <= 4) n++;
    last = a; lastStep = s.step;
  }
  return n;
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "-");

for (const cond of json.conditions) {
  for (const row of cond.rows) {
    const flights = row.flights.filter((f) => Array.isArray(f.trace) && f.trace.length > 0);
    if (flights.length !== row.flights.length) throw new Error(`${cond.condition} ${row.name}: ${row.flights.length - flights.length} flights without a trace`);
    const by = { goal: [], collision: [], timeout: [] };
    for (const f of flights) (by[f.outcome.type] ??= []).push(f);
    const perMin = (f) => (60 * reversals(f.trace)) / Math.max(1e-9, f.trace[f.trace.length - 1].time_s);
    console.log(`${cond.condition} ${row.name}: ${flights.length} flights; ${Object.entries(by).map(([k, v]) => `${k} ${v.length}`).join(", ")}`);
    console.log(`  vertical reversals per minute, median: ${Object.entries(by).map(([k, v]) => `${k} ${f1(median(v.map(perMin)))}`).join(", ")}`);
    const strikes = by.collision.map((f) => {
      const last = f.trace[f.trace.length - 1];
      const tail = f.trace.slice(-12).map((s) => ACT[s.action]).join("");
      return { seed: f.outcome.seed, near: last.goal_m < radius, goal: last.goal_m, what: f.outcome.obstacle ?? "?", tail };
    });
    const near = strikes.filter((s) => s.near);
    console.log(`  collisions: ${strikes.length}, within ${radius} m of the goal ${near.length}${near.length ? ` (${near.map((s) => `${s.seed} ${s.what} ${f1(s.goal)} m ${s.tail}`).join("; ")})` : ""}`);
    for (const s of strikes.filter((x) => !x.near)) console.log(`    ${s.seed} ${s.what} at ${f1(s.goal)} m: last 3 s ${s.tail}`);
    const timeouts = by.timeout.map((f) => {
      const end = f.trace[f.trace.length - 1];
      const tail = f.trace.filter((s) => s.time_s > end.time_s - 20);
      const hover = tail.filter((s) => ACT[s.action] === "h").length / tail.length;
      const moved = f.trace.find((s) => s.time_s >= end.time_s - 20);
      const closest = f.trace.reduce((b, s) => (s.goal_m < b.goal_m ? s : b));
      const share = (acts) => `${(100 * tail.filter((s) => acts.includes(ACT[s.action])).length / tail.length).toFixed(0)}`;
      const mix = `c ${share("c")} s ${share("s")} h ${share("h")} u ${share("u")} d ${share("d")} y ${share("lr")} %`;
      const more = `; closest ${f1(closest.goal_m)} m at ${f1(closest.time_s)} s; last 20 s ${mix}`;
      return { seed: f.outcome.seed, goal: end.goal_m, hover, closed: (moved?.goal_m ?? end.goal_m) - end.goal_m, more: detail ? more : "" };
    });
    const near2 = timeouts.filter((t) => t.goal < radius).length;
    const stuck = timeouts.filter((t) => t.hover >= 0.8).length;
    console.log(`  timeouts: ${timeouts.length}; ending within ${radius} m of the goal ${near2}; hovering >= 80 % of their last 20 s ${stuck}; came < 1 m closer over their last 20 s ${timeouts.filter((t) => t.closed < 1).length}`);
    for (const t of timeouts) console.log(`    ${t.seed}: ends ${f1(t.goal)} m from the goal, last 20 s hover ${(100 * t.hover).toFixed(0)} %, ${f1(t.closed)} m closer${t.more}`);
  }
}
