/**
 * Random and mutated CDR bytes into the message reader of every type in the topic contract
 * (SPEC "Topic contract") and our own drone_harness_msgs: every case decodes or throws a
 * MessageDecodeError naming the type; no RangeError of the wrong kind, no allocation driven by a
 * corrupt length field (src/ros/msgs/boundSequenceLengths.ts).
 */
import fc from "fast-check";
import { MessageDecodeError, defaultRegistry } from "../../src/ros/msgs";
import { randomMessage } from "../ros/graph/randomMessage";
import { FuzzTally, expectedError, fcParams, fuzzRuns, mutate, mutationsArb } from "./fuzzSupport";

const CONTRACT_TYPES = [
  "sensor_msgs/msg/Image",
  "sensor_msgs/msg/CameraInfo",
  "sensor_msgs/msg/Imu",
  "sensor_msgs/msg/NavSatFix",
  "geometry_msgs/msg/TwistStamped",
  "rosgraph_msgs/msg/Clock",
  "vision_msgs/msg/Detection2DArray",
  "diagnostic_msgs/msg/DiagnosticArray",
  "rcl_interfaces/msg/Log",
  "px4_msgs/msg/TrajectorySetpoint",
  "px4_msgs/msg/OffboardControlMode",
  "drone_harness_msgs/msg/HarnessCorrection",
  "drone_harness_msgs/msg/StudentOutput",
  "drone_harness_msgs/msg/GroundTruth",
];

const registry = defaultRegistry();
// Per type; the whole target runs CONTRACT_TYPES.length times this.
const RUNS = Math.max(1, Math.ceil(fuzzRuns(2800) / CONTRACT_TYPES.length));

function decode(type: string, bytes: Uint8Array): string {
  try {
    const m = registry.deserialize(type, bytes);
    if (typeof m !== "object" || m === null) throw new Error(`${type}: decoded to ${typeof m}`);
    return "decoded";
  } catch (err) {
    const label = expectedError(err, [MessageDecodeError], new RegExp(`^${type.replace(/\//g, "\\/")}: cannot decode ${bytes.byteLength} bytes of CDR: .+`));
    if (err instanceof MessageDecodeError && /sequence length \d+ at byte/.test(err.message)) return "rejected (length cap)";
    return label;
  }
}

describe("CDR fuzz: every contract message type", () => {
  const random = new FuzzTally("cdr random bytes");
  const mutated = new FuzzTally("cdr mutated messages");
  afterAll(() => {
    random.print();
    mutated.print();
  });

  it("is a sorted, known type list", () => {
    for (const t of CONTRACT_TYPES) expect(registry.has(t)).toBe(true);
  });

  it.each(CONTRACT_TYPES)("%s: random bytes after a CDR header decode or are rejected by name", (type) => {
    fc.assert(
      fc.property(fc.constantFrom(0, 1, 2, 3, 6, 7, 10, 11), fc.uint8Array({ maxLength: 300 }), (kind, body) => {
        const bytes = new Uint8Array(4 + body.length);
        bytes[1] = kind;
        bytes.set(body, 4);
        random.run(() => decode(type, bytes));
      }),
      fcParams(RUNS),
    );
  });

  it.each(CONTRACT_TYPES)("%s: mutated valid messages decode or are rejected by name", (type) => {
    const bases = [1, 2, 3].map((seed) => registry.serialize(type, randomMessage(registry, type, seed)));
    fc.assert(
      fc.property(fc.nat({ max: bases.length - 1 }), mutationsArb, (k, ops) => {
        mutated.run(() => decode(type, mutate(bases[k]!, ops)));
      }),
      fcParams(RUNS),
    );
  });

  it("a huge length in front of an unaligned float64 sequence is rejected before anything is allocated", () => {
    // CameraInfo: header, height, width, distortion_model (string), then d (float64[]).
    const msg = registry.defaultMessage<Record<string, unknown>>("sensor_msgs/msg/CameraInfo");
    msg.distortion_model = "ab"; // 4-byte length + 3 bytes: d's length field is then unaligned for 8-byte data
    msg.d = new Float64Array(16);
    const bytes = registry.serialize("sensor_msgs/msg/CameraInfo", msg);
    // The d length field: 16 as uint32 LE, the first occurrence after the header.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = -1;
    for (let i = 4; i + 4 <= bytes.length; i += 4) if (view.getUint32(i, true) === 16) { at = i; break; }
    expect(at).toBeGreaterThan(0);
    view.setUint32(at, 0x0fffffff, true);
    const before = process.memoryUsage().arrayBuffers;
    expect(() => registry.deserialize("sensor_msgs/msg/CameraInfo", bytes)).toThrow(
      new RegExp(`^sensor_msgs/msg/CameraInfo: cannot decode ${bytes.length} bytes of CDR: sequence length 268435455 at byte ${at} exceeds the \\d+ bytes left`),
    );
    // Without the cap the reader allocated 8 * 0x0fffffff bytes (2 GiB) before failing.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024);
  });
});
