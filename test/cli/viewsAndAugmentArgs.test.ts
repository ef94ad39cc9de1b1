/**
 * The issue 14 item 2 options of `dataset` (--views overhead) and `fit` (--augment camera): what
 * they parse to, and the clear errors for what they refuse.
 */
import { UsageError } from "../../src/cli/CliCommand";
import { parseDatasetArgs } from "../../src/cli/commands/dataset";
import { parseFitArgs } from "../../src/cli/commands/fit";
import { DEFAULT_VIEWS } from "../../src/harness/data/simViews";

const base = ["--scenario", "default", "--flights", "4", "--cache", "/tmp/x"];

describe("dataset --perturbed", () => {
  it("records the perturbation block on validation seeds only", () => {
    expect(parseDatasetArgs(base).perturbed).toBe(false);
    expect(parseDatasetArgs([...base, "--split", "val", "--perturbed"]).perturbed).toBe(true);
    expect(() => parseDatasetArgs([...base, "--perturbed"])).toThrow(/--perturbed .*validation only \(--split val\)/);
    expect(() => parseDatasetArgs([...base, "--split", "val", "--perturbed", "--views", "overhead"])).toThrow(/drop --views overhead/);
  });
});

describe("dataset --views", () => {
  it("flies by default and renders DEFAULT_VIEWS.perWorld views with --views overhead", () => {
    expect(parseDatasetArgs(base).viewsPerWorld).toBe(0);
    expect(parseDatasetArgs([...base, "--views", "overhead"]).viewsPerWorld).toBe(DEFAULT_VIEWS.perWorld);
    expect(parseDatasetArgs([...base, "--views", "overhead", "--views-per-world", "5"]).viewsPerWorld).toBe(5);
    expect(parseDatasetArgs([...base, "--views", "overhead"]).viewsWireScale).toEqual(DEFAULT_VIEWS.wireRadiusScale);
    expect(parseDatasetArgs([...base, "--views", "overhead", "--views-wire-scale", "1,1"]).viewsWireScale).toEqual([1, 1]);
  });

  it("refuses an unknown view kind, a count without --views, and a pilot with views", () => {
    expect(() => parseDatasetArgs([...base, "--views", "sideways"])).toThrow(/--views=sideways, expected overhead/);
    expect(() => parseDatasetArgs([...base, "--views-per-world", "5"])).toThrow(/need --views overhead/);
    expect(() => parseDatasetArgs([...base, "--views-wire-scale", "1,2"])).toThrow(/need --views overhead/);
    expect(() => parseDatasetArgs([...base, "--views", "overhead", "--views-wire-scale", "3,1"])).toThrow(/--views-wire-scale=3,1, expected MIN,MAX/);
    expect(() => parseDatasetArgs([...base, "--views", "overhead", "--views-wire-scale", "2"])).toThrow(/expected MIN,MAX/);
    expect(() => parseDatasetArgs([...base, "--views", "overhead", "--pilot-detector", "m"])).toThrow(UsageError);
  });
});

describe("fit --augment", () => {
  const fit = ["--data", "a", "--val", "b", "--out", "c"];
  it("is off by default and on with --augment camera", () => {
    expect(parseFitArgs(fit).augment).toBe(false);
    expect(parseFitArgs([...fit, "--augment", "camera"]).augment).toBe(true);
    expect(parseFitArgs([...fit, "--augment", "camera"]).clutter).toBe(false);
    const both = parseFitArgs([...fit, "--augment", "camera,clutter"]);
    expect([both.augment, both.clutter]).toEqual([true, true]);
    const clutterOnly = parseFitArgs([...fit, "--augment", "clutter"]);
    expect([clutterOnly.augment, clutterOnly.clutter, clutterOnly.foliage]).toEqual([false, true, false]);
    const all = parseFitArgs([...fit, "--augment", "camera,clutter,foliage"]);
    expect([all.augment, all.clutter, all.foliage]).toEqual([true, true, true]);
  });
  it("takes the crop and augmentation seed (default 1, the committed models' seed)", () => {
    expect(parseFitArgs(fit).seed).toBe(1);
    expect(parseFitArgs([...fit, "--seed", "2"]).seed).toBe(2);
    expect(() => parseFitArgs([...fit, "--seed", "-1"])).toThrow(/--seed/);
  });
  it("refuses another augmentation name", () => {
    expect(() => parseFitArgs([...fit, "--augment", "mixup"])).toThrow(/--augment=mixup, expected a comma list of camera, clutter, foliage/);
    expect(() => parseFitArgs([...fit, "--augment", "camera,"])).toThrow(/--augment=camera,, expected a comma list/);
  });
});
