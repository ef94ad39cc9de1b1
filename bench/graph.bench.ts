/**
 * Embedded graph benchmark (issue 2): publish-to-callback latency and throughput for a 256x256
 * rgb8 sensor_msgs/msg/Image, intra-process (validated object shared with the subscriber) and with
 * CDR serialization + deserialization forced (what crossing a process costs, minus the socket).
 * Reference, measured in the same run: Buffer.copy of the same number of bytes.
 * Targets (issue 2): p50 < 0.3 ms and > 2,000 Images/s.
 */
import { EmbeddedGraph, QOS_DEFAULT } from "../src/ros/graph";
import type { Msg } from "../src/ros/msgs/generated";

const WIDTH = 256;
const HEIGHT = 256;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

type Result = { p50Ms: number; p99Ms: number; perSecond: number };

function summarize(samplesNs: Float64Array, totalNs: number): Result {
  const sorted = Float64Array.from(samplesNs).sort();
  return { p50Ms: percentile(sorted, 50) / 1e6, p99Ms: percentile(sorted, 99) / 1e6, perSecond: samplesNs.length / (totalNs / 1e9) };
}

type Setup = {
  graph: EmbeddedGraph;
  image: Msg<"sensor_msgs/msg/Image">;
  publish: () => void;
  onReceive: (cb: () => void) => void;
};

function setup(intraProcess: boolean): Setup {
  const graph = new EmbeddedGraph({ stderrLevel: "silent", intraProcess });
  const cam = graph.createNode("bench_camera");
  const sink = graph.createNode("bench_perception");
  const data = new Uint8Array(WIDTH * HEIGHT * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
  const image: Msg<"sensor_msgs/msg/Image"> = {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "camera_optical" },
    height: HEIGHT,
    width: WIDTH,
    encoding: "rgb8",
    is_bigendian: 0,
    step: WIDTH * 3,
    data,
  };
  let onReceive: () => void = () => undefined;
  sink.createSubscription<Msg<"sensor_msgs/msg/Image">>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_DEFAULT }, (m) => {
    if (m.data.length !== WIDTH * HEIGHT * 3) throw new Error(`benchmark image has ${m.data.length} bytes`);
    onReceive();
  });
  const pub = cam.createPublisher<Msg<"sensor_msgs/msg/Image">>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_DEFAULT });
  return { graph, image, publish: () => pub.publish(image), onReceive: (cb) => (onReceive = cb) };
}

/** Lock-step: publish, then spinOnce runs the callback synchronously. */
function measureLockStep(intraProcess: boolean, iterations: number, warmup: number): Result {
  const { graph, image, publish, onReceive } = setup(intraProcess);
  let receivedAt = 0n;
  let received = 0;
  onReceive(() => {
    receivedAt = process.hrtime.bigint();
    received++;
  });
  const samples = new Float64Array(iterations);
  let total = 0n;
  for (let i = -warmup; i < iterations; i++) {
    image.header.stamp.nanosec = (i + warmup) % 1_000_000_000;
    const t0 = process.hrtime.bigint();
    publish();
    graph.spinOnce();
    if (i >= 0) {
      samples[i] = Number(receivedAt - t0);
      total += process.hrtime.bigint() - t0;
    }
  }
  if (received !== iterations + warmup) throw new Error(`benchmark subscriber got ${received} of ${iterations + warmup} images`);
  return summarize(samples, Number(total));
}

/** Real time: the executor runs on the event loop (spin()); one image in flight at a time. */
async function measureRealTime(intraProcess: boolean, iterations: number, warmup: number): Promise<Result> {
  const { graph, image, publish, onReceive } = setup(intraProcess);
  let wake: (() => void) | undefined;
  let receivedAt = 0n;
  onReceive(() => {
    receivedAt = process.hrtime.bigint();
    wake?.();
  });
  graph.spin();
  const samples = new Float64Array(iterations);
  let total = 0n;
  for (let i = -warmup; i < iterations; i++) {
    image.header.stamp.nanosec = (i + warmup) % 1_000_000_000;
    const arrived = new Promise<void>((resolve) => (wake = resolve));
    const t0 = process.hrtime.bigint();
    publish();
    await arrived;
    if (i >= 0) {
      samples[i] = Number(receivedAt - t0);
      total += process.hrtime.bigint() - t0;
    }
  }
  graph.stop();
  await graph.shutdown();
  return summarize(samples, Number(total));
}

function measureCopy(iterations: number, warmup: number): Result {
  const bytes = WIDTH * HEIGHT * 3;
  const src = Buffer.alloc(bytes, 7);
  const dst = Buffer.alloc(bytes);
  const samples = new Float64Array(iterations);
  let total = 0n;
  for (let i = -warmup; i < iterations; i++) {
    src[0] = i & 0xff;
    const t0 = process.hrtime.bigint();
    src.copy(dst);
    const t1 = process.hrtime.bigint();
    if (i >= 0) {
      samples[i] = Number(t1 - t0);
      total += t1 - t0;
    }
  }
  return summarize(samples, Number(total));
}

export async function run(print: (line: string) => void): Promise<void> {
  const copy = measureCopy(3000, 300);
  const intra = measureLockStep(true, 3000, 300);
  const cdr = measureLockStep(false, 1000, 100);
  const intraRt = await measureRealTime(true, 2000, 200);
  const cdrRt = await measureRealTime(false, 1000, 100);
  const row = (name: string, r: Result): string =>
    `${name.padEnd(46)} p50 ${r.p50Ms.toFixed(4)} ms  p99 ${r.p99Ms.toFixed(4)} ms  ${Math.round(r.perSecond).toString().padStart(8)} /s  p50 x${(r.p50Ms / copy.p50Ms).toFixed(1)} of copy`;
  print(`256x256 rgb8 sensor_msgs/msg/Image (${WIDTH * HEIGHT * 3} bytes of pixels), publish -> subscription callback`);
  print(row("reference: Buffer.copy of the pixel bytes", copy));
  print(row("lock-step, intra-process (validated)", intra));
  print(row("lock-step, CDR serialize + deserialize", cdr));
  print(row("real-time spin(), intra-process", intraRt));
  print(row("real-time spin(), CDR serialize + deserialize", cdrRt));
  const verdict = (ok: boolean): string => (ok ? "met" : "NOT met");
  const all: Array<[string, Result]> = [
    ["lock-step intra", intra],
    ["lock-step CDR", cdr],
    ["real-time intra", intraRt],
    ["real-time CDR", cdrRt],
  ];
  print(`target p50 < 0.3 ms: ${all.map(([n, r]) => `${n} ${verdict(r.p50Ms < 0.3)}`).join(", ")}`);
  print(`target > 2000 Images/s: ${all.map(([n, r]) => `${n} ${verdict(r.perSecond > 2000)}`).join(", ")}`);
}
