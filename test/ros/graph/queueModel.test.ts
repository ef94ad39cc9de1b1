import fc from "fast-check";

import { EmbeddedGraph } from "../../../src/ros/graph";
import type { QoSProfile } from "../../../src/ros/graph";

/**
 * Property test of the executor's queues against a reference model: for random interleavings of
 * publishes on three topics and spinOnce calls, with random keep_last depths, every subscription
 * receives exactly what a per-subscription FIFO of capacity `depth` (dropping the oldest) would
 * hold at each spin, and callbacks across subscriptions run in global publish order.
 */
describe("subscription queues (model-based)", () => {
  it("match a keep_last FIFO per subscription and global publish order", () => {
    const runs = Number(process.env.FUZZ_RUNS ?? 150);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant(-1)), { maxLength: 60 }),
        (depths, ops) => {
          const g = new EmbeddedGraph({ stderrLevel: "silent" });
          const n = g.createNode("n");
          const topics = ["/a", "/b", "/c"];
          const got: string[] = [];
          const model: string[][] = [[], [], []];
          const expected: string[] = [];
          const subs = topics.map((t, i) => {
            const qos: QoSProfile = { history: "keep_last", depth: depths[i] ?? 1, reliability: "best_effort", durability: "volatile" };
            return n.createSubscription<{ data: string }>("std_msgs/msg/String", t, { qos }, (m) => got.push(m.data));
          });
          const pubs = topics.map((t) => n.createPublisher<{ data: string }>("std_msgs/msg/String", t));
          let seq = 0;
          let dropped = 0;
          for (const op of ops) {
            if (op < 0) {
              // spinOnce delivers what is queued, in publish order (sequence numbers are global).
              const all = model.flatMap((q) => q).sort((x, y) => Number(x.split(":")[1]) - Number(y.split(":")[1]));
              expected.push(...all);
              for (const q of model) q.length = 0;
              g.spinOnce();
            } else {
              const msg = `${topics[op]}:${seq++}`;
              pubs[op]?.publish({ data: msg });
              const q = model[op] ?? [];
              q.push(msg);
              if (q.length > (depths[op] ?? 1)) {
                q.shift();
                dropped++;
              }
            }
          }
          expect(got).toEqual(expected);
          const droppedTotal = subs.reduce((s, sub) => s + (sub as unknown as { droppedCount: number }).droppedCount, 0);
          expect(droppedTotal).toBe(dropped);
        },
      ),
      { numRuns: runs, seed: 20260530 },
    );
  });
});
