/** Validation of fault schedules (sim/faults/FaultSpec.ts) and the scenario `faults:` block. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { NODE_REGISTRY } from "../../nodes";
import type { FaultySimLaunchedNode } from "../../nodes/faultySim";
import { FaultSpecError, injectFaults, parseFaults, parseScenarioFaults } from "../../sim/faults";
import { parseScenario } from "../../sim/parseScenario";
import { EmbeddedGraph } from "../../src/ros/graph";

describe("fault schedule validation", () => {
  it("fills defaults and accepts every kind", () => {
    expect(
      parseFaults([
        { kind: "camera_freeze", start_s: 1, duration_s: 2 },
        { kind: "imu_spikes", start_s: 0, duration_s: 1 },
        { kind: "flood", start_s: 0, duration_s: 1 },
        { kind: "gps_loss", start_s: 3, duration_s: 0.5 },
        { kind: "camera_blackout", start_s: 3, duration_s: 0.5 },
        { kind: "camera_frozen_pixels", start_s: 4, duration_s: 1 },
      ]),
    ).toEqual([
      { kind: "camera_freeze", start_s: 1, duration_s: 2 },
      { kind: "imu_spikes", start_s: 0, duration_s: 1, magnitude_m_s2: 500, probability: 1 },
      { kind: "flood", start_s: 0, duration_s: 1, topic: "camera", factor: 10 },
      { kind: "gps_loss", start_s: 3, duration_s: 0.5 },
      { kind: "camera_blackout", start_s: 3, duration_s: 0.5 },
      { kind: "camera_frozen_pixels", start_s: 4, duration_s: 1 },
    ]);
  });

  it.each([
    [{ kind: "camera_melt", start_s: 0, duration_s: 1 }, 'faults[0].kind: "camera_melt" is not one of camera_freeze, camera_frozen_pixels, camera_blackout, imu_spikes, gps_loss, flood'],
    [{ kind: "gps_loss", start_s: 0 }, "faults[0].duration_s: is required"],
    [{ kind: "gps_loss", start_s: -1, duration_s: 1 }, "faults[0].start_s: value=-1 is outside [0, 86400]"],
    [{ kind: "imu_spikes", start_s: 0, duration_s: 1, probability: 2 }, "faults[0].probability: value=2 is outside [0, 1]"],
    [{ kind: "flood", start_s: 0, duration_s: 1, factor: 2.5 }, "faults[0].factor: value=2.5 must be an integer"],
    [{ kind: "flood", start_s: 0, duration_s: 1, topic: "lidar" }, 'faults[0].topic: "lidar" is not one of camera, imu, gps'],
    [{ kind: "gps_loss", start_s: 0, duration_s: 1, magnitude_m_s2: 3 }, "faults[0].magnitude_m_s2: unknown key for kind gps_loss; valid keys: kind, start_s, duration_s"],
    [{ kind: "gps_loss", start_s: "soon", duration_s: 1 }, 'faults[0].start_s: expected a finite number, got string "soon"'],
  ])("rejects %j naming the key", (fault, message) => {
    expect(() => parseFaults([fault])).toThrow(new FaultSpecError(message));
  });

  it("a scenario file's faults: block is read with line numbers; the scenario parser skips it", () => {
    const base = readFileSync(path.resolve(__dirname, "../../sim/scenarios/default.yaml"), "utf8");
    const text = `${base}\nfaults:\n  - kind: camera_freeze\n    start_s: 2\n    duration_s: 1\n  - kind: flood\n    start_s: 1\n    duration_s: -3\n`;
    expect(parseScenario(text, "x.yaml").name).toBe(parseScenario(base, "x.yaml").name);
    const lines = text.split("\n");
    const bad = lines.indexOf("    duration_s: -3") + 1;
    expect(() => parseScenarioFaults(text, "x.yaml")).toThrow(`x.yaml:${bad}: faults[1].duration_s: value=-3 is outside [0, 86400]`);
    expect(parseScenarioFaults(text.replace("duration_s: -3", "duration_s: 3"), "x.yaml")).toHaveLength(2);
    expect(parseScenarioFaults(base, "x.yaml")).toEqual([]);
    expect(() => parseScenarioFaults("faults: 3\n", "y.yaml")).toThrow("y.yaml:1: faults: expected a list of faults, got number 3");
  });

  it("the injector leaves other publishers and the graph's other methods untouched", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const inj = injectFaults(graph, [{ kind: "camera_blackout", start_s: 0, duration_s: 10 }]);
    const node = inj.graph.createNode("n");
    const got: string[] = [];
    graph.createNode("r").createSubscription<{ data: string }>("std_msgs/msg/String", "/chatter", {}, (m) => got.push(m.data));
    node.createPublisher<{ data: string }>("std_msgs/msg/String", "chatter").publish({ data: "hi" });
    graph.spinUntilIdle();
    expect(got).toEqual(["hi"]);
    expect(inj.graph.nodeNames()).toEqual(graph.nodeNames());
    expect(inj.activeAt(5_000_000_000n)).toHaveLength(1);
    expect(inj.activeAt(10_000_000_000n)).toHaveLength(0);
    await graph.shutdown();
  });
});

describe("camera_frozen_pixels in the injector", () => {
  it("republishes the last good frame's pixels and layout under each new frame's header; before and after, frames pass unchanged", async () => {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const inj = injectFaults(graph, [{ kind: "camera_frozen_pixels", start_s: 0.1, duration_s: 0.1 }]);
    type Img = { header: { stamp: { sec: number; nanosec: number }; frame_id: string }; height: number; width: number; encoding: string; is_bigendian: number; step: number; data: Uint8Array };
    const got: Img[] = [];
    graph.createNode("r").createSubscription<Img>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: { history: "keep_last", depth: 50, reliability: "reliable", durability: "volatile" } }, (m) => got.push(m));
    const pub = inj.graph.createNode("cam").createPublisher<Img>("sensor_msgs/msg/Image", "camera/image_raw", { qos: { history: "keep_last", depth: 50, reliability: "reliable", durability: "volatile" } });
    const sent: Img[] = [];
    for (let k = 0; k < 9; k++) {
      // 2x1 rgb8 frames whose bytes are the frame number: every frame differs.
      const m: Img = { header: { stamp: { sec: 0, nanosec: k * 33_000_000 }, frame_id: "cam" }, height: 1, width: 2, encoding: "rgb8", is_bigendian: 0, step: 6, data: new Uint8Array(6).fill(k) };
      sent.push(m);
      pub.publish(m);
    }
    graph.spinUntilIdle();
    // Stamps 0, 33, ..., 264 ms: frames 4..6 (132, 165, 198 ms) fall in [100, 200) ms; frame 3 (99 ms) is the last good one.
    expect(got.map((m) => m.header.stamp.nanosec)).toEqual(sent.map((m) => m.header.stamp.nanosec));
    expect(got.map((m) => m.data[0])).toEqual([0, 1, 2, 3, 3, 3, 3, 7, 8]);
    for (const k of [4, 5, 6]) {
      expect(got[k]!.data).toBe(sent[3]!.data); // the same buffer, as a driver republishing it
      expect({ ...got[k]!, data: undefined }).toEqual({ ...sent[k]!, data: undefined });
    }
    expect(inj.counters.framesFrozenPixels).toBe(3);
    await graph.shutdown();
  });
});

describe("the launch registry's sim node reads the scenario's faults: block", () => {
  it("applies a gps_loss from the scenario file; without a block it publishes unchanged", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "dh-faults-"));
    try {
      const base = readFileSync(path.resolve(__dirname, "../../sim/scenarios/default.yaml"), "utf8");
      const file = path.join(dir, "lossy.yaml");
      writeFileSync(file, `${base}\nfaults:\n  - { kind: gps_loss, start_s: 0, duration_s: 0.5 }\n`);
      const statuses: number[] = [];
      for (const scenario of [file, "default"]) {
        const graph = new EmbeddedGraph({ stderrLevel: "silent" });
        graph.createNode("r").createSubscription<{ status: { status: number } }>("sensor_msgs/msg/NavSatFix", "/gps/fix", { qos: { history: "keep_last", depth: 50, reliability: "best_effort", durability: "volatile" } }, (m) => statuses.push(m.status.status));
        const sim = (await NODE_REGISTRY.sim!(graph, {
          name: "sim",
          namespace: "/",
          remappings: {},
          parameterOverrides: { scenario, mode: "lockstep", image_width: 32, image_height: 32, publish_ground_truth: false },
        })) as FaultySimLaunchedNode;
        sim.controller.advance(0.3);
        graph.spinUntilIdle();
        statuses.push(99); // separator between the two runs
        await sim.stop();
        await graph.shutdown();
      }
      const split = statuses.indexOf(99);
      const lossy = statuses.slice(0, split);
      const clean = statuses.slice(split + 1, -1);
      expect(lossy.length).toBeGreaterThan(1);
      expect(lossy.every((s) => s === -1)).toBe(true); // STATUS_NO_FIX
      expect(clean.length).toBe(lossy.length);
      expect(clean.every((s) => s >= 0)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
