/**
 * Few-shot adaptation on labelled photos (issue 14 item 3), on tiny configurations: synthetic
 * 64x48 "photos" of a pale 2 px wire on a textured dark ground at random heights, a tiny random
 * Teacher. Heavy runs are `drone-harness transfer --real` (README "Real photographs").
 */
import { initBackend } from "../../../src/harness/backend";
import { detectNative } from "../../../src/harness/eval/detectNative";
import { RealSetScore } from "../../../src/harness/eval/realPhotoMetrics";
import { teacherWireNet } from "../../../src/harness/eval/WireNet";
import { Teacher } from "../../../src/harness/models/Teacher";
import { cropSample, fineTuneOnPhotos, fineTuneParameterNames, photoGroups, photoSampler } from "../../../src/harness/transfer/fineTuneOnPhotos";
import { crossValidate, foldsOf, type SetPhoto } from "../../../src/harness/transfer/realKFold";
import { cosineRate } from "../../../src/harness/training/learningRate";
import { Rng } from "../../../src/util/Rng";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

function wirePhoto(seed: number, set = "A"): SetPhoto {
  const W = 64, H = 48;
  const rng = new Rng(seed);
  const rgb = new Uint8Array(W * H * 3).map(() => 40 + rng.int(50));
  const wire = new Uint8Array(W * H);
  const y0 = 6 + rng.int(H - 12);
  for (let x = 0; x < W; x++) {
    for (const y of [y0, y0 + 1]) {
      wire[y * W + x] = 1;
      rgb.fill(220, 3 * (y * W + x), 3 * (y * W + x) + 3);
    }
  }
  return { set, name: String(seed), image: { width: W, height: H, rgb }, wire };
}

const tiny = () => new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 7, threatLogit: true });

describe("fineTuneOnPhotos", () => {
  it("the adapter scope changes only head/*; the loss falls and held-out AP rises on the wire photos", () => {
    const det = tiny();
    const frozen = det.params.names().filter((n) => !n.startsWith("head/"));
    const before = new Map(det.params.names().map((n) => [n, det.params.get(n).dataSync().slice()]));
    const score = () => {
      const s = new RealSetScore();
      const net = teacherWireNet(det, "tiny");
      for (let i = 100; i < 104; i++) {
        const p = wirePhoto(i);
        s.add(detectNative(net, p.image).map, p.wire, 64, 48);
      }
      return s.result().ap;
    };
    const ap0 = score();
    const losses: number[] = [];
    const r = fineTuneOnPhotos(det, [1, 2, 3, 4].map((i) => wirePhoto(i)), { steps: 60, batch: 4, crop: 32, learningRate: 0.02, seed: 1, onStep: (_, l) => losses.push(l) });
    expect(r.trained).toEqual(["head/hidden/w", "head/hidden/b", "head/out/w", "head/out/b"]);
    for (const n of frozen) expect(Array.from(det.params.get(n).dataSync())).toEqual(Array.from(before.get(n)!));
    expect(Array.from(det.params.get("head/out/w").dataSync())).not.toEqual(Array.from(before.get("head/out/w")!));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-10))).toBeLessThan(mean(losses.slice(0, 10)));
    expect(score()).toBeGreaterThan(ap0);
    det.dispose();
  }, 60000);

  it("a mirrored crop flips pixels and cell targets together", () => {
    // A vertical 2 px wire at x = 3..4 of a 40x24 photo: cell column 0 of a crop at x0 = 0.
    const W = 40, H = 24, size = 16;
    const rgb = new Uint8Array(W * H * 3).fill(30);
    const wire = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (const x of [3, 4]) {
      wire[y * W + x] = 1;
      rgb.fill(240, 3 * (y * W + x), 3 * (y * W + x) + 3);
    }
    const photo = { image: { width: W, height: H, rgb }, wire };
    const crop = (mirror: boolean) => {
      const input = new Float32Array(size * size * 4);
      const targets = new Int32Array(4);
      const buf = new Uint8Array(size * size * 3);
      cropSample(photo, 0, 4, size, input, 0, targets, 0, buf, mirror);
      return { input, targets, buf };
    };
    const plain = crop(false);
    const mirrored = crop(true);
    expect(Array.from(plain.targets)).toEqual([1, 0, 1, 0]);
    expect(Array.from(mirrored.targets)).toEqual([0, 1, 0, 1]);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) expect(mirrored.buf[3 * (y * size + x)]).toBe(plain.buf[3 * (y * size + size - 1 - x)]);
    }
    expect(mirrored.buf[3 * (2 * size + 12)]).toBe(240); // x = 3 lands on 16 - 1 - 3 = 12
  });

  it("the cosine schedule starts at the base rate and ends at 10 % of it, falling in between", () => {
    expect(cosineRate(0.01, 1, 400)).toBeCloseTo(0.01, 12);
    expect(cosineRate(0.01, 400, 400)).toBeCloseTo(0.001, 12);
    expect(cosineRate(0.01, 200, 400)).toBeLessThan(cosineRate(0.01, 100, 400));
    expect(cosineRate(0.01, 200, 400)).toBeGreaterThan(cosineRate(0.01, 300, 400));
  });

  it("scopes name their weights: context adds context* and the last backbone conv; all is everything", () => {
    const det = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 1, context: [2] });
    expect(fineTuneParameterNames(det, "context")).toEqual(["backbone/conv2/w", "backbone/conv2/b", "context0/w", "context0/b", "head/hidden/w", "head/hidden/b", "head/out/w", "head/out/b"]);
    expect(fineTuneParameterNames(det, "all")).toEqual(det.params.names());
    det.dispose();
  });
});

describe("crossValidate", () => {
  it("folds are stratified by set, and every photo is scored once held out per curve point", () => {
    expect(foldsOf([{ set: "U" }, { set: "U" }, { set: "M" }, { set: "U" }, { set: "M" }], 2)).toEqual([0, 1, 0, 0, 1]);
    const photos = [...[1, 2, 3, 4].map((i) => wirePhoto(i, "U")), ...[5, 6].map((i) => wirePhoto(i, "M"))];
    const det = tiny();
    const before = Array.from(det.params.get("head/out/w").dataSync());
    const r = crossValidate(det, photos, { folds: 2, curve: [2, Infinity], fineTune: { steps: 3, batch: 2, crop: 32 }, seed: 1 });
    expect(r.rows.map((x) => `${x.trainPhotos}/${x.set}/${x.photos}`)).toEqual(["0 (zero-shot)/U/4", "0 (zero-shot)/M/2", "0 (zero-shot)/all/6", "2/U/4", "2/M/2", "2/all/6", "all/U/4", "all/M/2", "all/all/6"]);
    expect(r.trainedParameters).toBe(4 * 4 + 4 + 4 * 5 + 5);
    // The source weights are restored after the folds.
    expect(Array.from(det.params.get("head/out/w").dataSync())).toEqual(before);
    det.dispose();
  }, 60000);

  it("WiSE-FT rows: a = 0 maps with the start weights, a = 1 with the adapted ones, a = 0.5 scored beside them", () => {
    const photos = [...[1, 2, 3, 4].map((i) => wirePhoto(i, "U")), ...[5, 6].map((i) => wirePhoto(i, "M"))];
    const det = tiny();
    const before = Array.from(det.params.get("head/out/w").dataSync());
    const r = crossValidate(det, photos, { folds: 2, curve: [Infinity], fineTune: { steps: 4, batch: 2, crop: 32, learningRate: 0.05 }, seed: 1, wise: [0, 0.5, 1] });
    const row = (label: string): number[] => r.rows.filter((x) => x.trainPhotos === label).map((x) => x.ap);
    expect(r.rows.map((x) => x.trainPhotos).filter((l, i, a) => a.indexOf(l) === i)).toEqual(["0 (zero-shot)", "all", "all wise 0", "all wise 0.5", "all wise 1"]);
    expect(row("all wise 0")).toEqual(row("0 (zero-shot)"));
    expect(row("all wise 1")).toEqual(row("all"));
    expect(row("all")).not.toEqual(row("0 (zero-shot)"));
    expect(Array.from(det.params.get("head/out/w").dataSync())).toEqual(before);
    expect(() => crossValidate(det, photos, { folds: 2, curve: [2], fineTune: { steps: 1, batch: 2, crop: 32 }, seed: 1, wise: [1.5] })).toThrow("wise=1.5");
    det.dispose();
  }, 60000);

  it("partner rows: an identical partner reproduces the plain rows in all three; another one differs, and both are restored", () => {
    const photos = [...[1, 2, 3, 4].map((i) => wirePhoto(i, "U")), ...[5, 6].map((i) => wirePhoto(i, "M"))];
    const det = tiny();
    const twin = tiny();
    const opts = { folds: 2, curve: [Infinity], fineTune: { steps: 4, batch: 2, crop: 32, learningRate: 0.05 }, seed: 1 };
    const row = (r: ReturnType<typeof crossValidate>, label: string): number[] => r.rows.filter((x) => x.trainPhotos === label).map((x) => x.ap);
    const same = crossValidate(det, photos, { ...opts, partner: twin });
    expect(same.rows.map((x) => x.trainPhotos).filter((l, i, a) => a.indexOf(l) === i)).toEqual(["0 (zero-shot)", "all", "all partner", "all soup", "all ensemble"]);
    for (const label of ["all partner", "all soup", "all ensemble"]) row(same, label).forEach((ap, k) => expect(ap).toBeCloseTo(row(same, "all")[k]!, 6));
    const other = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 8, threatLogit: true });
    const before = [det, other].map((d) => Array.from(d.params.get("head/out/w").dataSync()));
    const diff = crossValidate(det, photos, { ...opts, partner: other });
    expect(row(diff, "all")).toEqual(row(same, "all"));
    expect(row(diff, "all partner")).not.toEqual(row(diff, "all"));
    expect(row(diff, "all soup")).not.toEqual(row(diff, "all"));
    expect([det, other].map((d) => Array.from(d.params.get("head/out/w").dataSync()))).toEqual(before);
    const wide = new Teacher({ channels: [4, 4, 8], headHidden: 4, seed: 8, threatLogit: true });
    expect(() => crossValidate(det, photos, { ...opts, partner: wide })).toThrow("not one architecture");
    [det, twin, other, wide].forEach((d) => d.dispose());
  }, 60000);
});

describe("photoSampler (--balance-sets)", () => {
  const photos = [...Array.from({ length: 6 }, (_, i) => wirePhoto(i, "PLDU")), ...Array.from({ length: 2 }, (_, i) => wirePhoto(10 + i, "PLDM"))].map((p) => ({ ...p, group: p.set }));

  it("draws each set equally when balanced and each photo equally otherwise", () => {
    const share = (balance: boolean): number => {
      const next = photoSampler(photos, balance, new Rng(3));
      let mountain = 0;
      for (let k = 0; k < 4000; k++) if (photos[next()]!.group === "PLDM") mountain++;
      return mountain / 4000;
    };
    expect(share(true)).toBeGreaterThan(0.46);
    expect(share(true)).toBeLessThan(0.54);
    expect(share(false)).toBeGreaterThan(0.21);
    expect(share(false)).toBeLessThan(0.29);
    expect(photoGroups(photos).map((g) => g.length)).toEqual([6, 2]);
    expect(photoGroups(photos.map(({ group: _, ...p }) => p))).toEqual([[0, 1, 2, 3, 4, 5, 6, 7]]);
  });
});
