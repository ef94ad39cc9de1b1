/**
 * DDS transport benchmark (issue 15, item 5): 256x256 rgb8 sensor_msgs/msg/Image (196,660 CDR
 * bytes) publish -> subscription callback, p50/p99 one-way latency and Images/s,
 *  - over Cyclone DDS between two processes (this one sends, bench/ddsBenchPeer.js receives and
 *    answers each image on /bench/ack), loopback, reliable keep-last-32;
 *  - on the embedded graph in this one process, same loop, same run (the reference).
 * Latency is measured by the receiver against the sender's stamp on the shared monotonic clock.
 * Target (issue 15): DDS p50 <= 1 ms and >= 500 Images/s on this 2-core machine. Then the
 * real-time camera rate of launch/sim.launch.xml per process layout (bench/realtimeRates.ts).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { percentile } from "../src/harness/eval/Percentiles";
import { DdsGraph } from "../src/ros/dds";
import { EmbeddedGraph } from "../src/ros/graph";
import type { EmbeddedGraphOptions } from "../src/ros/graph";
import { runSender, startReceiver } from "./ddsImageLoop";
import type { LoopResult } from "./ddsImageLoop";
import { run as realtimeRates } from "./realtimeRates";

const TOTAL = 2000;
const IMAGE_BYTES = 196_660;

function line(label: string, r: LoopResult): string {
  const mb = (r.imagesPerSecond * r.bytesPerImage) / 1e6;
  return `${label.padEnd(34)} p50 ${percentile(r.latenciesMs, 50).toFixed(3)} ms  p99 ${percentile(r.latenciesMs, 99).toFixed(3)} ms  ${r.imagesPerSecond.toFixed(0)} Images/s  ${mb.toFixed(0)} MB/s  (n=${r.latenciesMs.length})`;
}

async function embedded(options: EmbeddedGraphOptions): Promise<LoopResult> {
  const graph = new EmbeddedGraph({ stderrLevel: "silent", ...options });
  graph.spin();
  try {
    startReceiver(graph.createNode("bench_receiver"));
    return await runSender(graph.createNode("bench_sender"), { total: TOTAL, serializedSize: IMAGE_BYTES });
  } finally {
    await graph.shutdown();
  }
}

async function acrossProcesses(): Promise<LoopResult> {
  const peer = spawn(process.execPath, [join(__dirname, "ddsBenchPeer.js")], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      peer.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      peer.on("exit", (code) => reject(new Error(`bench receiver exited (${String(code)}) before it was ready`)));
    });
    const graph = new DdsGraph({ stderrLevel: "silent" });
    graph.spin();
    try {
      return await runSender(graph.createNode("bench_sender"), { total: TOTAL, serializedSize: IMAGE_BYTES });
    } finally {
      await graph.shutdown();
    }
  } finally {
    peer.stdin.end();
    await new Promise((resolve) => peer.once("exit", resolve));
  }
}

export async function run(print: (line: string) => void): Promise<void> {
  print(`256x256 rgb8 Image (${IMAGE_BYTES} B CDR), publish -> callback, ${TOTAL} images at <= 16 in flight for Images/s`);
  print(line("embedded, one process (intra)", await embedded({ intraProcess: true })));
  print(line("embedded, one process (CDR copy)", await embedded({ intraProcess: false })));
  print(line("Cyclone DDS, two processes", await acrossProcesses()));
  print("target (issue 15): DDS p50 <= 1 ms, >= 500 Images/s");
  await realtimeRates(print);
}
