/**
 * End to end in one jest process: `launch` serves a talker on a socket in a temp directory, and
 * `topic`, `node` and `param` talk to it as they would from another process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNode } from "../../../src/cli/commands/node";
import { runParam } from "../../../src/cli/commands/param";
import { runTopic } from "../../../src/cli/commands/topic";
import type { CliIO } from "../../../src/cli/CliCommand";
import { domainIdOf } from "../../../src/ros/ipc/GraphClient";
import { runLaunch } from "../../../src/cli/runLaunch";
import { talker } from "../launch/testNodes";

type Captured = CliIO & { stdout: () => string; stderr: () => string };
function capture(onOut?: (all: string) => void): Captured {
  let out = "";
  let err = "";
  return {
    out: (t) => {
      out += t;
      onOut?.(out);
    },
    err: (t) => (err += t),
    stdout: () => out,
    stderr: () => err,
  };
}

// One launch for the whole file, shared by the describes below (their tests run in order: the param test sets gain).
let root: string;
let socketDir: string;
let stopLaunch: () => void = () => undefined;
let launched: Promise<number>;
let launchIo: Captured;
const connect = () => ({ connect: { dir: socketDir } });

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "dh-cli-"));
  socketDir = join(root, "run");
  writeFileSync(join(root, "package.xml"), "<package format=\"3\"><name>drone_harness</name></package>");
  mkdirSync(join(root, "launch"));
  writeFileSync(
    join(root, "launch", "talk.launch.xml"),
    `<launch>
  <arg name="greeting" default="Hello"/>
  <node pkg="drone_harness" exec="talker" name="talker" namespace="demo">
    <param name="greeting" value="$(var greeting)"/>
    <param name="period_ms" value="20"/>
  </node>
  <node pkg="ros_gz_bridge" exec="parameter_bridge"/>
</launch>`,
  );
  launchIo = capture();
  const ready = new Promise<void>((resolve) => {
    launched = runLaunch([join(root, "launch", "talk.launch.xml"), "greeting:=Hi"], launchIo, {
      registry: { talker },
      packageRoot: root,
      socketDir,
      until: () => new Promise<void>((r) => (stopLaunch = r)),
      onReady: () => resolve(),
    });
  });
  // Fail fast (with the launcher's stderr) if the launch exits instead of becoming ready.
  await Promise.race([ready, launched.then((rc) => Promise.reject(new Error(`launch exited with ${rc}: ${launchIo.stderr()}`)))]);
}, 20000);

afterAll(async () => {
  stopLaunch();
  expect(await launched).toBe(0);
  rmSync(root, { recursive: true, force: true });
});

describe("drone-harness launch + topic/node/param", () => {
  it("launch logs the skipped foreign node and the socket", () => {
    expect(launchIo.stderr()).toContain('[launch] skipping <node pkg="ros_gz_bridge" exec="parameter_bridge"> (launch/talk.launch.xml:7): package "ros_gz_bridge" is not drone_harness');
    expect(launchIo.stderr()).toContain(`[launch] introspection socket: ${join(socketDir, `launch-${process.pid}.sock`)}`);
  });

  it("node list", async () => {
    const io = capture();
    expect(await runNode(["list"], io, connect())).toBe(0);
    expect(io.stdout().split("\n")).toContain("/demo/talker");
  });
});

describe("drone-harness launch + topic", () => {
  it("topic list -t", async () => {
    const io = capture();
    expect(await runTopic(["list", "-t"], io, connect())).toBe(0);
    expect(io.stdout().split("\n")).toContain("/demo/chatter [std_msgs/msg/String]");
  });

  it("topic info and info -v, shaped like ros2 topic info (Jazzy, without GID and type hash)", async () => {
    let io = capture();
    expect(await runTopic(["info", "demo/chatter"], io, connect())).toBe(0);
    expect(io.stdout()).toBe("Type: std_msgs/msg/String\nPublisher count: 1\nSubscription count: 0\n");
    io = capture();
    expect(await runTopic(["info", "/demo/chatter", "-v"], io, connect())).toBe(0);
    // Golden text from rclpy TopicEndpointInfo.__str__ for the talker's rmw-default publisher.
    expect(io.stdout()).toBe(
      [
        "Type: std_msgs/msg/String",
        "",
        "Publisher count: 1",
        "",
        "Node name: talker",
        "Node namespace: /demo",
        "Topic type: std_msgs/msg/String",
        "Endpoint type: PUBLISHER",
        "QoS profile:",
        "  Reliability: RELIABLE",
        "  History (Depth): KEEP_LAST (10)",
        "  Durability: VOLATILE",
        "  Lifespan: Infinite",
        "  Deadline: Infinite",
        "  Liveliness: AUTOMATIC",
        "  Liveliness lease duration: Infinite",
        "",
        "Subscription count: 0",
        "",
      ].join("\n"),
    );
    io = capture();
    expect(await runTopic(["info", "/nope"], io, connect())).toBe(1);
    // Which launch answered comes first (issue 16 item 16), then ros2's own text.
    expect(io.stderr()).toBe(`attached to launch ${join(root, "launch", "talk.launch.xml")} (pid ${process.pid}, ROS_DOMAIN_ID ${domainIdOf()})\nUnknown topic '/nope'\n`);
  });

  it("topic echo --once prints one YAML message and ---", async () => {
    const io = capture();
    expect(await runTopic(["echo", "demo/chatter", "--once"], io, connect())).toBe(0);
    expect(io.stdout()).toMatch(/^data: Hi \d+\n---\n$/);
  }, 10000);

  it("topic hz prints ros2's report format", async () => {
    let stop: () => void = () => undefined;
    // Wait for a report over at least 20 messages: with fewer, one late first timer callback
    // shortens the measured span enough to push the mean rate well above the nominal 50 Hz.
    const io = capture((all) => {
      const w = [...all.matchAll(/window: (\d+)/g)].pop();
      if (w !== undefined && Number(w[1]) >= 20) stop();
    });
    const until = () => new Promise<void>((r) => (stop = r));
    expect(await runTopic(["hz", "/demo/chatter"], io, { ...connect(), until, hzPeriodMs: 150 })).toBe(0);
    const reports = [...io.stdout().matchAll(/average rate: (\d+\.\d{3})\n\tmin: \d+\.\d{3}s max: \d+\.\d{3}s std dev: \d+\.\d{5}s window: (\d+)/g)];
    const m = reports.pop();
    expect(m).toBeDefined();
    expect(Number(m?.[2])).toBeGreaterThanOrEqual(20);
    // period_ms = 20 -> 50 Hz nominal; wall-clock timers on a loaded 2-core machine run late, never
    // early, so over >= 19 intervals the mean stays below 50 Hz unless the first message was late
    // (60 Hz allows the first to be 63 ms late).
    const rate = Number(m?.[1]);
    expect(rate).toBeGreaterThan(5);
    expect(rate).toBeLessThan(60);
  }, 10000);
});

describe("drone-harness launch + param, and launch errors", () => {
  it("param get / set / list", async () => {
    let io = capture();
    expect(await runParam(["get", "/demo/talker", "greeting"], io, connect())).toBe(0);
    expect(io.stdout()).toBe("String value is: Hi\n");
    io = capture();
    expect(await runParam(["get", "/demo/talker", "period_ms"], io, connect())).toBe(0);
    expect(io.stdout()).toBe("Integer value is: 20\n");
    io = capture();
    expect(await runParam(["set", "/demo/talker", "gain", "0.25"], io, connect())).toBe(0);
    expect(io.stdout()).toBe("Set parameter successful\n");
    io = capture();
    expect(await runParam(["get", "/demo/talker", "gain"], io, connect())).toBe(0);
    expect(io.stdout()).toBe("Double value is: 0.25\n");
    io = capture();
    expect(await runParam(["set", "/demo/talker", "gain", "7"], io, connect())).toBe(1);
    expect(io.stderr()).toMatch(/^attached to launch .*\nSetting parameter failed: .*gain/);
    io = capture();
    expect(await runParam(["list", "/demo/talker"], io, connect())).toBe(0);
    expect(io.stdout()).toContain("  greeting\n");
    // Without a node: every node's parameters under its name, as `ros2 param list`.
    io = capture();
    expect(await runParam(["list"], io, connect())).toBe(0);
    expect(io.stdout()).toMatch(/^\/demo\/talker:\n( {2}\w+\n)* {2}greeting\n/m);
    expect(io.stdout().split("\n").filter((l) => l.endsWith(":"))).toContain("/demo/talker:");
  });

  it("reports a missing launch with the directory searched", async () => {
    const io = capture();
    const empty = join(root, "empty");
    expect(await runNode(["list"], io, { connect: { dir: empty } })).toBe(1);
    expect(io.stderr()).toBe(`no running drone-harness launch found (looked in ${empty})\n`);
  });

  it("launch --print-plan shows the evaluated plan; a bad file names the line", async () => {
    let io = capture();
    expect(await runLaunch([join(root, "launch", "talk.launch.xml"), "--print-plan"], io, { registry: {}, packageRoot: root })).toBe(0);
    expect(io.stdout()).toContain("/demo/talker  drone_harness/talker\n  param greeting = \"Hello\" (string)\n  param period_ms = 20 (integer)\n");
    writeFileSync(join(root, "launch", "bad.launch.xml"), "<launch>\n  <node pkg=\"drone_harness\"/>\n</launch>");
    io = capture();
    expect(await runLaunch(["bad.launch.xml"], io, { registry: {}, packageRoot: root })).toBe(1);
    expect(io.stderr()).toBe('drone-harness launch: launch/bad.launch.xml:2: <node> attribute "exec" is required\n');
  });
});
