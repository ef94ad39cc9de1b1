import fc from "fast-check";
import { FrameDecoder, encodeJsonFrame, encodeMessageHeader, type Frame } from "../../../src/ros/ipc/frames";

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

/** Random frames, encoded, cut into random chunks: the decoder returns exactly the frames sent. */
describe("FrameDecoder (property)", () => {
  it("reassembles any sequence of frames from any chunking", () => {
    const frameArb = fc.oneof(
      fc.record({ kind: fc.constant("json" as const), value: fc.jsonValue() }),
      fc.record({
        kind: fc.constant("message" as const),
        subscriptionId: fc.integer({ min: 0, max: 0xffffffff }),
        receiveTimeNs: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        bytes: fc.uint8Array({ maxLength: 300 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 20 }), (frames, cuts) => {
        const wire = Buffer.concat(
          frames.map((f) =>
            f.kind === "json" ? encodeJsonFrame(f.value) : Buffer.concat([encodeMessageHeader(f.subscriptionId, f.receiveTimeNs, f.bytes.length), Buffer.from(f.bytes)]),
          ),
        );
        const decoder = new FrameDecoder();
        const out: Frame[] = [];
        let pos = 0;
        let i = 0;
        while (pos < wire.length) {
          const n = cuts[i++ % cuts.length]!;
          out.push(...decoder.push(wire.subarray(pos, pos + n)));
          pos += n;
        }
        expect(out.length).toBe(frames.length);
        out.forEach((o, k) => {
          const f = frames[k]!;
          if (f.kind === "json") expect(o).toEqual({ kind: "json", value: JSON.parse(JSON.stringify(f.value)) as unknown });
          else {
            expect(o.kind).toBe("message");
            if (o.kind === "message") {
              expect(o.subscriptionId).toBe(f.subscriptionId);
              expect(o.receiveTimeNs).toBe(f.receiveTimeNs);
              expect(Buffer.from(o.bytes).equals(Buffer.from(f.bytes))).toBe(true);
            }
          }
        });
      }),
      { numRuns: RUNS },
    );
  });
});
