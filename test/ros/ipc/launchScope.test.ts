/**
 * Issue 16 item 16: the introspection CLI attached to the newest socket of any launch of the same
 * user. It now attaches only to a launch of its ROS_DOMAIN_ID (and of --launch NAME if given),
 * says which, and names the launches it skipped; `topic --help` prints the usage.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runNode } from "../../../src/cli/commands/node";
import { runTopic } from "../../../src/cli/commands/topic";
import { main } from "../../../src/cli/main";
import { EmbeddedGraph } from "../../../src/ros/graph";
import { GraphClient, GraphServer } from "../../../src/ros/ipc";
import { domainIdOf } from "../../../src/ros/ipc/GraphClient";
import { launchIntrospection } from "../../../src/ros/launch/launchIntrospection";

function capture(): { out: (t: string) => void; err: (t: string) => void; stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { out: (t) => (out += t), err: (t) => (err += t), stdout: () => out, stderr: () => err };
}

describe("which launch the introspection CLI attaches to", () => {
  let dir: string;
  const graphs: EmbeddedGraph[] = [];
  const servers: GraphServer[] = [];

  /** A launch of `launchFile` in ROS domain `domainId` with one node named `node`. */
  async function start(pid: number, launchFile: string, domainId: number, node: string): Promise<void> {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    graph.createNode(node);
    const server = new GraphServer(launchIntrospection(graph, () => undefined, { pid, launchFile, startedAtMs: pid, domainId }));
    await server.listen(join(dir, `launch-${pid}.sock`));
    graphs.push(graph);
    servers.push(server);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "dh-scope-"));
    // Started in this order, so the newest socket is the domain-7 one.
    await start(101, "launch/sim.launch.xml", 0, "in_domain_0");
    await new Promise((r) => setTimeout(r, 20)); // distinct socket mtimes (newest-first order); the checks do not depend on the order
    await start(102, "launch/nodes.launch.xml", 0, "nodes_domain_0");
    await new Promise((r) => setTimeout(r, 20));
    await start(103, "launch/sim.launch.xml", 7, "in_domain_7");
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const g of graphs) await g.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("attaches to a launch of its own domain only, and to the named launch file", async () => {
    const d7 = await GraphClient.connect({ dir, domainId: 7 });
    expect(await d7.listNodes()).toContain("/in_domain_7");
    d7.close();
    const d0 = await GraphClient.connect({ dir, domainId: 0 });
    expect(d0.launchInfo?.domainId).toBe(0);
    d0.close();
    const sim0 = await GraphClient.connect({ dir, domainId: 0, launch: "sim" });
    expect(await sim0.listNodes()).toContain("/in_domain_0");
    sim0.close();
    await expect(GraphClient.connect({ dir, domainId: 3 })).rejects.toThrow(
      `no running drone-harness launch in ROS_DOMAIN_ID 3 found in ${dir}; running: launch/sim.launch.xml (pid 103, ROS_DOMAIN_ID 7); launch/nodes.launch.xml (pid 102, ROS_DOMAIN_ID 0); launch/sim.launch.xml (pid 101, ROS_DOMAIN_ID 0)`,
    );
  });

  it("node list says on stderr which launch answered; --launch picks one", async () => {
    const io = capture();
    expect(await runNode(["list", "--launch", "sim.launch.xml"], io, { connect: { dir, domainId: 0 } })).toBe(0);
    expect(io.stderr()).toBe("attached to launch launch/sim.launch.xml (pid 101, ROS_DOMAIN_ID 0)\n");
    expect(io.stdout()).toContain("/in_domain_0\n");
  });

  it("reads ROS_DOMAIN_ID as ROS 2 does and names a bad value", () => {
    expect(domainIdOf({})).toBe(0);
    expect(domainIdOf({ ROS_DOMAIN_ID: "42" })).toBe(42);
    expect(() => domainIdOf({ ROS_DOMAIN_ID: "abc" })).toThrow('ROS_DOMAIN_ID="abc", expected an integer in [0, 232]');
  });

  it("topic --help and param --help print the usage, exit 0", async () => {
    const io = capture();
    expect(await runTopic(["--help"], io)).toBe(0);
    expect(io.stdout()).toMatch(/^usage: drone-harness topic list \[-t\] \| info <topic>/);
    const viaMain = capture();
    expect(await main(["param", "--help"], viaMain)).toBe(0);
    expect(viaMain.stdout()).toContain("list [<node>]");
    expect(viaMain.stderr()).toBe("");
  });
});
