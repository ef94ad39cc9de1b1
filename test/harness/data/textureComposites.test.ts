/**
 * Wires over photographed ground textures (textureComposites.ts): labels where the wires are
 * drawn, visible only where they show, nothing labelled without wires, and one frame per Rng state.
 */
import { checkCompositeOptions, compositeFrame, DEFAULT_COMPOSITE, type CompositeOptions } from "../../../src/harness/data/textureComposites";
import type { RgbImage } from "../../../src/harness/data/imageCodec";
import { Rng } from "../../../src/util/Rng";

function flat(grey: number, side = 64): RgbImage {
  return { width: side, height: side, rgb: new Uint8Array(side * side * 3).fill(grey) };
}

const small: CompositeOptions = { ...DEFAULT_COMPOSITE, size: 64, gain: [1, 1] };
const wiresOnly: CompositeOptions = { ...small, wires: { ...small.wires, none: 0 }, edges: { ...small.edges, maxCount: 0 }, bar: { ...small.bar, probability: 0 } };

describe("compositeFrame", () => {
  it("labels the drawn wires, and changes the texture only on labelled or anti-aliased wire pixels", () => {
    const f = compositeFrame([flat(128)], new Rng(3), 7, 5, { ...wiresOnly, wires: { ...wiresOnly.wires, opacity: [1, 1], width_px: [2, 2] } });
    const n = 64 * 64;
    let wire = 0;
    let changedUnlabelled = 0;
    for (let i = 0; i < n; i++) {
      if (f.mask[i] === 1) wire++;
      else if (f.rgb[3 * i] !== 128) changedUnlabelled++;
    }
    expect(wire).toBeGreaterThan(64); // at least one 2 px conductor across a 64 px frame
    expect(changedUnlabelled).toBeLessThan(wire); // only the faint anti-aliased rims stay unlabelled
    expect([f.seed, f.state.length, f.expertAction, f.threat]).toEqual([7, 5, 0, false]);
    // visible pixels are a subset of the labelled ones, and near cells are the cells holding them
    for (let i = 0; i < n; i++) if (f.visibleMask![i] !== 0) expect(f.mask[i]).toBe(f.visibleMask![i]);
    for (let cy = 0; cy < 8; cy++) {
      for (let cx = 0; cx < 8; cx++) {
        let any = 0;
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) any |= f.visibleMask![(cy * 8 + y) * 64 + cx * 8 + x]! === 0 ? 0 : 1;
        expect(f.near![cy * 8 + cx]).toBe(any);
      }
    }
  });

  it("labels a wire of the background's own grey as present but not visible", () => {
    const o: CompositeOptions = { ...wiresOnly, gain: [1, 1], wires: { ...wiresOnly.wires, darkShare: 1, opacity: [1, 1] } };
    // the dark conductors' grey is 0.02-0.3: on a background of that grey they have almost no contrast
    const dark = compositeFrame([flat(40)], new Rng(5), 1, 1, o);
    const light = compositeFrame([flat(230)], new Rng(5), 1, 1, o);
    const count = (m: Uint8Array): number => m.reduce((s, v) => s + (v === 1 ? 1 : 0), 0);
    expect(count(dark.mask)).toBe(count(light.mask)); // the same draws: the same conductors
    expect(count(light.visibleMask!)).toBeGreaterThan(0.8 * count(light.mask));
    expect(count(dark.visibleMask!)).toBeLessThan(count(light.visibleMask!));
  });

  it("labels nothing without wires or bars, while edges still change the image", () => {
    const o: CompositeOptions = { ...small, wires: { ...small.wires, none: 1 }, bar: { ...small.bar, probability: 0 }, edges: { ...small.edges, maxCount: 3, factor: [0.5, 0.5] } };
    let changed = 0;
    for (let s = 0; s < 8; s++) {
      const f = compositeFrame([flat(128)], new Rng(s), 1, 1, o);
      expect(f.mask.every((v) => v === 0)).toBe(true);
      expect(f.visibleMask!.every((v) => v === 0)).toBe(true);
      expect(f.near!.every((v) => v === 0)).toBe(true);
      if (f.rgb.some((v) => v !== 128)) changed++;
    }
    expect(changed).toBeGreaterThan(0);
  });

  it("labels a bar as pole/trunk", () => {
    const o: CompositeOptions = { ...small, wires: { ...small.wires, none: 1 }, bar: { probability: 1, width_px: [10, 10] }, edges: { ...small.edges, maxCount: 0 } };
    const f = compositeFrame([flat(128)], new Rng(2), 1, 1, o);
    expect(f.mask.some((v) => v === 3)).toBe(true);
    expect(f.mask.every((v) => v === 0 || v === 3)).toBe(true);
  });

  it("gives the same frame for the same Rng state and another for another", () => {
    const tex = [flat(90), { width: 3, height: 2, rgb: new Uint8Array([0, 50, 100, 150, 200, 250, 30, 60, 90, 120, 180, 240, 10, 20, 30, 40, 50, 60]) }];
    const a = compositeFrame(tex, new Rng(11), 1, 1, small);
    const b = compositeFrame(tex, new Rng(11), 1, 1, small);
    const c = compositeFrame(tex, new Rng(12), 1, 1, small);
    expect(Buffer.from(a.rgb).equals(Buffer.from(b.rgb))).toBe(true);
    expect(Buffer.from(a.mask).equals(Buffer.from(b.mask))).toBe(true);
    expect(Buffer.from(a.rgb).equals(Buffer.from(c.rgb))).toBe(false);
  });

  it("refuses no textures and bad options, naming the field", () => {
    expect(() => compositeFrame([], new Rng(1), 1, 1)).toThrow(/no texture images/);
    expect(() => checkCompositeOptions(DEFAULT_COMPOSITE)).not.toThrow();
    expect(() => checkCompositeOptions({ ...small, scale: [2, 1] })).toThrow(/composite scale=\[2, 1\]/);
    expect(() => checkCompositeOptions({ ...small, wires: { ...small.wires, none: 1.5 } })).toThrow(/wires.none=1.5/);
    expect(() => checkCompositeOptions({ ...small, wires: { ...small.wires, opacity: [0.5, 2] } })).toThrow(/wires.opacity max=2/);
    expect(() => checkCompositeOptions({ ...small, edges: { ...small.edges, minStripWidth_px: 50 } })).toThrow(/strip width 50-40/);
    expect(() => compositeFrame([flat(1)], new Rng(1), 1, 1, { ...small, size: 4 })).toThrow(/size=4/);
    expect(() => checkCompositeOptions({ ...small, wires: { ...small.wires, thick: { share: 2, width_px: [4, 10] } } })).toThrow(/wires.thick.share=2/);
    expect(() => checkCompositeOptions({ ...small, paving: { ...small.paving, jointFactor: [0.5, 1.2] } })).toThrow(/paving.jointFactor max=1.2/);
    expect(() => checkCompositeOptions({ ...small, paving: { ...small.paving, stone_px: [2, 8] } })).toThrow(/paving.stone_px=\[2, 8\]/);
  });
});

describe("compositeFrame's urban options (thick conductors, paving)", () => {
  it("draws a thick-share conductor from the thick width range", () => {
    const one: CompositeOptions = { ...wiresOnly, wires: { ...wiresOnly.wires, maxCount: 1, opacity: [1, 1], width_px: [2, 2], thick: { share: 0, width_px: [8, 8] } } };
    const thick: CompositeOptions = { ...one, wires: { ...one.wires, thick: { share: 1, width_px: [8, 8] } } };
    const count = (m: Uint8Array): number => m.reduce((s, v) => s + (v === 1 ? 1 : 0), 0);
    for (const seed of [1, 2, 3]) {
      const a = count(compositeFrame([flat(200)], new Rng(seed), 1, 1, one).mask);
      const b = count(compositeFrame([flat(200)], new Rng(seed), 1, 1, thick).mask);
      // one conductor across the 64 px frame: about 2.5 vs 8.5 labelled pixels per unit of length
      expect(b).toBeGreaterThan(2.5 * a);
    }
  });

  it("lays paving joints (no label) over the whole frame or one side of a line", () => {
    const o: CompositeOptions = { ...small, wires: { ...small.wires, none: 1 }, bar: { ...small.bar, probability: 0 }, edges: { ...small.edges, maxCount: 0 }, paving: { ...small.paving, probability: 1, stoneGain: 0, stone_px: [10, 14] } };
    for (let s = 0; s < 6; s++) {
      const f = compositeFrame([flat(128)], new Rng(s), 1, 1, o);
      expect(f.mask.every((v) => v === 0)).toBe(true);
      let darker = 0;
      let paler = 0;
      for (let i = 0; i < 64 * 64; i++) {
        if (f.rgb[3 * i]! < 128) darker++;
        else if (f.rgb[3 * i]! > 128) paler++;
      }
      // joints 1-3 px every 10-35 px in two directions: a few to a third of the frame, one way only
      expect(Math.min(darker, paler)).toBe(0);
      expect(darker + paler).toBeGreaterThan(0.02 * 64 * 64);
      expect(darker + paler).toBeLessThan(0.6 * 64 * 64);
    }
    // the per-stone gain changes the stones too
    const g = compositeFrame([flat(128)], new Rng(1), 1, 1, { ...o, paving: { ...o.paving, stoneGain: 0.2 } });
    expect(new Set(g.rgb).size).toBeGreaterThan(4);
  });
});
