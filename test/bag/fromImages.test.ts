/**
 * `bag from-images` (issue 14 item 4): three dev photos (landscape 540x360, portrait 360x540 and a
 * mountain photo, from ../shared/fixtures/real/pld-dev, linked into a temporary folder) become a
 * camera stream; read back, the messages carry the photos' pixels at 10 Hz with a CameraInfo of
 * the same size, and the perception node consumes the bag's messages at each photo's own size.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Bag } from "../../src/bag/BagReader";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { main } from "../../src/cli/main";
import { decodeImage } from "../../src/harness/data/imageCodec";
import { defaultRegistry } from "../../src/ros/msgs";
import type { StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { initBackend } from "../../src/harness/backend";
import { activePerceptionAnySize } from "../nodes/common/perceptionWithStudent";

const DEV = path.resolve(__dirname, "../../../shared/fixtures/real/pld-dev");
const PHOTOS = [
  ["PLDU", "1.jpg", "a1.jpg"],
  ["PLDU", "10.jpg", "a2.jpg"],
  ["PLDM", "12.jpg", "a10.jpg"],
] as const;

describe("bag from-images", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-fromimages-"));
  const photos = path.join(dir, "photos");
  const bagDir = path.join(dir, "bag");
  beforeAll(async () => {
    await initBackend({ warn: () => undefined });
    fs.mkdirSync(photos);
    for (const [set, f, as] of PHOTOS) fs.symlinkSync(path.join(DEV, set, f), path.join(photos, as));
    fs.symlinkSync(path.join(DEV, "PLDU", "1.mask.png"), path.join(photos, "a1.mask.png"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes Image + CameraInfo per photo at the given rate, sorted numerically, masks skipped", async () => {
    const out: string[] = [];
    expect(await main(["bag", "from-images", photos, "-o", bagDir, "--rate", "10"], { out: (t) => out.push(t), err: () => undefined })).toBe(0);
    expect(out.join("")).toContain("3 photos");
    const reg = defaultRegistry();
    const msgs = [];
    for await (const m of (await Bag.open(new NodeBagFileSystem(), bagDir)).messages()) msgs.push(m);
    expect(msgs.map((m) => [m.topic, m.logTimeNs])).toEqual([
      ["/camera/camera_info", 1_000_000_000n],
      ["/camera/image_raw", 1_000_000_000n],
      ["/camera/camera_info", 1_100_000_000n],
      ["/camera/image_raw", 1_100_000_000n],
      ["/camera/camera_info", 1_200_000_000n],
      ["/camera/image_raw", 1_200_000_000n],
    ]);
    // a1, a2, a10: numeric order; each image is the photo's pixels at its own size.
    for (const [i, [set, f]] of PHOTOS.entries()) {
      const photo = decodeImage(fs.readFileSync(path.join(DEV, set, f)), f);
      const img = reg.deserialize<{ width: number; height: number; encoding: string; step: number; data: Uint8Array; header: { stamp: { sec: number; nanosec: number } } }>("sensor_msgs/msg/Image", msgs[2 * i + 1]!.data);
      const info = reg.deserialize<{ width: number; height: number; k: number[] }>("sensor_msgs/msg/CameraInfo", msgs[2 * i]!.data);
      expect([img.width, img.height, img.encoding, img.step]).toEqual([photo.width, photo.height, "rgb8", 3 * photo.width]);
      expect(Buffer.from(img.data).equals(Buffer.from(photo.rgb))).toBe(true);
      expect([info.width, info.height]).toEqual([photo.width, photo.height]);
      // fx of a 60 degree horizontal field of view: (W / 2) / tan(30 deg).
      expect(info.k[0]).toBeCloseTo(photo.width / 2 / Math.tan(Math.PI / 6), 6);
    }
  });

  it("the bag's messages drive the perception node at each photo's size", async () => {
    const { graph, dispose } = await activePerceptionAnySize();
    const reg = defaultRegistry();
    for await (const m of (await Bag.open(new NodeBagFileSystem(), bagDir)).messages()) {
      graph.advanceTo(m.logTimeNs);
      graph.inject(m.topic, m.channel.type, reg.deserialize(m.channel.type, m.data));
    }
    const so = graph.messagesOn<StudentOutputMsg>("/harness/student_output");
    const sizes = PHOTOS.map(([set, f]) => decodeImage(fs.readFileSync(path.join(DEV, set, f)), f)).map((p) => [p.width, p.height, Math.ceil(p.height / 8), Math.ceil(p.width / 8)]);
    expect(sizes.slice(0, 2)).toEqual([
      [540, 360, 45, 68],
      [360, 540, 68, 45],
    ]);
    expect(so.map((s) => [s.image_width, s.image_height, s.grid_rows, s.grid_cols])).toEqual(sizes);
    dispose();
  }, 60000);
});
