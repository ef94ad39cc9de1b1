/**
 * Bag throughput: writing and reading rosbag2 MCAP bags of 256x256 rgb8 sensor_msgs/Image
 * messages (CDR), uncompressed and zstd, and sqlite3 (.db3) bags of the same messages, against a
 * plain fs.writeFileSync/readFileSync of the same bytes measured in the same run; small-message
 * rates (sensor_msgs/Imu) for MCAP and sqlite3; and play throughput of a 60 s synthetic flight into the
 * embedded graph (no nodes) in x real time. Targets (issue 7): write >= 200 MB/s uncompressed,
 * read >= 300 MB/s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Bag } from "../src/bag/BagReader";
import { BagWriter } from "../src/bag/BagWriter";
import { NodeBagFileSystem } from "../src/bag/node/NodeBagFileSystem";
import { offeredQosProfilesYaml } from "../src/bag/offeredQosProfiles";
import type { PlayClock } from "../src/bag/PlayScheduler";
import { encodeClock, playBag } from "../src/bag/playBag";
import { replayBag } from "../src/bag/replayBag";
import { controllerNode } from "../nodes/controller";
import { ACTIONS } from "../src/harness/actions";
import { activateIfLifecycle } from "../src/ros/launch/NodeFactory";
import { EmbeddedGraph } from "../src/ros/graph";
import { QOS_SENSOR_DATA } from "../src/ros/graph/types";
import { parse } from "@foxglove/rosmsg";
import { MessageWriter } from "@foxglove/rosmsg2-serialization";
import { defaultRegistry } from "../src/ros/msgs";

/** CDR of `value` with a writer built from the registry's schema text (the bytes a bag stores). */
const writers = new Map<string, MessageWriter>();
function cdr(type: string, value: unknown): Uint8Array {
  let w = writers.get(type);
  if (w === undefined) {
    w = new MessageWriter(parse(defaultRegistry().ros2msgText(type), { ros2: true }));
    writers.set(type, w);
  }
  return w.writeMessage(value);
}

const IMU = {
  header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "imu" },
  orientation: { x: 0, y: 0, z: 0, w: 1 },
  orientation_covariance: new Float64Array(9),
  angular_velocity: { x: 0.01, y: 0, z: 0 },
  angular_velocity_covariance: new Float64Array(9),
  linear_acceleration: { x: 0, y: 0, z: 9.81 },
  linear_acceleration_covariance: new Float64Array(9),
};

const W = 256;
const H = 256;
const FRAMES = 200;
const T0 = 1_700_000_000_000_000_000n;

/** A synthetic camera frame: sky gradient, ground, a few dark wires, mild noise (compressible like real images). */
function frame(i: number): Uint8Array {
  const data = new Uint8Array(W * H * 3);
  let seed = (i * 2654435761) >>> 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      const noise = (seed >>> 28) - 8;
      const o = (y * W + x) * 3;
      const ground = y > H / 2 + 10 * Math.sin((x + i) / 40);
      const wire = Math.abs(y - (60 + 0.2 * x + (i % 20))) < 1 || Math.abs(y - (90 + 0.1 * x)) < 1;
      const v = wire ? 30 : ground ? 90 + (x % 16) : 160 + (y >> 2);
      data[o] = Math.max(0, Math.min(255, v + noise));
      data[o + 1] = Math.max(0, Math.min(255, v + 10 + noise));
      data[o + 2] = Math.max(0, Math.min(255, (ground ? v - 20 : v + 40) + noise));
    }
  }
  return data;
}

function images(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < FRAMES; i++) {
    out.push(
      cdr("sensor_msgs/msg/Image", {
        header: { stamp: { sec: 1_700_000_000 + Math.floor(i / 30), nanosec: (i % 30) * 33_333_333 }, frame_id: "camera" },
        height: H,
        width: W,
        encoding: "rgb8",
        is_bigendian: 0,
        step: W * 3,
        data: frame(i),
      }),
    );
  }
  return out;
}

const REPS = 3;
const mbps = (bytes: number, ms: number): number => bytes / 1e6 / (ms / 1000);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** "none"/"zstd": MCAP with that chunk compression; "sqlite3": a .db3 bag (rosbag2's default preset). */
type Variant = "none" | "zstd" | "sqlite3";
const VARIANTS: readonly Variant[] = ["none", "zstd", "sqlite3"];

async function writeBag(dir: string, msgs: Uint8Array[], variant: Variant, type = "sensor_msgs/msg/Image", periodNs = 33_333_333n): Promise<number> {
  const reg = defaultRegistry();
  const t = performance.now();
  const w = await BagWriter.create({
    fs: new NodeBagFileSystem(),
    directory: dir,
    ...(variant === "sqlite3" ? { storage: "sqlite3" as const } : { compression: variant }),
  });
  await w.addTopic({
    topic: "/camera/image_raw",
    type,
    schemaText: reg.ros2msgText(type),
    offeredQosProfiles: offeredQosProfilesYaml([QOS_SENSOR_DATA]),
  });
  for (let i = 0; i < msgs.length; i++) await w.write("/camera/image_raw", T0 + BigInt(i) * periodNs, msgs[i]!);
  await w.close();
  return performance.now() - t;
}

async function readBag(dir: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  let bytes = 0;
  for await (const m of (await Bag.open(new NodeBagFileSystem(), dir)).messages()) bytes += m.data.byteLength;
  return { ms: performance.now() - t, bytes };
}

class InstantClock implements PlayClock {
  now = 0n;
  nowNs(): bigint {
    return this.now;
  }
  async sleepUntilNs(t: bigint): Promise<void> {
    if (t > this.now) this.now = t;
  }
}

/**
 * Regression replay speed: a 60 s flight (camera 30 Hz, IMU 200 Hz, policy 10 Hz) recorded with
 * the controller node's /cmd_vel_raw, replayed in lock-step on sim time through a fresh controller
 * and compared. Only the controller runs (perception and harness need trained models), so this
 * measures the replay machinery plus the controller, not the networks.
 */
async function replayBench(root: string, cam: Uint8Array, imu: Uint8Array, print: (line: string) => void): Promise<void> {
  const reg = defaultRegistry();
  const POLICY = "drone_harness_msgs/msg/StudentOutput";
  const CMD = "geometry_msgs/msg/TwistStamped";
  const start = async (graph: EmbeddedGraph) => {
    const launched = await controllerNode(graph, { name: "controller", namespace: "/", parameterOverrides: { use_sim_time: true }, remappings: {} });
    await activateIfLifecycle(launched);
    return launched;
  };
  const dir = path.join(root, "replay");
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  const launched = await start(graph);
  const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: dir, compression: "none" });
  for (const [topic, type] of [
    ["/camera/image_raw", "sensor_msgs/msg/Image"],
    ["/imu/data", "sensor_msgs/msg/Imu"],
    ["/harness/policy", POLICY],
    ["/cmd_vel_raw", CMD],
  ] as const) {
    await w.addTopic({ topic, type, schemaText: reg.ros2msgText(type), offeredQosProfiles: "" });
  }
  let now = T0;
  const outputs: [bigint, Uint8Array][] = [];
  graph.subscribeRaw("/cmd_vel_raw", (bytes) => outputs.push([now, bytes]));
  const logits = new Float32Array(ACTIONS.length);
  for (let ms = 0; ms < 60_000; ms += 5) {
    now = T0 + BigInt(ms) * 1_000_000n;
    const inputs: [string, string, Uint8Array][] = [["/imu/data", "sensor_msgs/msg/Imu", imu]];
    if (ms % 35 === 0) inputs.push(["/camera/image_raw", "sensor_msgs/msg/Image", cam]);
    if (ms % 100 === 0) {
      logits.fill(-1);
      logits[Math.floor(ms / 1000) % ACTIONS.length] = 2;
      const stamp = { sec: Number(now / 1_000_000_000n), nanosec: Number(now % 1_000_000_000n) };
      inputs.push([
        "/harness/policy",
        POLICY,
        cdr(POLICY, {
          header: { stamp, frame_id: "camera" },
          corrected: true,
          action_names: [...ACTIONS],
          action_logits: logits,
          grid_rows: 1,
          grid_cols: 1,
          class_names: ["wire"],
          cell_probs: new Float32Array(1),
          state: new Float32Array(0),
          pooled_size: 1,
          pooled_input: new Float32Array(4),
          image_width: 256,
          image_height: 256,
        }),
      ]);
    }
    for (const [topic, type, bytes] of inputs) {
      graph.publishRaw("/clock", "rosgraph_msgs/msg/Clock", encodeClock(now));
      graph.publishRaw(topic, type, bytes);
      await w.write(topic, now, bytes);
      graph.spinUntilIdle();
      for (const [t, b] of outputs.splice(0)) await w.write("/cmd_vel_raw", t, b);
    }
  }
  await w.close();
  await launched.stop();
  await graph.shutdown();

  const replayGraph = new EmbeddedGraph({ stderrLevel: "silent" });
  const replayed = await start(replayGraph);
  const t = performance.now();
  const result = await replayBag(await Bag.open(new NodeBagFileSystem(), dir), replayGraph, {
    compareTopics: ["/cmd_vel_raw"],
    decode: (type, bytes) => reg.deserialize(type, bytes),
  });
  const ms = performance.now() - t;
  await replayed.stop();
  await replayGraph.shutdown();
  const x = 60_000 / ms;
  print(
    `replay 60 s flight (${result.played} inputs, ${result.counts.get("/cmd_vel_raw")?.expected ?? 0} commands compared, ${result.equal ? "match" : "DIFFER"}) through the controller in lock-step: ${x.toFixed(1)}x real time (target >= 20x: ${x >= 20 ? "met" : "NOT met"}; controller only, no networks)`,
  );
}

/**
 * Large messages: the camera frames written and read as MCAP (none, zstd) and sqlite3 bags, against
 * plain fs calls on the same bytes. Every figure is the median of REPS runs, alternating with the
 * bag runs so machine load hits both alike.
 */
async function largeMessageBench(root: string, msgs: Uint8Array[], print: (line: string) => void): Promise<void> {
  const total = msgs.reduce((n, m) => n + m.byteLength, 0);
  const joined = Buffer.concat(msgs);
  const refW: number[] = [];
  const refR: number[] = [];
  const bagW = { none: [] as number[], zstd: [] as number[], sqlite3: [] as number[] };
  const bagR = { none: [] as number[], zstd: [] as number[], sqlite3: [] as number[] };
  const sizes = { none: 0, zstd: 0, sqlite3: 0 };
  for (let rep = 0; rep < REPS; rep++) {
    const refFile = path.join(root, `ref_${rep}.bin`);
    let t = performance.now();
    writeFileSync(refFile, joined);
    refW.push(performance.now() - t);
    t = performance.now();
    const back = readFileSync(refFile);
    refR.push(performance.now() - t);
    if (back.byteLength !== joined.byteLength) throw new Error("reference read size mismatch");
    rmSync(refFile);
    for (const compression of VARIANTS) {
      const name = `bag_${compression}_${rep}`;
      const dir = path.join(root, name);
      bagW[compression].push(await writeBag(dir, msgs, compression));
      const r = await readBag(dir);
      if (r.bytes !== total) throw new Error(`read ${r.bytes} bytes, wrote ${total}`);
      bagR[compression].push(r.ms);
      sizes[compression] = readFileSync(path.join(dir, `${name}_0.${compression === "sqlite3" ? "db3" : "mcap"}`)).byteLength;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const fsW = mbps(total, median(refW));
  const fsR = mbps(total, median(refR));
  print(`reference fs.writeFileSync ${fsW.toFixed(0)} MB/s, fs.readFileSync ${fsR.toFixed(0)} MB/s (median of ${REPS})`);
  for (const compression of VARIANTS) {
    const w = mbps(total, median(bagW[compression]));
    const rd = mbps(total, median(bagR[compression]));
    print(
      `${compression.padEnd(5)} write ${w.toFixed(0)} MB/s (${(w / fsW).toFixed(2)}x fs) | read ${rd.toFixed(0)} MB/s (${(rd / fsR).toFixed(2)}x fs) | file ${(sizes[compression] / 1e6).toFixed(1)} MB`,
    );
    if (compression === "none") {
      print(`  target write >= 200 MB/s: ${w >= 200 ? "met" : "NOT met"}; target read >= 300 MB/s: ${rd >= 300 ? "met" : "NOT met"}`);
    }
  }
  print(`  (none/zstd: MCAP chunk compression; sqlite3: .db3, rosbag2's default preset, ${(mbps(total, median(bagW.sqlite3)) / mbps(total, median(bagW.none))).toFixed(2)}x MCAP none write, ${(mbps(total, median(bagR.sqlite3)) / mbps(total, median(bagR.none))).toFixed(2)}x read)`);
}

/** Small messages: 20,000 sensor_msgs/Imu (200 Hz), where per-message cost dominates; MCAP and sqlite3. */
async function smallMessageBench(root: string, print: (line: string) => void): Promise<void> {
  const imuMsgs = Array.from({ length: 20_000 }, () => cdr("sensor_msgs/msg/Imu", IMU));
  const small = { none: { w: [] as number[], r: [] as number[] }, sqlite3: { w: [] as number[], r: [] as number[] } };
  for (let rep = 0; rep < REPS; rep++) {
    for (const variant of ["none", "sqlite3"] as const) {
      const dir = path.join(root, `imu_${variant}_${rep}`);
      small[variant].w.push(await writeBag(dir, imuMsgs, variant, "sensor_msgs/msg/Imu", 5_000_000n));
      small[variant].r.push((await readBag(dir)).ms);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const rate = (ms: number): string => `${((imuMsgs.length / ms) * 1000 / 1e3).toFixed(0)}k msg/s`;
  print(
    `20000 x sensor_msgs/Imu (${imuMsgs[0]!.byteLength} B): MCAP none write ${rate(median(small.none.w))}, read ${rate(median(small.none.r))} | sqlite3 write ${rate(median(small.sqlite3.w))}, read ${rate(median(small.sqlite3.r))} (median of ${REPS})`,
  );
}

/**
 * Play: a 60 s flight (camera 30 Hz, IMU 200 Hz) into the embedded graph with a typed camera
 * subscriber, as fast as possible (the schedule runs on an instant clock).
 */
async function playBench(root: string, cam: Uint8Array, imu: Uint8Array, print: (line: string) => void): Promise<void> {
  const flight = path.join(root, "flight");
  const reg = defaultRegistry();
  const w = await BagWriter.create({ fs: new NodeBagFileSystem(), directory: flight, compression: "none" });
  await w.addTopic({ topic: "/camera/image_raw", type: "sensor_msgs/msg/Image", schemaText: reg.ros2msgText("sensor_msgs/msg/Image"), offeredQosProfiles: "" });
  await w.addTopic({ topic: "/imu/data", type: "sensor_msgs/msg/Imu", schemaText: reg.ros2msgText("sensor_msgs/msg/Imu"), offeredQosProfiles: "" });
  for (let ms = 0; ms < 60_000; ms += 5) {
    const tns = T0 + BigInt(ms) * 1_000_000n;
    await w.write("/imu/data", tns, imu);
    if (ms % 35 === 0) await w.write("/camera/image_raw", tns, cam);
  }
  await w.close();
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  let frames = 0;
  graph.createNode("sink").createSubscription("sensor_msgs/msg/Image", "/camera/image_raw", {}, () => frames++);
  const target = {
    publishRaw: (...a: Parameters<EmbeddedGraph["publishRaw"]>) => {
      graph.publishRaw(...a);
      graph.spinUntilIdle();
    },
  };
  const t = performance.now();
  const res = await playBag(await Bag.open(new NodeBagFileSystem(), flight), target, new InstantClock(), { rate: 1e6 });
  const playMs = performance.now() - t;
  await graph.shutdown();
  print(`play 60 s flight (${res.published} messages, ${frames} decoded camera frames) into the embedded graph: ${(60_000 / playMs).toFixed(1)}x real time (bag + graph only, no nodes)`);
}

export async function run(print: (line: string) => void): Promise<void> {
  const msgs = images();
  const total = msgs.reduce((n, m) => n + m.byteLength, 0);
  const root = mkdtempSync(path.join(tmpdir(), "bag-bench-"));
  try {
    print(`${FRAMES} x sensor_msgs/Image 256x256 rgb8 (${(total / 1e6).toFixed(1)} MB of CDR)`);
    await largeMessageBench(root, msgs, print);
    await smallMessageBench(root, print);
    const imu = cdr("sensor_msgs/msg/Imu", IMU);
    const cam = msgs[0]!;
    await playBench(root, cam, imu, print);
    await replayBench(root, cam, imu, print);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
