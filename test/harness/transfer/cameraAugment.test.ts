/**
 * Camera effects on the crops of few-shot adaptation (`transfer --real --augment camera`,
 * FineTuneOptions.camera): each crop's pixels are changed before its Sobel channel is built, the
 * cell targets are not, and the effects come from their own random stream, so effects that change
 * nothing leave the run bit for bit as without them (the crops and their order are the same).
 */
import { initBackend } from "../../../src/harness/backend";
import { imageInputFromRgb8 } from "../../../src/harness/models/imageInput";
import { Teacher } from "../../../src/harness/models/Teacher";
import { cameraEffectsOnCrops, cropSample, fineTuneOnPhotos } from "../../../src/harness/transfer/fineTuneOnPhotos";
import { DEFAULT_CAMERA_EFFECTS, type CameraEffectRanges } from "../../../src/vision/cameraEffects";
import { main } from "../../../src/cli/main";
import { capture } from "../../cli/realPhotoFixture";
import { wirePhoto } from "./syntheticWirePhoto";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

/** Effects that change nothing: no vignette, blur, cast, noise, sharpening or JPEG; gain and gamma 1. */
const IDENTITY: CameraEffectRanges = { vignette: [0, 0], blurSigma: [0, 0], gain: [1, 1], colourCast: 0, noiseStd: [0, 0], gamma: [1, 1], sharpen: [0, 0], jpegQuality: [90, 90], jpegChance: 0 };

const tiny = (): Teacher => new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 7, threatLogit: true });
const photos = [1, 2, 3].map(wirePhoto);
const base = { steps: 6, batch: 2, crop: 16, learningRate: 0.05, scope: "all" as const, seed: 3 };
const weights = (t: Teacher): number[] => t.params.names().flatMap((n) => Array.from(t.params.get(n).dataSync()));

describe("cameraEffectsOnCrops", () => {
  it("changes a crop's pixels, a new draw per call, the same draws for the same seed", () => {
    const crop = wirePhoto(5).image.rgb.slice(0, 16 * 16 * 3);
    const run = (seed: number): Uint8Array[] => {
      const fx = cameraEffectsOnCrops(DEFAULT_CAMERA_EFFECTS, seed);
      return [0, 1].map(() => {
        const c = crop.slice();
        fx(c, 16);
        return c;
      });
    };
    const [a1, a2] = run(11);
    const [b1] = run(11);
    expect(Buffer.from(a1!).equals(Buffer.from(crop))).toBe(false);
    expect(Buffer.from(a1!).equals(Buffer.from(a2!))).toBe(false);
    expect(Buffer.from(a1!).equals(Buffer.from(b1!))).toBe(true);
    const same = crop.slice();
    cameraEffectsOnCrops(IDENTITY, 11)(same, 16);
    expect(Buffer.from(same).equals(Buffer.from(crop))).toBe(true);
  });

  it("cropSample builds the input from the changed pixels and leaves the cell targets alone", () => {
    const p = photos[0]!;
    const size = 16;
    const wireRow = Math.floor(p.wire.indexOf(1) / p.image.width);
    const y0 = Math.max(0, Math.min(p.image.height - size, wireRow - 4));
    const run = (effects?: (rgb: Uint8Array, size: number) => void): { input: Float32Array; targets: Int32Array; rgb: Uint8Array } => {
      const input = new Float32Array(size * size * 4);
      const targets = new Int32Array(4);
      const rgb = new Uint8Array(size * size * 3);
      cropSample(p, 8, y0, size, input, 0, targets, 0, rgb, false, effects);
      return { input, targets, rgb };
    };
    const plain = run();
    const dark = run((rgb) => rgb.fill(0));
    expect(Array.from(dark.targets)).toEqual(Array.from(plain.targets));
    expect(Array.from(plain.targets)).toContain(1);
    expect(Array.from(dark.input)).toEqual(Array.from(imageInputFromRgb8(new Uint8Array(size * size * 3), size, size, new Float32Array(size * size * 4))));
    expect(Array.from(dark.input)).not.toEqual(Array.from(plain.input));
  });
});

describe("fineTuneOnPhotos with camera effects", () => {
  it("trains on the changed crops (other weights than without), reproducibly, from the same crops (identity effects change nothing)", () => {
    const without = tiny();
    fineTuneOnPhotos(without, photos, base);
    const identity = tiny();
    fineTuneOnPhotos(identity, photos, { ...base, camera: IDENTITY });
    expect(weights(identity)).toEqual(weights(without));
    const [a, b] = [tiny(), tiny()];
    fineTuneOnPhotos(a, photos, { ...base, camera: DEFAULT_CAMERA_EFFECTS });
    fineTuneOnPhotos(b, photos, { ...base, camera: DEFAULT_CAMERA_EFFECTS });
    expect(weights(a)).toEqual(weights(b));
    expect(weights(a)).not.toEqual(weights(without));
  });

  it("transfer --augment takes camera only, and says so", async () => {
    const c = capture();
    expect(await main(["transfer", "--real", "/nonexistent", "--augment", "blur"], c.io)).toBe(2);
    expect(c.err.join("")).toContain("--augment blur: expected camera");
  });
});
