/**
 * Introspection socket benchmark (issue 2, item 6): what `bag record` and `topic echo` get from a
 * running launch. 256x256 rgb8 sensor_msgs/msg/Image CDR bytes (196,660 bytes) are published raw
 * on the embedded graph and received by a GraphClient over the Unix socket, server and client in
 * this one process (so both ends share the CPU; two processes would overlap them).
 *  - latency: publish -> client callback, one message in flight, p50/p99;
 *  - throughput: 16 messages in flight, messages/s and MB/s;
 *  - the other direction, GraphClient.publishRaw into the launch's graph (what `bag play` without
 *    --launch does): each publish awaited before the next (as bag play), and 16 in flight.
 * Reference, measured in the same run: Buffer.copy of the same bytes (a memory-bandwidth floor).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedGraph } from "../src/ros/graph";
import { GraphClient, GraphServer, socketFileName } from "../src/ros/ipc";
import { launchIntrospection } from "../src/ros/launch/launchIntrospection";

const TOPIC = "/camera/image_raw";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** CDR of a 256x256 rgb8 sensor_msgs/msg/Image (196,660 bytes). */
function imageBytes(graph: EmbeddedGraph): Uint8Array {
  const data = new Uint8Array(256 * 256 * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) & 0xff;
  return graph.registry.serialize("sensor_msgs/msg/Image", {
    header: { stamp: { sec: 1, nanosec: 0 }, frame_id: "camera" },
    height: 256,
    width: 256,
    encoding: "rgb8",
    is_bigendian: 0,
    step: 768,
    data,
  });
}

/**
 * Graph -> client: latency with one message in flight, throughput with 16, and the Buffer.copy
 * reference. Returns the message count and reference time the other direction is compared with.
 */
async function benchToClient(graph: EmbeddedGraph, client: GraphClient, bytes: Uint8Array, print: (line: string) => void): Promise<{ total: number; refSeconds: number }> {
  let received = 0;
  let onReceive: () => void = () => undefined;
  await client.subscribeRaw(TOPIC, (m) => {
    if (m.bytes.byteLength !== bytes.byteLength) throw new Error(`received ${m.bytes.byteLength} bytes, sent ${bytes.byteLength}`);
    received++;
    onReceive();
  });
  const waitFor = (count: number): Promise<void> =>
    new Promise((resolve) => {
      if (received >= count) return resolve();
      onReceive = () => {
        if (received >= count) resolve();
      };
    });

  // Latency, one in flight (after 50 warm-up messages).
  const latencies: number[] = [];
  for (let i = 0; i < 350; i++) {
    const t0 = process.hrtime.bigint();
    graph.publishRaw(TOPIC, "sensor_msgs/msg/Image", bytes);
    await waitFor(received + 1);
    if (i >= 50) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  latencies.sort((a, b) => a - b);

  // Throughput, 16 in flight.
  const total = 2000;
  const start = received;
  const t0 = process.hrtime.bigint();
  let sent = 0;
  while (sent < total) {
    while (sent < total && sent - (received - start) < 16) {
      graph.publishRaw(TOPIC, "sensor_msgs/msg/Image", bytes);
      sent++;
    }
    await waitFor(start + Math.min(total, sent - 8));
  }
  await waitFor(start + total);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;

  // Reference: Buffer.copy of the same bytes, same count.
  const src = Buffer.from(bytes);
  const dst = Buffer.allocUnsafe(src.length);
  const r0 = process.hrtime.bigint();
  for (let i = 0; i < total; i++) src.copy(dst);
  const refSeconds = Number(process.hrtime.bigint() - r0) / 1e9;

  const mb = (bytes.byteLength * total) / 1e6;
  print(`Image ${bytes.byteLength} B over the introspection socket (server + client in one process)`);
  print(`  latency publish->client: p50 ${percentile(latencies, 50).toFixed(3)} ms  p99 ${percentile(latencies, 99).toFixed(3)} ms  (n=${latencies.length})`);
  print(`  throughput: ${(total / seconds).toFixed(0)} Images/s  ${(mb / seconds).toFixed(0)} MB/s`);
  print(`  reference Buffer.copy: ${(total / refSeconds).toFixed(0)} copies/s  ${(mb / refSeconds).toFixed(0)} MB/s  (socket/copy = ${(refSeconds / seconds).toFixed(3)})`);
  print(`  a 30 Hz camera needs 30 Images/s: headroom x${(total / seconds / 30).toFixed(0)}`);
  return { total, refSeconds };
}

/** Client -> launch: publishRaw over the socket into the graph, counted at a raw subscriber; each awaited, then 16 in flight. */
async function benchFromClient(graph: EmbeddedGraph, client: GraphClient, bytes: Uint8Array, ref: { total: number; refSeconds: number }, print: (line: string) => void): Promise<void> {
  const { total, refSeconds } = ref;
  const mb = (bytes.byteLength * total) / 1e6;
  let delivered = 0;
  const inGraph = graph.subscribeRaw("/played/image_raw", () => delivered++, { qos: { history: "keep_all", depth: 0, reliability: "reliable", durability: "volatile" } });
  const awaited = 500;
  const a0 = process.hrtime.bigint();
  for (let i = 0; i < awaited; i++) await client.publishRaw("/played/image_raw", "sensor_msgs/msg/Image", bytes);
  const awaitedSeconds = Number(process.hrtime.bigint() - a0) / 1e9;
  const p0 = process.hrtime.bigint();
  const inFlight: Array<Promise<void>> = [];
  for (let i = 0; i < total; i++) {
    inFlight.push(client.publishRaw("/played/image_raw", "sensor_msgs/msg/Image", bytes));
    if (inFlight.length >= 16) await inFlight.shift();
  }
  await Promise.all(inFlight);
  const pipelinedSeconds = Number(process.hrtime.bigint() - p0) / 1e9;
  while (delivered < awaited + total) await new Promise<void>((resolve) => setImmediate(resolve));
  inGraph.destroy();
  print(`Image ${bytes.byteLength} B published by a client into the launch's graph (GraphClient.publishRaw)`);
  print(`  each awaited (as bag play): ${(awaited / awaitedSeconds).toFixed(0)} Images/s  ${((bytes.byteLength * awaited) / 1e6 / awaitedSeconds).toFixed(0)} MB/s`);
  print(`  16 in flight: ${(total / pipelinedSeconds).toFixed(0)} Images/s  ${(mb / pipelinedSeconds).toFixed(0)} MB/s  (socket/copy = ${(refSeconds / pipelinedSeconds).toFixed(3)})`);
}

export async function run(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "dh-ipc-bench-"));
  const graph = new EmbeddedGraph({ stderrLevel: "silent" });
  graph.spin();
  const server = new GraphServer(launchIntrospection(graph, () => undefined, { pid: process.pid, launchFile: "bench", startedAtMs: Date.now() }));
  await server.listen(join(dir, "s", socketFileName(process.pid)));
  const client = await GraphClient.connect({ dir: join(dir, "s") });
  try {
    const bytes = imageBytes(graph);
    const ref = await benchToClient(graph, client, bytes, print);
    await benchFromClient(graph, client, bytes, ref, print);
  } finally {
    client.close();
    await server.close();
    await graph.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}
