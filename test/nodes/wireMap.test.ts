/**
 * perception/wire_map (issue 14 on the camera path): with wire_map_model_dir set, the perception
 * node publishes each frame's wire probability per pixel from a photo model, gated as
 * wire_map_gate says. Two dev photos (landscape and portrait) turned into a bag by
 * `bag from-images` drive the node; its maps must equal, byte for byte, the .wire.png that
 * `detect --model photo --coherence-gate` writes for the same photos. Off by default; a failing
 * map is dropped and counted while the frame's detections are still published.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FILE_MODEL_PROVIDER, type WireMapperParams } from "../../nodes/common/models/ModelProvider";
import { WireMapper } from "../../nodes/common/models/WireMapper";
import type { Image } from "../../nodes/common/sensors/sensorTypes";
import { createPerceptionNode } from "../../nodes/perception";
import { Bag } from "../../src/bag/BagReader";
import { NodeBagFileSystem } from "../../src/bag/node/NodeBagFileSystem";
import { main } from "../../src/cli/main";
import { initBackend } from "../../src/harness/backend";
import { decodeImage } from "../../src/harness/data/imageCodec";
import type { WireNet } from "../../src/harness/eval/WireNet";
import { defaultRegistry } from "../../src/ros/msgs";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import { FakeGraph } from "./FakeGraph";
import { FakeDetector, MS, image } from "./fixtures";

const ROOT = path.resolve(__dirname, "../..");
const DEV = path.resolve(ROOT, "../shared/fixtures/real/pld-dev");
const PHOTO_MODEL = path.join(ROOT, "models/photo/student");
const PHOTOS = [
  ["PLDU", "1.jpg", "p1.jpg"],
  ["PLDU", "10.jpg", "p2.jpg"],
] as const;

type Diag = { status: Array<{ values: Array<{ key: string; value: string }> }> };

async function perception(over: Record<string, string | number | boolean | string[]>, createWireMapper?: (p: WireMapperParams) => WireMapper | Promise<WireMapper>) {
  const graph = new FakeGraph();
  const launched = await createPerceptionNode({ createDetector: () => new FakeDetector(), ...(createWireMapper === undefined ? {} : { createWireMapper }) })(graph, {
    name: "perception",
    namespace: "/",
    parameterOverrides: over,
    remappings: {},
  });
  return { graph, launched };
}

function lastDiagValues(graph: FakeGraph): Array<{ key: string; value: string }> {
  graph.advance(1000n * MS);
  return graph.messagesOn<Diag>("/diagnostics").at(-1)!.status[0]!.values;
}

describe("perception/wire_map", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-wiremap-"));
  const photos = path.join(dir, "photos");
  const bagDir = path.join(dir, "bag");
  const detectOut = path.join(dir, "detect");
  beforeAll(async () => {
    await initBackend({ warn: () => undefined });
    fs.mkdirSync(photos);
    for (const [set, f, as] of PHOTOS) fs.symlinkSync(path.join(DEV, set, f), path.join(photos, as));
    const io = { out: () => undefined, err: () => undefined };
    expect(await main(["bag", "from-images", photos, "-o", bagDir, "--rate", "10"], io)).toBe(0);
    expect(await main(["detect", "--model", "photo", "--models", path.join(ROOT, "models"), "--coherence-gate", "--threads", "1", photos, "--out", detectOut], io)).toBe(0);
  }, 120000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("equals detect --coherence-gate's .wire.png byte for byte on a bag of dev photos, at each photo's size, with the frame's header", async () => {
    const { graph, launched } = await perception({ wire_map_model_dir: PHOTO_MODEL }, FILE_MODEL_PROVIDER.wireMapper);
    expect(launched.node.getParameter("wire_map_gate").value).toBe("coherence");
    await activateIfLifecycle(launched);
    const reg = defaultRegistry();
    const frames: Image[] = [];
    for await (const m of (await Bag.open(new NodeBagFileSystem(), bagDir)).messages()) {
      graph.advanceTo(m.logTimeNs);
      const msg = reg.deserialize<Image>(m.channel.type, m.data);
      if (m.topic === "/camera/image_raw") frames.push(msg);
      graph.inject(m.topic, m.channel.type, msg);
    }
    const maps = graph.messagesOn<Image>("/perception/wire_map");
    expect(maps).toHaveLength(PHOTOS.length);
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(PHOTOS.length);
    for (const [i, [, , as]] of PHOTOS.entries()) {
      const png = decodeImage(fs.readFileSync(path.join(detectOut, as.replace(".jpg", ".wire.png"))), as);
      const m = maps[i]!;
      expect([m.width, m.height, m.encoding, m.step, m.header]).toEqual([png.width, png.height, "mono8", png.width, frames[i]!.header]);
      // decodeImage gives grey PNGs as RGB with equal channels: take one.
      const grey = Uint8Array.from({ length: png.width * png.height }, (_, k) => png.rgb[3 * k]!);
      expect(Buffer.from(m.data).equals(Buffer.from(grey))).toBe(true);
      // Not a blank map: it is at least twice as high on the photo's wire pixels (ground truth) than off them.
      const mask = decodeImage(fs.readFileSync(path.join(DEV, PHOTOS[i]![0], PHOTOS[i]![1].replace(".jpg", ".mask.png"))), "mask");
      const [on, off] = meansOnOff(m.data, mask.rgb);
      expect(on).toBeGreaterThan(2 * off);
    }
    const values = lastDiagValues(graph);
    expect(values).toContainEqual({ key: "wire_map", value: `${PHOTO_MODEL}, gate coherence` });
    expect(values).toContainEqual({ key: "wire_map_frames", value: String(PHOTOS.length) });
  }, 120000);

  it("gives a bgr8 frame the map of the same pixels in rgb8; the gate changes the map", async () => {
    const net = await FILE_MODEL_PROVIDER.wireMapper!({ modelDir: PHOTO_MODEL, gate: "coherence" });
    try {
      const photo = decodeImage(fs.readFileSync(path.join(DEV, "PLDU", "1.jpg")), "1.jpg");
      const rgb: Image = { header: { stamp: { sec: 1, nanosec: 0 }, frame_id: "cam" }, width: photo.width, height: photo.height, encoding: "rgb8", is_bigendian: 0, step: 3 * photo.width, data: photo.rgb };
      const bgrData = new Uint8Array(photo.rgb.length);
      for (let k = 0; k < bgrData.length; k += 3) [bgrData[k], bgrData[k + 1], bgrData[k + 2]] = [photo.rgb[k + 2]!, photo.rgb[k + 1]!, photo.rgb[k]!];
      const a = net.map(rgb).map;
      const b = net.map({ ...rgb, encoding: "bgr8", data: bgrData }).map;
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
      const plain = new WireMapper(netOf(net), "none", { ownsModel: false }).map(rgb).map;
      let differ = 0;
      for (let k = 0; k < a.length; k++) if (Math.abs(a[k]! - plain[k]!) > 1e-3) differ++;
      expect(differ).toBeGreaterThan(a.length / 10);
    } finally {
      net.dispose();
    }
  }, 60000);

});

describe("perception/wire_map: off by default, bad settings refused, a failing map dropped", () => {
  it("is off by default: no publisher, no provider called, /diagnostics says off", async () => {
    let called = 0;
    const { graph, launched } = await perception({}, () => {
      called++;
      throw new Error("not expected");
    });
    await activateIfLifecycle(launched);
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", image(1000n * MS));
    expect(called).toBe(0);
    expect(graph.pubs.some((p) => p.topic === "/perception/wire_map")).toBe(false);
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(1);
    expect(lastDiagValues(graph)).toContainEqual({ key: "wire_map", value: "off" });
  });

  it("refuses a gate that is no choice, and a model folder without a provider or without a model, with the reason logged", async () => {
    await expect(perception({ wire_map_gate: "sobel" })).rejects.toThrow(/wire_map_gate/);
    const noProvider = await perception({ wire_map_model_dir: PHOTO_MODEL });
    await expect(activateIfLifecycle(noProvider.launched)).rejects.toThrow("configure transition failed");
    expect(noProvider.graph.logs.some((l) => l.level === "error" && l.message.includes("no wire map provider"))).toBe(true);
    const missing = await perception({ wire_map_model_dir: path.join(os.tmpdir(), "dh-no-such-model") }, FILE_MODEL_PROVIDER.wireMapper);
    await expect(activateIfLifecycle(missing.launched)).rejects.toThrow("configure transition failed");
    expect(missing.graph.logs.some((l) => l.level === "error" && l.message.includes("dh-no-such-model"))).toBe(true);
  });

  it("drops and counts a failing map while the frame's detections are still published", async () => {
    const failing: WireNet = {
      name: "failing",
      sizeMultiple: 8,
      classLogits: () => {
        throw new Error("backend lost");
      },
      dispose: () => undefined,
    };
    const { graph, launched } = await perception({ wire_map_model_dir: "any" }, () => new WireMapper(failing, "none"));
    await activateIfLifecycle(launched);
    for (let i = 1; i <= 3; i++) graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", image(BigInt(i) * 100n * MS));
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(3);
    expect(graph.messagesOn("/perception/wire_map")).toHaveLength(0);
    const values = lastDiagValues(graph);
    expect(values).toContainEqual({ key: "drops/perception/wire_map:callback_error", value: "3" });
    expect(graph.logs.filter((l) => l.level === "warn" && l.message.includes("backend lost"))).toHaveLength(1);
  });
});

/** Mean of grey values on the mask's white pixels and off them (mask as RGB, one channel read). */
function meansOnOff(grey: Uint8Array, maskRgb: Uint8Array): [number, number] {
  const sum = [0, 0];
  const n = [0, 0];
  for (let k = 0; k < grey.length; k++) {
    const j = maskRgb[3 * k]! > 127 ? 0 : 1;
    sum[j]! += grey[k]!;
    n[j]!++;
  }
  return [sum[0]! / n[0]!, sum[1]! / n[1]!];
}

/** The mapper's network, for a second mapper on the same weights (test only). */
function netOf(mapper: WireMapper): WireNet {
  return (mapper as unknown as { net: WireNet }).net;
}
