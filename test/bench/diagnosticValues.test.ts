/**
 * The bench's reader of `drone-harness topic echo /diagnostics` output (bench/realtimeRates.ts):
 * the latest value of each key per status, across several messages.
 */
import { diagnosticValues } from "../../bench/realtimeRates";

const ECHO = `header:
  stamp:
    sec: 7
    nanosec: 0
  frame_id: ''
status:
- level: 0
  name: 'harness: harness'
  message: active, correction on, 30.0 Hz
  hardware_id: harness
  values:
  - key: latency_p50_ms
    value: '2.01'
  - key: image_side_prepared_ahead
    value: 389 of 390 frames
- level: 0
  name: 'harness: input health'
  message: ok
  hardware_id: harness
  values: []
---
header:
  stamp:
    sec: 8
    nanosec: 0
  frame_id: ''
status:
- level: 0
  name: 'harness: harness'
  message: active
  hardware_id: harness
  values:
  - key: latency_p50_ms
    value: '1.75'
---
`;

describe("diagnosticValues", () => {
  it("keeps the latest value of each key per status name", () => {
    const d = diagnosticValues(ECHO);
    expect(d.get("harness: harness")?.get("latency_p50_ms")).toBe("1.75");
    expect(d.get("harness: harness")?.get("image_side_prepared_ahead")).toBe("389 of 390 frames");
    expect(d.get("harness: input health")?.size).toBe(0);
    expect(d.has("active, correction on, 30.0 Hz")).toBe(false);
  });
});
