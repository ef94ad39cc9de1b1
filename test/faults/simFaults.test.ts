/**
 * Each simulator fault (sim/faults) flown in lock-step with the real nodes (fake models, see
 * flight.ts): a fault from t = 0.6 s to 1.4 s of sim time in a 2.2 s flight. Asserted, for faults
 * that make an input invalid or stale: /cmd_vel is hover from 200 ms after the fault starts until
 * it ends (the safety node's bound, docs/nodes.md), the drone does not collide, and commands
 * resume (cruise, 4 m/s forward) within 0.5 s after the fault clears. For every fault: every
 * keep_last queue stayed within its QoS depth, and no callback threw out of a node.
 */
import type { Fault } from "../../sim/faults";
import { between, isHover, startFlight } from "./flight";

const MS = 1_000_000n;

const START = 600n * MS;
const END = 1400n * MS;
const FLIGHT_S = 2.2;

const STALE_FAULTS: Fault[] = [
  { kind: "camera_freeze", start_s: 0.6, duration_s: 0.8 },
  { kind: "camera_blackout", start_s: 0.6, duration_s: 0.8 },
  { kind: "imu_spikes", start_s: 0.6, duration_s: 0.8, magnitude_m_s2: 500, probability: 1 },
  { kind: "gps_loss", start_s: 0.6, duration_s: 0.8 },
];

describe("simulator faults in a lock-step flight", () => {
  it.each(STALE_FAULTS.map((f) => [f.kind, f] as const))("%s: hover within 200 ms, no collision, bounded queues, commands resume", async (_kind, fault) => {
    const rig = await startFlight({ faults: [fault] });
    try {
      rig.fly(FLIGHT_S);
      const before = between(rig.cmd, START - 300n * MS, START);
      const during = between(rig.cmd, START + 200n * MS, END);
      const after = between(rig.cmd, END + 500n * MS, 2200n * MS);
      expect(before.length).toBeGreaterThan(3);
      expect(before.every((c) => !isHover(c))).toBe(true);
      // The safety node's check runs at 20 Hz on sim time: at least 11 commands in 0.6 s.
      expect(during.length).toBeGreaterThanOrEqual(11);
      expect(during.filter((c) => !isHover(c))).toEqual([]);
      expect(after.length).toBeGreaterThan(3);
      expect(after.every((c) => Math.abs(c.vx - 4) < 1e-9)).toBe(true);
      expect(rig.sim.controller.sim.collision).toBeUndefined();
      for (const [topic, q] of rig.maxQueue) expect({ topic, ok: q.length <= q.depth }).toEqual({ topic, ok: true });
      expect(rig.graph.callbackErrors).toBe(0);
      const c = rig.sim.faults.counters;
      const injected = { camera_freeze: c.framesFrozen, camera_blackout: c.framesBlackedOut, imu_spikes: c.imuSpikes, gps_loss: c.gpsFixesLost }[fault.kind as "camera_freeze"];
      // 0.8 s of the fault: about 24 camera frames, 80+ IMU messages (scenario rates), 8 GPS fixes.
      expect(injected).toBeGreaterThanOrEqual(7);
    } finally {
      await rig.shutdown();
    }
  });

  it("flood (camera at 10x): queues stay within their QoS depth, the surplus is dropped, the flight goes on", async () => {
    const rig = await startFlight({ faults: [{ kind: "flood", start_s: 0.6, duration_s: 0.8, topic: "camera", factor: 10 }] });
    try {
      rig.fly(FLIGHT_S);
      const cam = rig.maxQueue.get("/camera/image_raw");
      expect(cam).toBeDefined();
      // 10 copies arrive between executor turns; sensor-data QoS keeps the last 5.
      expect(cam!.length).toBe(cam!.depth);
      expect(cam!.depth).toBe(5);
      expect(rig.drops().get("/camera/image_raw")).toBeGreaterThan(0);
      for (const [topic, q] of rig.maxQueue) expect({ topic, ok: q.length <= q.depth }).toEqual({ topic, ok: true });
      expect(rig.sim.faults.counters.floodCopies).toBeGreaterThanOrEqual(9 * 23);
      // The inputs stay valid (the copies are newer frames): the drone keeps cruising.
      const after = between(rig.cmd, END + 500n * MS, 2200n * MS);
      expect(after.length).toBeGreaterThan(3);
      expect(after.every((c) => Math.abs(c.vx - 4) < 1e-9)).toBe(true);
      expect(rig.sim.controller.sim.collision).toBeUndefined();
      expect(rig.graph.callbackErrors).toBe(0);
    } finally {
      await rig.shutdown();
    }
  });
});
