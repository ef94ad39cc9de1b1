/**
 * A crash during recording loses at most the last chunk (issue 8, item 5): the sensor and command
 * topics of a lock-step closed-loop flight (flight.ts) are written to an MCAP bag by BagWriter; the
 * writer is "killed" after k messages (the file is taken as it is, never closed, so it has no
 * summary or footer) and `recoverMcap` (what `drone-harness bag recover` runs) rebuilds a valid
 * file. The recovered messages are the first ones written, byte for byte, and the loss is at most
 * what fits in one unfinished chunk.
 */
import { BagWriter } from "../../src/bag/BagWriter";
import { McapIndexedReader, loadDecompressHandlers } from "../../src/bag/mcap";
import { recoverMcap } from "../../src/bag/recoverMcap";
import { defaultRegistry } from "../../src/ros/msgs";
import { MemoryBagFileSystem, bytesReadable } from "../bag/MemoryBagFileSystem";
import { startFlight } from "./flight";

const TOPICS = [
  { topic: "/imu/data", type: "sensor_msgs/msg/Imu" },
  { topic: "/gps/fix", type: "sensor_msgs/msg/NavSatFix" },
  { topic: "/cmd_vel_raw", type: "geometry_msgs/msg/TwistStamped" },
  { topic: "/cmd_vel", type: "geometry_msgs/msg/TwistStamped" },
  { topic: "/harness/correction", type: "drone_harness_msgs/msg/HarnessCorrection" },
];
const CHUNK_BYTES = 4096;

/** The in-memory file system, with every write visible at once (as on disk when a process dies). */
class CrashableFileSystem extends MemoryBagFileSystem {
  override async openWrite(p: string): ReturnType<MemoryBagFileSystem["openWrite"]> {
    const inner = await super.openWrite(p);
    const parts: Uint8Array[] = [];
    return {
      ...inner,
      write: async (buf: Uint8Array) => {
        parts.push(buf.slice());
        this.files.set(p, new Uint8Array(Buffer.concat(parts)));
        await inner.write(buf);
      },
    };
  }
}

describe("a recording killed mid-flight", () => {
  it("bag recover keeps every message but those of the last, unfinished chunk", async () => {
    const rig = await startFlight({ seed: 2 });
    const recorded: Array<{ topic: string; tNs: bigint; data: Uint8Array }> = [];
    for (const t of TOPICS) {
      rig.graph.subscribeRaw(t.topic, (bytes) => recorded.push({ topic: t.topic, tNs: rig.sim.controller.timeNs(), data: bytes.slice() }), {
        // Best effort matches both the sensor-data publishers and the reliable ones (QoS compatibility).
        qos: { history: "keep_last", depth: 1000, reliability: "best_effort", durability: "volatile" },
      });
    }
    try {
      rig.fly(1.2);
    } finally {
      await rig.shutdown();
    }
    expect(recorded.length).toBeGreaterThan(150);
    const minSize = Math.min(...recorded.map((r) => r.data.byteLength));
    // MCAP Message record: opcode 1 + length 8 + channel 2 + sequence 4 + two times 16 + data.
    const perChunk = Math.ceil(CHUNK_BYTES / (minSize + 31)) + 1;
    const handlers = await loadDecompressHandlers();
    const registry = defaultRegistry();
    const results: string[] = [];
    for (const killAt of [Math.floor(recorded.length * 0.3), Math.floor(recorded.length * 0.55), recorded.length - 3]) {
      const fs = new CrashableFileSystem();
      const w = await BagWriter.create({ fs, directory: "/rec/flight", compression: "zstd", chunkSizeBytes: CHUNK_BYTES, chunkCrc: true });
      for (const t of TOPICS) await w.addTopic({ topic: t.topic, type: t.type, schemaText: registry.ros2msgText(t.type), offeredQosProfiles: "" });
      // Messages on disk in complete chunks: the count when the file last grew (a chunk flushed).
      let flushedAt = 0;
      let size = fs.files.get("/rec/flight/flight_0.mcap")?.byteLength ?? 0;
      for (let i = 0; i < killAt; i++) {
        await w.write(recorded[i]!.topic, recorded[i]!.tNs, recorded[i]!.data);
        const now = fs.files.get("/rec/flight/flight_0.mcap")?.byteLength ?? 0;
        if (now !== size) flushedAt = i + 1;
        size = now;
      }
      // Killed: the file as it is on disk now, never closed.
      const crashed = fs.files.get("/rec/flight/flight_0.mcap")!.slice();
      const parts: Uint8Array[] = [];
      let pos = 0n;
      const out = {
        position: () => pos,
        write: async (b: Uint8Array): Promise<void> => {
          parts.push(b.slice());
          pos += BigInt(b.byteLength);
        },
      };
      const r = await recoverMcap(bytesReadable(crashed), out, { decompressHandlers: handlers });
      expect(r.complete).toBe(false);
      const lost = killAt - r.messages;
      expect(lost).toBeGreaterThanOrEqual(0);
      expect(lost).toBeLessThanOrEqual(perChunk);
      // Exactly the messages of the unfinished chunk are lost.
      expect(r.messages).toBe(flushedAt);
      // The recovered file is a valid indexed MCAP with the first r.messages messages, byte for byte.
      const reader = await McapIndexedReader.Initialize({ readable: bytesReadable(new Uint8Array(Buffer.concat(parts))), decompressHandlers: handlers });
      const got: Uint8Array[] = [];
      for await (const m of reader.readMessages()) got.push(m.data);
      expect(got).toHaveLength(r.messages);
      got.forEach((d, i) => expect(Buffer.from(d).equals(Buffer.from(recorded[i]!.data))).toBe(true));
      results.push(`killed after ${killAt}: recovered ${r.messages} in ${r.chunks} chunks, lost ${lost}`);
    }
    console.log(`recording crash (chunks of ${CHUNK_BYTES} B, at most ${perChunk} messages each): ${results.join("; ")}`);
  });
});
