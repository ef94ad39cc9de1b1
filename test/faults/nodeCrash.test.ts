/**
 * Node faults in a lock-step closed-loop flight (flight.ts: the sim node and the real perception,
 * harness, controller and safety nodes, fake models):
 * - a model that throws inside perception's camera callback for 0.8 s of sim time: the node
 *   catches and counts it, the other nodes keep running, /cmd_vel is hover from 200 ms after the
 *   first failure until it stops, then cruise resumes;
 * - a controller whose callback throws out of the node (a bug the node does not catch), started by
 *   the embedded Launcher with respawn="true": the launcher stops it, the safety node holds hover
 *   (cmd_vel_raw stale) within 200 ms of sim time, the launcher respawns it and commands resume.
 * The controller runs with input_timeout_s = 0.15 so that its own stale-policy hover (timer at
 * 20 Hz) also lands within 0.15 + 0.05 = 0.2 s.
 */
import { controllerNode } from "../../nodes/controller";
import type { Detector, StudentOutputs } from "../../nodes/common/models/models";
import type { Image } from "../../nodes/common/sensors/sensorTypes";
import type { FrameState } from "../../nodes/common/sensors/SensorState";
import { Launcher, type LaunchEvent } from "../../src/ros/launch/Launcher";
import type { LaunchPlan } from "../../src/ros/launch/LaunchPlan";
import type { NodeFactory } from "../../src/ros/launch/NodeFactory";
import { FakeDetector } from "../nodes/fixtures";
import { between, isHover, startFlight } from "./flight";

const MS = 1_000_000n;

class SwitchableDetector implements Detector {
  private readonly inner = new FakeDetector();
  readonly gridRows = this.inner.gridRows;
  readonly gridCols = this.inner.gridCols;
  readonly numClasses = this.inner.numClasses;
  failing = false;
  failures = 0;
  infer(img: Image, state: FrameState): StudentOutputs {
    if (this.failing) {
      this.failures++;
      throw new Error("simulated inference failure");
    }
    return this.inner.infer(img, state);
  }
}

function expectHoverWindow(cmd: ReturnType<typeof between>, label: string): void {
  expect({ label, n: cmd.length >= 5 }).toEqual({ label, n: true });
  expect({ label, moving: cmd.filter((c) => !isHover(c)) }).toEqual({ label, moving: [] });
}

// The real controller plus a subscription whose callback throws: a bug that escapes the node.
const crashableController: NodeFactory = async (graph, options) => {
  const launched = await controllerNode(graph, options);
  launched.node.createSubscription<{ data: boolean }>("std_msgs/msg/Bool", "/fault/crash_controller", {}, (m) => {
    if (m.data) throw new Error("controller bug");
  });
  return launched;
};

/** The controller alone, respawned 20 ms after it stops (respawn="true"), on sim time with a 0.15 s input timeout. */
function respawningControllerPlan(): LaunchPlan {
  const double = (value: number) => ({ type: "double" as const, value });
  return {
    nodes: [
      {
        package: "drone_harness",
        executable: "controller",
        name: "controller",
        namespace: "/",
        fullyQualifiedName: "/controller",
        parameters: { use_sim_time: { type: "bool", value: true }, mode: { type: "string", value: "policy" }, max_accel_m_s2: double(0), input_timeout_s: double(0.15) },
        remappings: [],
        respawn: true,
        respawnDelaySec: 0.02,
        output: "log",
        args: [],
        source: { file: "test", line: 1 },
      },
    ],
    skipped: [],
    arguments: [],
    warnings: [],
  };
}

describe("node faults in a lock-step flight", () => {
  it("a model throwing inside perception's callback: hover within 200 ms, others keep running, recovery", async () => {
    const detector = new SwitchableDetector();
    const rig = await startFlight({ detector: () => detector, controllerParams: { input_timeout_s: 0.15 } });
    try {
      let firstFailNs: bigint | undefined;
      let lastFailNs = 0n;
      rig.fly(2.2, (t) => {
        detector.failing = t >= 600n * MS && t < 1400n * MS;
        if (detector.failures > 0 && firstFailNs === undefined) firstFailNs = t;
        if (detector.failing) lastFailNs = t;
      });
      expect(detector.failures).toBeGreaterThan(15);
      expect(firstFailNs).toBeDefined();
      expect(between(rig.cmd, 300n * MS, 600n * MS).every((c) => c.vx === 4)).toBe(true);
      expectHoverWindow(between(rig.cmd, firstFailNs! + 200n * MS, lastFailNs), "during the failures");
      const after = between(rig.cmd, lastFailNs + 500n * MS, 2200n * MS);
      expect(after.length).toBeGreaterThan(3);
      expect(after.every((c) => c.vx === 4)).toBe(true);
      expect(rig.graph.callbackErrors).toBe(0); // caught inside the node
      expect(rig.sim.controller.sim.collision).toBeUndefined();
    } finally {
      await rig.shutdown();
    }
  });

  it('a controller crashing in a callback is stopped and respawned by the launcher (respawn="true"); safety holds hover meanwhile', async () => {
    const rig = await startFlight({ skipController: true });
    const events: LaunchEvent[] = [];
    const waiters: Array<{ type: LaunchEvent["type"]; after: number; resolve: () => void }> = [];
    const waitFor = (type: LaunchEvent["type"]): Promise<void> =>
      new Promise((resolve) => {
        const after = events.length;
        waiters.push({ type, after, resolve });
      });
    const launcher = new Launcher({
      graph: rig.graph,
      registry: { controller: crashableController },
      log: () => undefined,
      crashCheckIntervalMs: 5,
      onEvent: (e) => {
        events.push(e);
        for (const w of waiters.splice(0)) {
          if (events.slice(w.after).some((x) => x.type === w.type)) w.resolve();
          else waiters.push(w);
        }
      },
    });
    const plan = respawningControllerPlan();
    const crash = rig.graph.createNode("crasher").createPublisher<{ data: boolean }>("std_msgs/msg/Bool", "/fault/crash_controller");
    try {
      await launcher.start(plan);
      rig.fly(0.6);
      expect(between(rig.cmd, 300n * MS, 600n * MS).every((c) => c.vx === 4)).toBe(true);
      const stopped = waitFor("stopped");
      crash.publish({ data: true });
      rig.graph.spinUntilIdle();
      const crashNs = rig.sim.controller.timeNs();
      await stopped; // the launcher noticed the callback error and stopped the node
      expect(launcher.runningNodes()).not.toContain("/controller");
      const started = waitFor("started");
      rig.fly(0.6); // sim time advances while the controller is down
      expectHoverWindow(between(rig.cmd, crashNs + 200n * MS, rig.sim.controller.timeNs()), "controller down");
      await started; // respawned after respawn_delay
      const respawnNs = rig.sim.controller.timeNs();
      rig.fly(0.8);
      const after = between(rig.cmd, respawnNs + 400n * MS, rig.sim.controller.timeNs());
      expect(after.length).toBeGreaterThan(3);
      expect(after.every((c) => c.vx === 4)).toBe(true);
      expect(events.map((e) => e.type)).toEqual(["started", "crashed", "stopped", "respawning", "started"]);
      expect(rig.sim.controller.sim.collision).toBeUndefined();
    } finally {
      await launcher.stop();
      await rig.shutdown();
    }
  });
});
