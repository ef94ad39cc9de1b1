/**
 * perception/wire_map (issue 14 on the camera path): with wire_map_model_dir set, the perception
 * node publishes each frame's wire probability per pixel from a photo model, gated as
 * wire_map_gate says. Two dev photos (landscape and portrait) turned into a bag by
 * `bag from-images` drive the node; its maps must equal, byte for byte, the .wire.png that
 * `detect --model photo --coherence-gate` writes for the same photos, made in the camera callback
 * (wire_map_thread false) or on a worker thread (the default), where frames that arrive while a
 * map is being made get none and the detections do not wait. Off by default; a failing map is
 * dropped and counted while the frame's detections are still published.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FILE_MODEL_PROVIDER, type WireMapperParams } from "../../nodes/common/models/ModelProvider";
import { WireMapper, type WireMapSource } from "../../nodes/common/models/WireMapper";
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

async function perception(over: Record<string, string | number | boolean | string[]>, createWireMapper?: (p: WireMapperParams) => WireMapSource | Promise<WireMapSource>) {
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

// The dev photos as a bag and detect's maps of them, made once for the file.
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

/** The .wire.png detect wrote for photo i, as grey bytes (decodeImage gives grey PNGs as RGB with equal channels: one is taken). */
function detectGrey(i: number): { width: number; height: number; grey: Uint8Array } {
  const png = decodeImage(fs.readFileSync(path.join(detectOut, PHOTOS[i]![2].replace(".jpg", ".wire.png"))), PHOTOS[i]![2]);
  return { width: png.width, height: png.height, grey: Uint8Array.from({ length: png.width * png.height }, (_, k) => png.rgb[3 * k]!) };
}

async function bagFrames(): Promise<Array<{ topic: string; type: string; logTimeNs: bigint; msg: Image }>> {
  const reg = defaultRegistry();
  const out: Array<{ topic: string; type: string; logTimeNs: bigint; msg: Image }> = [];
  for await (const m of (await Bag.open(new NodeBagFileSystem(), bagDir)).messages()) out.push({ topic: m.topic, type: m.channel.type, logTimeNs: m.logTimeNs, msg: reg.deserialize<Image>(m.channel.type, m.data) });
  return out;
}

describe("perception/wire_map in the camera callback (wire_map_thread false)", () => {
  it("equals detect --coherence-gate's .wire.png byte for byte on a bag of dev photos, at each photo's size, with the frame's header", async () => {
    const { graph, launched } = await perception({ wire_map_model_dir: PHOTO_MODEL, wire_map_thread: false }, FILE_MODEL_PROVIDER.wireMapper);
    expect(launched.node.getParameter("wire_map_gate").value).toBe("coherence");
    await activateIfLifecycle(launched);
    const frames: Image[] = [];
    for (const m of await bagFrames()) {
      graph.advanceTo(m.logTimeNs);
      if (m.topic === "/camera/image_raw") frames.push(m.msg);
      graph.inject(m.topic, m.type, m.msg);
    }
    const maps = graph.messagesOn<Image>("/perception/wire_map");
    expect(maps).toHaveLength(PHOTOS.length);
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(PHOTOS.length);
    for (const i of PHOTOS.keys()) {
      const png = detectGrey(i);
      const m = maps[i]!;
      expect([m.width, m.height, m.encoding, m.step, m.header]).toEqual([png.width, png.height, "mono8", png.width, frames[i]!.header]);
      expect(Buffer.from(m.data).equals(Buffer.from(png.grey))).toBe(true);
      // Not a blank map: it is at least twice as high on the photo's wire pixels (ground truth) than off them.
      const mask = decodeImage(fs.readFileSync(path.join(DEV, PHOTOS[i]![0], PHOTOS[i]![1].replace(".jpg", ".mask.png"))), "mask");
      const [on, off] = meansOnOff(m.data, mask.rgb);
      expect(on).toBeGreaterThan(2 * off);
    }
    const values = lastDiagValues(graph);
    expect(values).toContainEqual({ key: "wire_map", value: `${PHOTO_MODEL}, gate coherence, camera callback` });
    expect(values).toContainEqual({ key: "wire_map_frames", value: String(PHOTOS.length) });
    await launched.stop();
  }, 120000);


  it("gives a bgr8 frame the map of the same pixels in rgb8; the gate changes the map", async () => {
    const net = (await FILE_MODEL_PROVIDER.wireMapper!({ modelDir: PHOTO_MODEL, gate: "coherence", thread: false })) as WireMapper;
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

describe("perception/wire_map on a worker thread (the default)", () => {
  it("on a worker thread (the default): the same bytes, published later with the frame's header; frames arriving meanwhile get none, their detections do not wait", async () => {
    const { graph, launched } = await perception({ wire_map_model_dir: PHOTO_MODEL }, FILE_MODEL_PROVIDER.wireMapper);
    expect(launched.node.getParameter("wire_map_thread").value).toBe(true);
    let stopped = false;
    try {
      await activateIfLifecycle(launched);
      const frames = (await bagFrames()).filter((m) => m.topic === "/camera/image_raw");
      const maps = (): Image[] => graph.messagesOn<Image>("/perception/wire_map");
      const send = (m: { topic: string; type: string; logTimeNs: bigint; msg: Image }): void => {
        graph.advanceTo(m.logTimeNs);
        graph.inject(m.topic, m.type, m.msg);
      };
      // Photo 0, then at once photo 1: the worker is still on photo 0, so photo 1 gets no map; both get detections now.
      send(frames[0]!);
      send(frames[1]!);
      expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(2);
      expect(maps()).toHaveLength(0);
      await until(() => maps().length === 1);
      // Photo 1 again, a second later, once the worker is free: mapped.
      const later = { ...frames[1]!, logTimeNs: frames[1]!.logTimeNs + 1000n * MS, msg: { ...frames[1]!.msg, header: { ...frames[1]!.msg.header, stamp: { ...frames[1]!.msg.header.stamp, sec: frames[1]!.msg.header.stamp.sec + 1 } } } };
      send(later);
      expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(3);
      await until(() => maps().length === 2);
      for (const [k, [i, frame]] of ([[0, frames[0]!], [1, later]] as const).entries()) {
        const png = detectGrey(i);
        const m = maps()[k]!;
        expect([m.width, m.height, m.header]).toEqual([png.width, png.height, frame.msg.header]);
        expect(Buffer.from(m.data).equals(Buffer.from(png.grey))).toBe(true);
      }
      const values = lastDiagValues(graph);
      expect(values).toContainEqual({ key: "wire_map", value: `${PHOTO_MODEL}, gate coherence, worker thread` });
      expect(values).toContainEqual({ key: "wire_map_frames", value: "2" });
      expect(values).toContainEqual({ key: "wire_map_skipped_busy", value: "1" });
      // A map still being made when the node shuts down is not published and is no fault.
      send({ ...later, logTimeNs: later.logTimeNs + 1000n * MS, msg: { ...later.msg, header: { ...later.msg.header, stamp: { ...later.msg.header.stamp, sec: later.msg.header.stamp.sec + 1 } } } });
      expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(4);
      await launched.stop();
      stopped = true;
      await new Promise((r) => setTimeout(r, 200));
      expect(maps()).toHaveLength(2);
      expect(graph.logs.filter((l) => l.level === "warn" || l.level === "error")).toEqual([]);
    } finally {
      if (!stopped) await launched.stop();
    }
  }, 120000);


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

/** Resolves once `done()` holds (polled every 10 ms); rejects after `ms`. */
async function until(done: () => boolean, ms = 30000): Promise<void> {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > ms) throw new Error(`not done after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
