/**
 * The Image loop that `npm run bench -- dds` times on each transport: a sender publishes
 * 256x256 rgb8 sensor_msgs/msg/Image stamped with the monotonic clock (process.hrtime, the same
 * CLOCK_MONOTONIC in every process on the host), and a receiver answers each one on /bench/ack
 * with the one-way latency it measured. Shared by the bench (sender) and ddsBenchPeer (receiver).
 */
import type { QoSProfile, RosNode } from "../src/ros/graph";

export const IMAGE_TOPIC = "/bench/image";
export const ACK_TOPIC = "/bench/ack";
/** Reliable, keep last 32 both ways, so the throughput phase drops nothing and blocks nothing. */
export const BENCH_QOS: QoSProfile = { history: "keep_last", depth: 32, reliability: "reliable", durability: "volatile" };

type Stamp = { sec: number; nanosec: number };
type BenchImage = { header: { stamp: Stamp; frame_id: string }; height: number; width: number; encoding: string; is_bigendian: number; step: number; data: Uint8Array };

export function monotonicStamp(): Stamp {
  const ns = process.hrtime.bigint();
  return { sec: Number(ns / 1_000_000_000n), nanosec: Number(ns % 1_000_000_000n) };
}

/** The receiver: every Image is answered with "<latency ns>" on the ack topic. */
export function startReceiver(node: RosNode): void {
  const ack = node.createPublisher<{ data: string }>("std_msgs/msg/String", ACK_TOPIC, { qos: BENCH_QOS });
  node.createSubscription<BenchImage>("sensor_msgs/msg/Image", IMAGE_TOPIC, { qos: BENCH_QOS }, (m) => {
    const sent = BigInt(m.header.stamp.sec) * 1_000_000_000n + BigInt(m.header.stamp.nanosec);
    ack.publish({ data: String(process.hrtime.bigint() - sent) });
  });
}

export type LoopResult = { latenciesMs: number[]; imagesPerSecond: number; bytesPerImage: number };

/**
 * The sender: waits until the receiver answers, then 300 images one at a time (latency, after 50
 * warm-up), then `total` images with at most 16 in flight (throughput, Images/s at the receiver).
 */
export async function runSender(node: RosNode, options: { total: number; serializedSize: number; timeoutMs?: number }): Promise<LoopResult> {
  const image: BenchImage = {
    header: { stamp: monotonicStamp(), frame_id: "camera" },
    height: 256,
    width: 256,
    encoding: "rgb8",
    is_bigendian: 0,
    step: 768,
    data: new Uint8Array(256 * 256 * 3).map((_, i) => (i * 7) & 0xff),
  };
  const pub = node.createPublisher<BenchImage>("sensor_msgs/msg/Image", IMAGE_TOPIC, { qos: BENCH_QOS });
  let acks = 0;
  let lastLatencyNs = 0;
  let wake: () => void = () => undefined;
  node.createSubscription<{ data: string }>("std_msgs/msg/String", ACK_TOPIC, { qos: BENCH_QOS }, (m) => {
    acks++;
    lastLatencyNs = Number(m.data);
    wake();
  });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const waitAcks = (count: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (acks >= count) resolve();
        else if (Date.now() > deadline) reject(new Error(`bench: ${acks} acks, waiting for ${count}: the receiver does not answer`));
      };
      wake = check;
      check();
      setTimeout(check, 1000).unref();
    });
  const send = (): void => {
    image.header.stamp = monotonicStamp();
    pub.publish(image);
  };
  // Discovery: publish until the first answer.
  while (acks === 0) {
    send();
    await Promise.race([waitAcks(1), new Promise((r) => setTimeout(r, 100))]);
  }
  const latenciesMs: number[] = [];
  for (let i = 0; i < 350; i++) {
    const before = acks;
    send();
    await waitAcks(before + 1);
    if (i >= 50) latenciesMs.push(lastLatencyNs / 1e6);
  }
  const start = acks;
  let sent = 0;
  const t0 = process.hrtime.bigint();
  while (sent < options.total) {
    while (sent < options.total && sent - (acks - start) < 16) {
      send();
      sent++;
    }
    await waitAcks(start + Math.min(options.total, sent - 8));
  }
  await waitAcks(start + options.total);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { latenciesMs, imagesPerSecond: options.total / seconds, bytesPerImage: options.serializedSize };
}
