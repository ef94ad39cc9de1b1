/**
 * Applies a fault schedule (FaultSpec.ts) to the sensor messages a simulator publishes: wraps a
 * RosGraph so that the publishers of camera/image_raw, imu/data, gps/fix and gps/vel created
 * through it pass every message through the schedule. Time is the message's header stamp (the
 * simulator's clock), so the faults happen at the same simulated instants in lock-step and real
 * time runs. Everything else of the graph is passed through unchanged. The sim node itself needs
 * no change: `createFaultySimNode` (nodes/faultySim.ts) hands it the wrapped graph.
 */
import type { Publisher, PublisherOptions, RosGraph, RosNode } from "../../src/ros/graph/types";
import type { Fault, FloodTopic } from "./FaultSpec";
import { Rng } from "../../src/util/Rng";
import { nsToStamp, stampToNs } from "../../src/util/time";

type Stamp = { sec: number; nanosec: number };
type Stamped = { header: { stamp: Stamp; frame_id: string } };
type Vec3 = { x: number; y: number; z: number };
type FrameLayout = { height: number; width: number; encoding: string; is_bigendian: number; step: number; data: Uint8Array };

/** What the injector did, per fault kind (tests read these). */
export type FaultCounters = {
  framesFrozen: number;
  framesFrozenPixels: number;
  framesBlackedOut: number;
  imuSpikes: number;
  gpsFixesLost: number;
  gpsVelDropped: number;
  floodCopies: number;
};

export type FaultInjector = {
  readonly graph: RosGraph;
  readonly counters: FaultCounters;
  /** Faults active at `timeNs`. */
  activeAt(timeNs: bigint): Fault[];
};

const SENSOR_TOPICS: Readonly<Record<string, FloodTopic | "gps_vel">> = {
  camera_image_raw: "camera",
  imu_data: "imu",
  gps_fix: "gps",
  gps_vel: "gps_vel",
};


/** Wraps `graph`; `seed` drives the random choices (imu_spikes probability). */
export function injectFaults(graph: RosGraph, faults: readonly Fault[], options: { seed?: number } = {}): FaultInjector {
  const windows = faults.map((f) => ({ f, from: BigInt(Math.round(f.start_s * 1e9)), to: BigInt(Math.round((f.start_s + f.duration_s) * 1e9)) }));
  const activeAt = (t: bigint): Fault[] => windows.filter((w) => t >= w.from && t < w.to).map((w) => w.f);
  const counters: FaultCounters = { framesFrozen: 0, framesFrozenPixels: 0, framesBlackedOut: 0, imuSpikes: 0, gpsFixesLost: 0, gpsVelDropped: 0, floodCopies: 0 };
  const rng = new Rng(options.seed ?? 1); // spike patterns repeat for the same seed
  const random = (): number => rng.next();
  let lastFrame: unknown;

  const wrapPublisher = <T>(inner: Publisher<T>, sensor: FloodTopic | "gps_vel"): Publisher<T> => {
    const send = (msg: T, active: readonly Fault[]): void => {
      const flood = active.find((f): f is Extract<Fault, { kind: "flood" }> => f.kind === "flood" && (f.topic === sensor || (sensor === "gps_vel" && f.topic === "gps")));
      inner.publish(msg);
      if (flood === undefined) return;
      const t0 = stampToNs((msg as unknown as Stamped).header.stamp);
      for (let k = 1; k < flood.factor; k++) {
        const copy = { ...(msg as unknown as Stamped), header: { ...(msg as unknown as Stamped).header, stamp: nsToStamp(t0 + BigInt(k) * 1000n) } };
        inner.publish(copy as unknown as T);
        counters.floodCopies++;
      }
    };
    const publish = (msg: T): void => {
      const t = stampToNs((msg as unknown as Stamped).header.stamp);
      const active = activeAt(t);
      const has = (kind: Fault["kind"]): boolean => active.some((f) => f.kind === kind);
      switch (sensor) {
        case "camera":
          if (has("camera_blackout")) {
            counters.framesBlackedOut++;
            return;
          }
          if (has("camera_freeze") && lastFrame !== undefined) {
            counters.framesFrozen++;
            inner.publish(lastFrame as T);
            return;
          }
          if (has("camera_frozen_pixels") && lastFrame !== undefined) {
            // This frame's header (fresh stamp), the last good frame's layout and pixel buffer
            // (the same Uint8Array: a driver republishing the buffer it holds).
            counters.framesFrozenPixels++;
            const old = lastFrame as FrameLayout;
            const m = msg as unknown as FrameLayout & Stamped;
            return send({ ...m, height: old.height, width: old.width, encoding: old.encoding, is_bigendian: old.is_bigendian, step: old.step, data: old.data } as unknown as T, active);
          }
          lastFrame = msg;
          return send(msg, active);
        case "imu": {
          const spikes = active.find((f): f is Extract<Fault, { kind: "imu_spikes" }> => f.kind === "imu_spikes");
          if (spikes !== undefined && random() < spikes.probability) {
            counters.imuSpikes++;
            const m = msg as unknown as { linear_acceleration: Vec3 };
            const a = m.linear_acceleration;
            const n = Math.hypot(a.x, a.y, a.z) || 1;
            const s = spikes.magnitude_m_s2 / n;
            return send({ ...m, linear_acceleration: { x: a.x * s, y: a.y * s, z: a.z * s } } as unknown as T, active);
          }
          return send(msg, active);
        }
        case "gps":
          if (has("gps_loss")) {
            counters.gpsFixesLost++;
            const m = msg as unknown as { status: { status: number; service: number } };
            // sensor_msgs/NavSatStatus STATUS_NO_FIX = -1
            return send({ ...m, status: { ...m.status, status: -1 } } as unknown as T, active);
          }
          return send(msg, active);
        case "gps_vel":
          if (has("gps_loss")) {
            counters.gpsVelDropped++;
            return;
          }
          return send(msg, active);
      }
    };
    return new Proxy(inner, {
      get(target, key) {
        if (key === "publish") return publish;
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };

  const wrapNode = <N extends RosNode>(node: N): N =>
    new Proxy(node, {
      get(target, key) {
        if (key === "createPublisher") {
          return <T>(typeName: string, topic: string, options?: PublisherOptions): Publisher<T> => {
            const pub = target.createPublisher<T>(typeName, topic, options);
            const resolved = target.resolveTopicName(topic);
            const sensor = SENSOR_TOPICS[resolved.split("/").slice(-2).join("_")];
            return sensor === undefined ? pub : wrapPublisher(pub, sensor);
          };
        }
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });

  const wrapped: RosGraph = new Proxy(graph, {
    get(target, key) {
      if (key === "createNode") return (name: string, options?: Parameters<RosGraph["createNode"]>[1]) => wrapNode(target.createNode(name, options));
      if (key === "createLifecycleNode") return (name: string, options?: Parameters<RosGraph["createLifecycleNode"]>[1]) => wrapNode(target.createLifecycleNode(name, options));
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { graph: wrapped, counters, activeAt: (t) => activeAt(t) };
}
