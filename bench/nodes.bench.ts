/**
 * End-to-end node latency (issue 6, item 4): wall time from a camera Image being published to
 * the /cmd_vel command for that frame (matched by header stamp) arriving at a subscriber, through
 * perception -> [harness] -> controller -> safety on the embedded graph (lock-step, sim time,
 * intra-process). Two arms in the same run, same frames:
 *   student only:  perception -> controller (controller remapped to harness/student_output)
 *   with harness:  perception -> harness -> controller
 * (frames alternate between the two arms) with the full-size student and harness networks (src/harness defaults; weights untrained, the
 * cost is the same) on the backend initBackend() picks. Reports p50/p99, the harness overhead
 * ratio, and peak RSS of the process.
 */
import { HarnessNet, Student, initBackend } from "../src/harness";
import { HarnessCorrector } from "../nodes/common/models/HarnessCorrector";
import { StudentDetector } from "../nodes/common/models/StudentDetector";
import type { TwistStamped } from "../nodes/common/sensors/sensorTypes";
import { createNodeRegistry } from "../nodes";
import { EmbeddedGraph } from "../src/ros/graph";
import { nsToStamp } from "../src/util/time";
import { activateIfLifecycle, type LaunchedNode } from "../src/ros/launch/NodeFactory";

const FRAME_NS = 33_333_333n;
const WARMUP = 10;
const FRAMES = 60;

function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? Number.NaN;
}

/** A deterministic 256x256 rgb8 frame: sky gradient with a dark wire whose height moves. */
function frame(k: number): Uint8Array {
  const data = new Uint8Array(256 * 256 * 3);
  for (let y = 0; y < 256; y++) {
    for (let x = 0; x < 256; x++) {
      const i = (y * 256 + x) * 3;
      const wire = Math.abs(y - 100 - ((x + 3 * k) % 40) / 4) < 1.5;
      data[i] = wire ? 30 : 110 + (y >> 2);
      data[i + 1] = wire ? 30 : 140 + (y >> 2);
      data[i + 2] = wire ? 35 : 210;
    }
  }
  return data;
}

/** One pipeline on its own graph, fed frame by frame; latencies of frames after the warm-up. */
class Pipeline {
  readonly latencies: number[] = [];
  private readonly graph = new EmbeddedGraph({ stderrLevel: "silent" });
  private readonly launched: LaunchedNode[] = [];
  private pending: { stampNs: bigint; t0: bigint } | undefined;
  private readonly sim = this.graph.createNode("bench_sim");
  private readonly clock = this.sim.createPublisher("rosgraph_msgs/msg/Clock", "/clock");
  private readonly cam = this.sim.createPublisher("sensor_msgs/msg/Image", "/camera/image_raw");
  private readonly imu = this.sim.createPublisher("sensor_msgs/msg/Imu", "/imu/data");
  private readonly fix = this.sim.createPublisher("sensor_msgs/msg/NavSatFix", "/gps/fix");
  private readonly vel = this.sim.createPublisher("geometry_msgs/msg/TwistStamped", "/gps/vel");

  constructor(private readonly withHarness: boolean) {
    this.graph.createNode("bench_sink").createSubscription<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel", {}, (m) => {
      const s = BigInt(m.header.stamp.sec) * 1_000_000_000n + BigInt(m.header.stamp.nanosec);
      if (this.pending !== undefined && s === this.pending.stampNs) {
        this.latencies.push(Number(process.hrtime.bigint() - this.pending.t0) / 1e6);
        this.pending = undefined;
      }
    });
  }

  async start(student: Student, harness: HarnessNet): Promise<void> {
    const registry = createNodeRegistry({
      detector: ({ width, height }) => new StudentDetector(student, width, height, { ownsModel: false }),
      corrector: () => new HarnessCorrector(harness, { ownsModel: false }),
    });
    const add = async (exec: string, remappings: Record<string, string> = {}): Promise<void> => {
      const f = registry[exec];
      if (f === undefined) throw new Error(`no node ${exec}`);
      const l = await f(this.graph, { name: exec, namespace: "/", parameterOverrides: { use_sim_time: true, max_accel_m_s2: 0 }, remappings });
      await activateIfLifecycle(l);
      this.launched.push(l);
    };
    await add("perception");
    if (this.withHarness) await add("harness");
    await add("controller", this.withHarness ? {} : { "harness/policy": "harness/student_output", "harness/obstacles": "harness/obstacles_raw" });
    await add("safety");
  }

  /** Publishes sensors for frame k, then the image, and spins until the command is out. */
  frame(k: number, data: Uint8Array): void {
    const t = BigInt(k) * FRAME_NS;
    const stamp = nsToStamp(t);
    const cov = new Float64Array(9);
    this.clock.publish({ clock: stamp });
    this.imu.publish({
      header: { stamp, frame_id: "imu_link" }, orientation: { x: 0, y: 0, z: 0, w: 1 }, orientation_covariance: cov,
      angular_velocity: { x: 0, y: 0, z: 0.01 * k }, angular_velocity_covariance: cov,
      linear_acceleration: { x: 0.1, y: 0, z: 9.81 }, linear_acceleration_covariance: cov,
    });
    this.fix.publish({ header: { stamp, frame_id: "gps" }, status: { status: 0, service: 1 }, latitude: 47.4, longitude: 8.5, altitude: 500 + 0.05 * k, position_covariance: cov, position_covariance_type: 0 });
    this.vel.publish({ header: { stamp, frame_id: "map" }, twist: { linear: { x: 3, y: 0.1, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
    this.graph.spinUntilIdle();
    this.pending = { stampNs: t, t0: process.hrtime.bigint() };
    this.cam.publish({ header: { stamp, frame_id: "camera_optical" }, height: 256, width: 256, encoding: "rgb8", is_bigendian: 0, step: 768, data });
    this.graph.spinUntilIdle();
    if (k <= WARMUP) this.latencies.length = 0;
  }

  async stop(): Promise<void> {
    for (const l of this.launched) await l.stop();
    await this.graph.shutdown();
  }
}

export async function run(print: (line: string) => void): Promise<void> {
  const backend = await initBackend();
  print(`nodes: camera Image published -> /cmd_vel received, 256x256 rgb8, embedded graph lock-step, backend ${backend.name}`);
  const student = new Student();
  const harness = new HarnessNet();
  const base = new Pipeline(false);
  const withHarness = new Pipeline(true);
  await base.start(student, harness);
  await withHarness.start(student, harness);
  // Frames alternate between the arms (order swapped every frame), so both see the same machine
  // load: on a shared 2-core machine the absolute times drift, the paired ratio much less.
  for (let k = 1; k <= WARMUP + FRAMES; k++) {
    const data = frame(k);
    const order = k % 2 === 0 ? [base, withHarness] : [withHarness, base];
    for (const p of order) p.frame(k, data);
  }
  await base.stop();
  await withHarness.stop();
  const arms: Array<[string, number[]]> = [
    ["student only (perception -> controller -> safety)", base.latencies],
    ["with harness (perception -> harness -> controller -> safety)", withHarness.latencies],
  ];
  for (const [name, l] of arms) {
    print(`  ${name}: frames ${l.length}, p50 ${percentile(l, 0.5).toFixed(2)} ms, p99 ${percentile(l, 0.99).toFixed(2)} ms`);
  }
  const b = base.latencies, withH = withHarness.latencies;
  if (b.length === 0 || withH.length === 0) throw new Error("no /cmd_vel matched a camera frame: the pipeline did not run");
  print(`  harness overhead (p50 ratio with/without): ${(percentile(withH, 0.5) / percentile(b, 0.5)).toFixed(3)}`);
  print(`  peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
