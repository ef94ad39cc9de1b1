/**
 * The C peer seen through the user-facing CLI (issue 15: the peer "publishes a String that
 * `topic echo` shows"): `drone-harness launch <file> --middleware dds` runs our safety node, whose
 * hover /cmd_vel (20 Hz, frame_id set in the launch file) the C peer decodes; the peer answers on
 * /peer/chatter, and `drone-harness topic list -t` / `topic echo /peer/chatter --once`, attached to
 * the launch's introspection socket, print the peer's topic and String. Every process is a child
 * (the real bin/drone-harness.js, so `npm run build` must have run, as `npm test` does) on
 * ROS_DOMAIN_ID=17, so no other test's participants are seen.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOOPBACK_CONFIG } from "../../../src/ros/dds";
import { buildPeer, describeWithDds } from "./ddsTools";

const DOMAIN = "17";
const ROOT = join(__dirname, "..", "..", "..");
const CLI = join(ROOT, "bin", "drone-harness.js");
/** The safety node's frame_id: it goes out in our /cmd_vel and comes back in the peer's String. */
const FRAME = "peer_echo_body";
const ENV = { ...process.env, ROS_DOMAIN_ID: DOMAIN, CYCLONEDDS_URI: LOOPBACK_CONFIG };

type Child = { child: ChildProcess; out: string[]; err: string[]; exited: Promise<number | null> };

function start(command: string, args: string[]): Child {
  const child = spawn(command, args, { cwd: ROOT, env: ENV, stdio: ["pipe", "pipe", "pipe"] });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => out.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => err.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out, err, exited };
}

/** Resolves with the first match of `pattern` in the child's stdout or stderr; rejects when it exits first or after `timeoutMs`. */
function waitFor(c: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(check, 50);
    function check(): void {
      const m = pattern.exec(c.out.join("") + c.err.join(""));
      if (m !== null) finish(() => resolve(m));
      else if (c.child.exitCode !== null || c.child.signalCode !== null) finish(() => reject(new Error(`exited (${String(c.child.exitCode ?? c.child.signalCode)}) before printing ${String(pattern)}: ${c.out.join("")}${c.err.join("")}`)));
      else if (Date.now() > deadline) finish(() => reject(new Error(`no ${String(pattern)} in ${timeoutMs} ms: ${c.out.join("")}${c.err.join("")}`)));
    }
    function finish(then: () => void): void {
      clearInterval(timer);
      then();
    }
    const deadline = Date.now() + timeoutMs;
    check();
  });
}

/** Runs one CLI command to its end (killed after `timeoutMs`); its exit code, stdout and stderr. */
async function cli(args: string[], timeoutMs: number, children: Child[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const c = start(process.execPath, [CLI, ...args]);
  children.push(c);
  c.child.stdin?.end();
  const timer = setTimeout(() => c.child.kill("SIGKILL"), timeoutMs);
  const code = await c.exited;
  clearTimeout(timer);
  return { code, stdout: c.out.join(""), stderr: c.err.join("") };
}

/** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
async function stop(c: Child, graceMs: number): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  c.child.kill("SIGTERM");
  const timer = setTimeout(() => c.child.kill("SIGKILL"), graceMs);
  await c.exited;
  clearTimeout(timer);
}

describeWithDds("the C peer's String through the CLI (launch --middleware dds, topic list, topic echo)", true, () => {
  let exe = "";
  beforeAll(() => {
    exe = buildPeer();
  });

  it("topic echo /peer/chatter --once prints the String the peer sends about our /cmd_vel", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dh-peer-echo-"));
    const file = join(dir, "safety.launch.xml");
    writeFileSync(file, `<launch>\n  <node pkg="drone_harness" exec="safety" name="safety">\n    <param name="frame_id" value="${FRAME}"/>\n  </node>\n</launch>\n`);
    const children: Child[] = [];
    try {
      const launch = start(process.execPath, [CLI, "launch", file, "--middleware", "dds"]);
      children.push(launch);
      const socket = (await waitFor(launch, /\[launch\] introspection socket: (\S+)\n/, 20_000))[1] as string;
      expect(launch.err.join("")).toContain(`[launch] on DDS domain ${DOMAIN}`);

      const peer = start(exe, [DOMAIN, "40", "cmd_vel"]);
      children.push(peer);
      await waitFor(peer, /cmd_vel x=0\.000 wz=0\.000 frame=\S+ sec=\d+/, 15_000);
      expect(peer.out.join("")).toContain(`peer ready domain=${DOMAIN}`);
      expect(peer.out.join("")).toContain(`frame=${FRAME} `);

      // The launch reads /peer/chatter only once DDS discovery has told it the topic's type.
      const deadline = Date.now() + 15_000;
      let list = await cli(["topic", "list", "-t", "--socket", socket], 10_000, children);
      while (!list.stdout.includes("/peer/chatter [") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        list = await cli(["topic", "list", "-t", "--socket", socket], 10_000, children);
      }
      expect(list.code).toBe(0);
      expect(list.stdout.split("\n")).toEqual(expect.arrayContaining(["/peer/chatter [std_msgs/msg/String]", "/cmd_vel [geometry_msgs/msg/TwistStamped]"]));

      const echo = await cli(["topic", "echo", "/peer/chatter", "--once", "--socket", socket], 15_000, children);
      expect(echo.stdout).toBe(`data: peer saw cmd_vel x=0.000 wz=0.000 frame=${FRAME}\n---\n`);
      expect(echo.code).toBe(0);
    } finally {
      // The launch stops its node on SIGTERM; the peer would stop at its 40 s deadline.
      await Promise.all(children.map((c) => stop(c, 5000)));
    }
  }, 45_000);
});
