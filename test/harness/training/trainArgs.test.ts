import { parseTrainArgs } from "../../../src/cli/commands/train";
import { FULL_CONFIG, QUICK_CONFIG, withBcVariant } from "../../../src/harness/training/trainConfig";

describe("train: BC variant options", () => {
  it("parses the three flags into one variant, and leaves it undefined without them", () => {
    expect(parseTrainArgs(["--scenario", "default"]).bcVariant).toBeUndefined();
    const a = parseTrainArgs(["--scenario", "default", "--threat-record-every", "1", "--bc-threat-fraction", "0.25", "--policy-reads-detections", "--redo-from", "bc"]);
    expect(a.bcVariant).toEqual({ threatRecordEvery: 1, threatFraction: 0.25, policyReadsDetections: true });
    expect(a.resume).toBe(true);
  });

  it("names bad values, and refuses a variant on a plain --resume (which keeps the stored configuration)", () => {
    expect(() => parseTrainArgs(["--scenario", "d", "--bc-threat-fraction", "1.5"])).toThrow(/--bc-threat-fraction=1.5, expected a number in \[0, 1\]/);
    expect(() => parseTrainArgs(["--scenario", "d", "--bc-threat-fraction", ""])).toThrow(/--bc-threat-fraction=/);
    expect(() => parseTrainArgs(["--scenario", "d", "--threat-record-every", "0"])).toThrow(/--threat-record-every=0, expected an integer >= 1/);
    expect(() => parseTrainArgs(["--scenario", "d", "--resume", "--policy-reads-detections"])).toThrow(/need --redo-from/);
  });

  it("applies the variant to a copy of the configuration", () => {
    const v = withBcVariant(FULL_CONFIG, { threatRecordEvery: 1, threatFraction: 0.25, policyReadsDetections: true });
    expect(v.data.threatRecordEvery).toBe(1);
    expect(v.student.threatFraction).toBe(0.25);
    expect(v.student.config.policyReadsDetections).toBe(true);
    expect(v.student.config.channels).toEqual(FULL_CONFIG.student.config.channels);
    // the committed-weights configuration itself is unchanged
    expect(FULL_CONFIG.data.threatRecordEvery).toBeUndefined();
    expect(FULL_CONFIG.student.threatFraction).toBeUndefined();
    expect(FULL_CONFIG.student.config.policyReadsDetections).toBeUndefined();
    expect(withBcVariant(QUICK_CONFIG, undefined)).toBe(QUICK_CONFIG);
  });
});
