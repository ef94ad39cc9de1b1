/**
 * Real-time launch/sim.launch.xml (issue 15, item 5): the wall-clock rates of /camera/image_raw
 * and /cmd_vel with the nodes in one process (embedded graph, then DDS) and in one process per
 * node over DDS. Per layout: start `drone-harness launch`, let it settle, then run the CLI's own
 * `topic hz` on each topic for a window and keep its last "average rate" line, as a user would.
 * /diagnostics reports rates in sim time; these are wall-clock rates (the sim node also warns
 * when it falls behind real time). Target (issue 15): the camera's 30 Hz with the nodes spread
 * over processes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { parseAllDocuments } from "yaml";
import { join } from "node:path";
import { findPackageRoot } from "../src/ros/launch/packageRoot";

const ROOT = findPackageRoot();
const CLI = join(ROOT, "bin", "drone-harness.js");
const SETTLE_MS = 12_000;
const CAMERA_WINDOW_MS = 11_000;
const CMD_WINDOW_MS = 9_000;
const DIAG_WINDOW_MS = 4_000;

const LAYOUTS: { name: string; args: string[] }[] = [
  { name: "embedded, one process", args: [] },
  { name: "DDS, one process", args: ["--middleware", "dds", "--one-process"] },
  { name: "DDS, one process per node", args: ["--middleware", "dds"] },
];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `drone-harness topic hz <topic>` for `ms`; the last "average rate: X" it printed, or undefined. */
async function topicHz(topic: string, ms: number): Promise<number | undefined> {
  const child = spawn(process.execPath, [CLI, "topic", "hz", topic], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  child.stdout.on("data", (d: Buffer) => (text += d.toString("utf8")));
  await sleep(ms);
  await stop(child);
  const rates = [...text.matchAll(/average rate: ([\d.]+)/g)].map((m) => Number(m[1]));
  return rates.at(-1);
}

/**
 * One /clock message by `drone-harness topic echo /clock --once`: its sim time (s) and the wall
 * time (ms, performance.now) at which it arrived. /clock is published every sim tick, so the
 * first message after subscribing is the sim's current time; two of them bracket a window.
 */
async function clockSample(): Promise<{ sim_s: number; wall_ms: number } | undefined> {
  const child = spawn(process.execPath, [CLI, "topic", "echo", "/clock", "--once"], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  let wall_ms = NaN;
  child.stdout.on("data", (d: Buffer) => {
    if (Number.isNaN(wall_ms)) wall_ms = performance.now();
    text += d.toString("utf8");
  });
  const done = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await done;
  clearTimeout(timer);
  const sec = /\bsec: (\d+)/.exec(text);
  const nsec = /nanosec: (\d+)/.exec(text);
  if (sec === null || nsec === null || Number.isNaN(wall_ms)) return undefined;
  return { sim_s: Number(sec[1]) + Number(nsec[1]) / 1e9, wall_ms };
}

/** The last value of every diagnostic key per status name in `drone-harness topic echo /diagnostics` output (YAML documents). */
export function diagnosticValues(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) continue; // e.g. the message cut off when the echo was stopped
    const msg = doc.toJS() as { status?: { name: string; values?: { key: string; value: unknown }[] }[] } | null;
    for (const st of msg?.status ?? []) {
      const values = out.get(st.name) ?? new Map<string, string>();
      out.set(st.name, values);
      for (const v of st.values ?? []) values.set(v.key, String(v.value));
    }
  }
  return out;
}

/** `drone-harness topic echo /diagnostics` for `ms`: every node's latest values. */
async function diagnosticsSample(ms: number): Promise<Map<string, Map<string, string>>> {
  const child = spawn(process.execPath, [CLI, "topic", "echo", "/diagnostics"], { stdio: ["ignore", "pipe", "ignore"] });
  let text = "";
  child.stdout.on("data", (d: Buffer) => (text += d.toString("utf8")));
  await sleep(ms);
  await stop(child);
  return diagnosticValues(text);
}

/**
 * Each processing node's own time per frame (latency_p50_ms of its /diagnostics: from the input's
 * arrival to its publish, transport not included) and the harness's image side done when the
 * frame arrived: with the nodes in separate processes that part runs while perception runs the
 * detector, and the harness's share of the camera -> /cmd_vel path is its own p50 against
 * perception + controller; in one process both parts are on the path.
 */
function nodeTimes(d: Map<string, Map<string, string>>): string {
  const get = (node: string, key: string): string | undefined => d.get(`${node}: ${node}`)?.get(key);
  const p = Number(get("perception", "latency_p50_ms"));
  const h = Number(get("harness", "latency_p50_ms"));
  const c = Number(get("controller", "latency_p50_ms"));
  if (![p, h, c].every(Number.isFinite)) return "no /diagnostics latencies";
  return `perception ${p.toFixed(2)} ms, harness ${h.toFixed(2)} ms (+ ${get("harness", "image_side_p50_ms") ?? "?"} ms image side when the frame arrived, in ${get("harness", "image_side_prepared_ahead") ?? "?"}), controller ${c.toFixed(2)} ms; harness / (perception + controller) ${(100 * (h / (p + c))).toFixed(1)} %`;
}

/** SIGINT (the launch stops its nodes and children), SIGKILL after 5 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGINT");
  const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(killer);
}

export async function run(print: (line: string) => void): Promise<void> {
  print(`launch/sim.launch.xml in real time: wall-clock rates from \`drone-harness topic hz\` (${CAMERA_WINDOW_MS / 1000} s camera, ${CMD_WINDOW_MS / 1000} s /cmd_vel, after ${SETTLE_MS / 1000} s)`);
  print("| layout | /camera/image_raw Hz | /cmd_vel Hz | sim time / wall time over the camera window | sim warnings (behind real time) | time per frame in each node (p50, /diagnostics) |");
  print("|---|---|---|---|---|---|");
  for (const layout of LAYOUTS) {
    const launch = spawn(process.execPath, [CLI, "launch", "launch/sim.launch.xml", ...layout.args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const keep = (d: Buffer): void => void (log += d.toString("utf8"));
    launch.stdout?.on("data", keep);
    launch.stderr?.on("data", keep);
    try {
      await sleep(SETTLE_MS);
      const before = await clockSample();
      const camera = await topicHz("/camera/image_raw", CAMERA_WINDOW_MS);
      const after = await clockSample();
      // The sim's own pace: at ratio x it renders the camera at x * 30 Hz of wall clock, whatever
      // a listener receives (the camera is best-effort sensor data).
      const ratio = before === undefined || after === undefined ? undefined : (after.sim_s - before.sim_s) / ((after.wall_ms - before.wall_ms) / 1000);
      const cmd = await topicHz("/cmd_vel", CMD_WINDOW_MS);
      const times = nodeTimes(await diagnosticsSample(DIAG_WINDOW_MS));
      const behind = [...log.matchAll(/sim falls behind real time: ([^\n]*)/g)].map((m) => m[1]);
      const hz = (x: number | undefined): string => (x === undefined ? "no report" : x.toFixed(1));
      print(`| ${layout.name} | ${hz(camera)} | ${hz(cmd)} | ${ratio === undefined ? "no /clock" : `${ratio.toFixed(3)}x`} | ${behind.length}${behind.length > 0 ? `, last: ${behind.at(-1) ?? ""}` : ""} | ${times} |`);
      if (camera === undefined) print(`  (no rate: the launch printed ${JSON.stringify(log.trim().split("\n").slice(-3).join(" / "))}, exit ${String(launch.exitCode)})`);
    } finally {
      await stop(launch);
    }
  }
  print("target (issue 15): the camera's 30 Hz with the nodes spread over processes");
}
