/**
 * The receiving process of `npm run bench -- dds`: a DdsGraph with one node that answers every
 * /bench/image on /bench/ack (ddsImageLoop.ts). Exits on SIGTERM or when stdin closes.
 */
import { DdsGraph } from "../src/ros/dds";
import { startReceiver } from "./ddsImageLoop";

const graph = new DdsGraph({ stderrLevel: "warn" });
graph.spin();
startReceiver(graph.createNode("bench_receiver"));
process.stdout.write("ready\n");
const stop = (): void => {
  graph.shutdown().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
