import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { DEFAULT_STATE_PERIOD_S } from "../../../nodes/common/sensors/SensorState";
import { resolveStatePeriod } from "../../../nodes/common/sensors/statePeriod";

describe("resolveStatePeriod", () => {
  const dir = (content?: string): string => {
    const d = mkdtempSync(join(tmpdir(), "state-period-"));
    if (content !== undefined) writeFileSync(join(d, "training.json"), content);
    return d;
  };

  it("prefers a positive parameter, else the model folder's config.controlPeriod_s, else the default", () => {
    expect(resolveStatePeriod(0.1, dir('{"config":{"controlPeriod_s":0.5}}'))).toEqual({ period_s: 0.1, source: "parameter state_period_s" });
    expect(resolveStatePeriod(0, dir('{"config":{"controlPeriod_s":0.5}}')).period_s).toBe(0.5);
    expect(resolveStatePeriod(0, dir('{"config":{}}')).period_s).toBe(DEFAULT_STATE_PERIOD_S);
    expect(resolveStatePeriod(0, dir()).period_s).toBe(DEFAULT_STATE_PERIOD_S);
  });

  it("reads the committed models' control period (models/training.json)", () => {
    expect(resolveStatePeriod(0, join(__dirname, "../../../models")).period_s).toBe(0.25);
  });

  it("fails naming the file and the value on a bad record", () => {
    const d = dir('{"config":{"controlPeriod_s":-1}}');
    expect(() => resolveStatePeriod(0, d)).toThrow(`${join(d, "training.json")}: config.controlPeriod_s=-1, expected a number in (0, 10] s`);
    expect(() => resolveStatePeriod(0, dir("{"))).toThrow("not valid JSON");
  });
});
