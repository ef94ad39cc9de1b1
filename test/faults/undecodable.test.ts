/**
 * Issue 16 item 4: a message whose bytes do not decode (6 bytes on /imu/data or
 * /camera/image_raw, from `bag play` or the introspection socket) is dropped and counted in every
 * node that subscribes, on its /diagnostics; no node has a callback error, so the launcher stops
 * none (before: "safety crashed: 1 callback error(s); stopping it" and /cmd_vel silent for 1 s).
 * Lock-step flight of test/faults/flight.ts: the sim node and the four real nodes.
 */
import { UNDECODABLE_TASK } from "../../nodes/common/ros/NodeDiagnostics";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { SEC, startFlight } from "./flight";

type Diag = { status: Array<{ name: string; level: number; message: string; values: Array<{ key: string; value: string }> }> };

/** Six bytes: a little-endian CDR header and two bytes, too short for any of the package's message types. */
const SIX_BYTES = new Uint8Array([0x00, 0x01, 0x00, 0x00, 0x9c, 0x3e]);
/** How often each topic gets the bad message. */
const REPEATS = 3;

describe("undecodable messages on every subscribed topic", () => {
  it("are dropped and counted on each node's /diagnostics; no callback error, no node stopped, /cmd_vel never pauses", async () => {
    const rig = await startFlight();
    const latest = new Map<string, Diag["status"][number]>();
    rig.graph.createNode("diag_rec").createSubscription<Diag>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => {
      for (const st of m.status) latest.set(st.name, st);
    });
    rig.fly(0.5);
    // Every topic some node of the launch subscribes to (sensors, /clock, commands, corrections).
    const subscribed = rig.graph
      .topicNamesAndTypes()
      .map((t) => t.name)
      .filter((t) => rig.graph.bus.subscriptions(t).some((s) => s.typeName !== undefined && !["/diag_rec", "/rec"].includes(s.owner)));
    expect(subscribed).toEqual(expect.arrayContaining(["/imu/data", "/camera/image_raw", "/gps/fix", "/cmd_vel_raw", "/clock"]));
    const before = rig.cmd.length;
    for (let k = 0; k < REPEATS; k++) for (const topic of subscribed) rig.graph.publishRaw(topic, rig.graph.topicNamesAndTypes().find((t) => t.name === topic)!.types[0]!, SIX_BYTES);
    rig.fly(1.5);

    expect(rig.graph.callbackErrors).toBe(0);
    // Each node saw REPEATS bad messages on each topic it subscribes to, and says so.
    for (const node of ["perception", "harness", "controller", "safety"]) {
      const st = latest.get(`${node}: ${UNDECODABLE_TASK}`);
      expect(st).toBeDefined();
      expect(st!.level).toBe(1);
      expect(st!.message).toMatch(/^\d+ undecodable message\(s\) dropped$/);
      for (const v of st!.values) expect(v).toEqual({ key: expect.stringMatching(/^drops\/.+:undecodable$/), value: String(REPEATS) });
    }
    const safety = latest.get(`safety: ${UNDECODABLE_TASK}`)!.values.map((v) => v.key);
    expect(safety).toEqual(expect.arrayContaining(["drops/imu/data:undecodable", "drops/camera/image_raw:undecodable", "drops/cmd_vel_raw:undecodable"]));
    expect(latest.get(`perception: ${UNDECODABLE_TASK}`)!.values.map((v) => v.key)).toContain("drops/camera/image_raw:undecodable");
    // /cmd_vel kept coming at the controller's rate: no gap longer than 100 ms of sim time after the bad messages.
    const after = rig.cmd.slice(before);
    expect(after.length).toBeGreaterThan(10);
    for (let i = 1; i < after.length; i++) expect(after[i]!.tNs - after[i - 1]!.tNs).toBeLessThanOrEqual(SEC / 10n);
    // The flight is still cruising (not held in hover): the bad bytes were dropped, not taken as sensor loss.
    expect(after.at(-1)!.vx).toBeGreaterThan(0);
    await rig.shutdown();
  });
});
