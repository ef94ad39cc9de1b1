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


type Sensor = FloodTopic | "gps_vel";

const SENSOR_TOPICS: Readonly<Record<string, Sensor>> = {
  camera_image_raw: "camera",
  imu_data: "imu",
  gps_fix: "gps",
  gps_vel: "gps_vel",
};

/** Fault-injection state the wrapped publishers share. */
type InjectorState = {
  readonly activeAt: (t: bigint) => Fault[];
  readonly counters: FaultCounters;
  readonly random: () => number;
  /** The camera's last frame that went out unfaulted (camera_freeze, camera_frozen_pixels). */
  lastFrame: unknown;
};

/** A property of `target` as seen through a proxy: methods bound to the target. */
function passThrough(target: object, key: string | symbol): unknown {
  const v: unknown = Reflect.get(target, key, target);
  return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
}

/** Wraps `graph`; `seed` drives the random choices (imu_spikes probability). */
export function injectFaults(graph: RosGraph, faults: readonly Fault[], options: { seed?: number } = {}): FaultInjector {
  const windows = faults.map((f) => ({ f, from: BigInt(Math.round(f.start_s * 1e9)), to: BigInt(Math.round((f.start_s + f.duration_s) * 1e9)) }));
  const activeAt = (t: bigint): Fault[] => windows.filter((w) => t >= w.from && t < w.to).map((w) => w.f);
  const counters: FaultCounters = { framesFrozen: 0, framesFrozenPixels: 0, framesBlackedOut: 0, imuSpikes: 0, gpsFixesLost: 0, gpsVelDropped: 0, floodCopies: 0 };
  const rng = new Rng(options.seed ?? 1); // spike patterns repeat for the same seed
  const state: InjectorState = { activeAt, counters, random: () => rng.next(), lastFrame: undefined };
  const wrapped: RosGraph = new Proxy(graph, {
    get(target, key) {
      if (key === "createNode") return (name: string, options?: Parameters<RosGraph["createNode"]>[1]) => wrapNode(target.createNode(name, options), state);
      if (key === "createLifecycleNode") return (name: string, options?: Parameters<RosGraph["createLifecycleNode"]>[1]) => wrapNode(target.createLifecycleNode(name, options), state);
      return passThrough(target, key);
    },
  });
  return { graph: wrapped, counters, activeAt: (t) => activeAt(t) };
}

/** A node whose publishers of the sensor topics (resolved names) go through the fault schedule. */
function wrapNode<N extends RosNode>(node: N, state: InjectorState): N {
  return new Proxy(node, {
    get(target, key) {
      if (key === "createPublisher") {
        return <T>(typeName: string, topic: string, options?: PublisherOptions): Publisher<T> => {
          const pub = target.createPublisher<T>(typeName, topic, options);
          const resolved = target.resolveTopicName(topic);
          const sensor = SENSOR_TOPICS[resolved.split("/").slice(-2).join("_")];
          return sensor === undefined ? pub : wrapPublisher(pub, sensor, state);
        };
      }
      return passThrough(target, key);
    },
  });
}

function wrapPublisher<T>(inner: Publisher<T>, sensor: Sensor, state: InjectorState): Publisher<T> {
  const publish = (msg: T): void => publishFaulted(inner, sensor, state, msg);
  return new Proxy(inner, {
    get(target, key) {
      if (key === "publish") return publish;
      return passThrough(target, key);
    },
  });
}

/** Publishes `msg`, then a flood fault's extra copies of it, 1 us apart. */
function send<T>(inner: Publisher<T>, sensor: Sensor, counters: FaultCounters, msg: T, active: readonly Fault[]): void {
  const flood = active.find((f): f is Extract<Fault, { kind: "flood" }> => f.kind === "flood" && (f.topic === sensor || (sensor === "gps_vel" && f.topic === "gps")));
  inner.publish(msg);
  if (flood === undefined) return;
  const t0 = stampToNs((msg as unknown as Stamped).header.stamp);
  for (let k = 1; k < flood.factor; k++) {
    const copy = { ...(msg as unknown as Stamped), header: { ...(msg as unknown as Stamped).header, stamp: nsToStamp(t0 + BigInt(k) * 1000n) } };
    inner.publish(copy as unknown as T);
    counters.floodCopies++;
  }
}

/** One sensor message through the faults active at its stamp. */
function publishFaulted<T>(inner: Publisher<T>, sensor: Sensor, state: InjectorState, msg: T): void {
  const { counters } = state;
  const active = state.activeAt(stampToNs((msg as unknown as Stamped).header.stamp));
  const has = (kind: Fault["kind"]): boolean => active.some((f) => f.kind === kind);
  const out = (m: T): void => send(inner, sensor, counters, m, active);
  switch (sensor) {
    case "camera":
      return publishCamera(inner, state, msg, has, out);
    case "imu": {
      const spikes = active.find((f): f is Extract<Fault, { kind: "imu_spikes" }> => f.kind === "imu_spikes");
      if (spikes !== undefined && state.random() < spikes.probability) {
        counters.imuSpikes++;
        const m = msg as unknown as { linear_acceleration: Vec3 };
        const a = m.linear_acceleration;
        const n = Math.hypot(a.x, a.y, a.z) || 1;
        const s = spikes.magnitude_m_s2 / n;
        return out({ ...m, linear_acceleration: { x: a.x * s, y: a.y * s, z: a.z * s } } as unknown as T);
      }
      return out(msg);
    }
    case "gps":
      if (has("gps_loss")) {
        counters.gpsFixesLost++;
        const m = msg as unknown as { status: { status: number; service: number } };
        // sensor_msgs/NavSatStatus STATUS_NO_FIX = -1
        return out({ ...m, status: { ...m.status, status: -1 } } as unknown as T);
      }
      return out(msg);
    case "gps_vel":
      if (has("gps_loss")) {
        counters.gpsVelDropped++;
        return;
      }
      return out(msg);
  }
}

/** Camera faults: blackout drops the frame, freeze repeats the last frame, frozen pixels keep the stamp but not the pixels. */
function publishCamera<T>(inner: Publisher<T>, state: InjectorState, msg: T, has: (kind: Fault["kind"]) => boolean, out: (m: T) => void): void {
  const { counters } = state;
  if (has("camera_blackout")) {
    counters.framesBlackedOut++;
    return;
  }
  if (has("camera_freeze") && state.lastFrame !== undefined) {
    counters.framesFrozen++;
    inner.publish(state.lastFrame as T);
    return;
  }
  if (has("camera_frozen_pixels") && state.lastFrame !== undefined) {
    // This frame's header (fresh stamp), the last good frame's layout and pixel buffer
    // (the same Uint8Array: a driver republishing the buffer it holds).
    counters.framesFrozenPixels++;
    const old = state.lastFrame as FrameLayout;
    const m = msg as unknown as FrameLayout & Stamped;
    return out({ ...m, height: old.height, width: old.width, encoding: old.encoding, is_bigendian: old.is_bigendian, step: old.step, data: old.data } as unknown as T);
  }
  state.lastFrame = msg;
  return out(msg);
}
