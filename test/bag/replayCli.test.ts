import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { runReplay } from "../../src/cli/commands/replay";
import type { NodeRegistry } from "../../src/ros/launch/NodeFactory";
import { recordGolden, startController } from "./standInController";

/** A registry whose "controller" executable is the stand-in with the given gain. */
function registry(gain: number): NodeRegistry {
  return {
    controller: async (graph, options) => {
      const node = startController(graph, gain, false, options.parameterOverrides);
      return { node, stop: async () => undefined };
    },
  };
}

const LAUNCH = `<launch>
  <arg name="use_sim_time" default="false"/>
  <node pkg="drone_harness" exec="controller" name="controller">
    <param name="use_sim_time" value="$(var use_sim_time)"/>
  </node>
</launch>
`;

async function run(args: string[], gain: number): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReplay(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, { registry: registry(gain), packageRoot: path.resolve(__dirname, "../..") });
  return { code, out: out.join(""), err: err.join("") };
}

describe("drone-harness replay", () => {
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "replay-"));
    writeFileSync(path.join(dir, "test.launch.xml"), LAUNCH);
    await recordGolden(new NodeBagFileSystem(), path.join(dir, "golden"), 0.5);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("exits 0 when the launched nodes reproduce the recorded outputs (use_sim_time:=true is passed)", async () => {
    const r = await run([path.join(dir, "golden"), "--launch", path.join(dir, "test.launch.xml"), "--compare", "/cmd_vel"], 0.5);
    expect(r.err).toContain("started /controller");
    expect(r.code).toBe(0);
    expect(r.out).toContain("50 input messages through 1 nodes; /cmd_vel 50 recorded / 50 replayed");
    expect(r.out).toContain("outputs match");
  });

  it("exits 1 and prints the first differences when they differ", async () => {
    const r = await run([path.join(dir, "golden"), "--launch", path.join(dir, "test.launch.xml"), "--compare", "/cmd_vel", "--tolerance", "1e-3", "--max-differences", "2"], 0.6);
    expect(r.code).toBe(1);
    expect(r.out).toContain("outputs differ; first differences:");
    expect(r.out).toContain("/cmd_vel #1 twist.linear.x: expected 0.0993");
    expect(r.out.match(/^\/cmd_vel #/gm)).toHaveLength(2);
  });

  it("names a missing bag", async () => {
    const r = await run([path.join(dir, "nope"), "--launch", path.join(dir, "test.launch.xml"), "--compare", "/cmd_vel"], 0.5);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${path.join(dir, "nope")}: no such file or directory`);
  });
});
