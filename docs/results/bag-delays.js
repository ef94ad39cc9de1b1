// Delay from each camera frame to the messages made from it, in a bag recorded beside a running
// node (one recorder, one clock): for every topic given, the log time of its message minus the
// log time of the /camera/image_raw message with the same header stamp; p50 / max per topic, and
// how many frames got one; the rate the frames were received at. Usage, after `npm run build`:
//   node docs/results/bag-delays.js <bag dir> /harness/obstacles_raw /perception/wire_map
const { Bag } = require("../../dist/src/bag/BagReader");
const { NodeBagFileSystem } = require("../../dist/src/bag/node/NodeBagFileSystem");
const { defaultRegistry } = require("../../dist/src/ros/msgs");

async function main([dir, ...topics]) {
  const reg = defaultRegistry();
  const key = (h) => `${h.stamp.sec}.${h.stamp.nanosec}`;
  const frames = new Map();
  const outs = new Map(topics.map((t) => [t, []]));
  for await (const m of (await Bag.open(new NodeBagFileSystem(), dir)).messages()) {
    if (m.topic !== "/camera/image_raw" && !outs.has(m.topic)) continue;
    const { header } = reg.deserialize(m.channel.type, m.data);
    if (m.topic === "/camera/image_raw") frames.set(key(header), m.logTimeNs);
    else outs.get(m.topic).push([key(header), m.logTimeNs]);
  }
  const t = [...frames.values()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const hz = t.length > 1 ? ((t.length - 1) / (Number(t[t.length - 1] - t[0]) / 1e9)).toFixed(1) : "-";
  console.log(`${frames.size} camera frames, received at ${hz} Hz`);
  for (const [topic, list] of outs) {
    const ms = list.filter(([k]) => frames.has(k)).map(([k, t]) => Number(t - frames.get(k)) / 1e6).sort((a, b) => a - b);
    const p50 = ms.length ? ms[Math.floor((ms.length - 1) / 2)].toFixed(1) : "-";
    const max = ms.length ? ms[ms.length - 1].toFixed(1) : "-";
    console.log(`${topic}: ${ms.length} of ${frames.size} frames, delay from the frame p50 ${p50} ms, max ${max} ms`);
  }
}
main(process.argv.slice(2)).catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
