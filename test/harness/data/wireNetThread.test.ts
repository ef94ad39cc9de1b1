/**
 * WireNetThread (detect --partner's second network on a worker thread): the worker loads the
 * detector from its folder and answers each photo with exactly the bits detectNative (or its flip
 * average) gives in this thread, and the mirrored pass of a flip average split across the two
 * threads gives the one-thread flip average's bits; one photo at a time; a closed thread and a missing model fail
 * with errors that say so. The worker runs the compiled dist/ (npm test builds first).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { initBackend } from "../../../src/harness/backend";
import { detectFlipAveragedOnThread, detectWithPartner, detectWithSecond } from "../../../src/cli/commands/detect";
import { WireNetThread } from "../../../src/harness/data/node/wireNetThread";
import { averageWithMirrored, detectNative, detectNativeFlipAveraged, meanDetections, mirrorRgb, type NativeDetection } from "../../../src/harness/eval/detectNative";
import { teacherWireNet, type WireNet } from "../../../src/harness/eval/WireNet";
import { saveModel } from "../../../src/harness/modelfile";
import { Teacher } from "../../../src/harness/models/Teacher";

const same = (a: NativeDetection, b: NativeDetection): void => {
  expect([a.width, a.height, a.rows, a.cols]).toEqual([b.width, b.height, b.rows, b.cols]);
  expect(Buffer.from(a.map.buffer, a.map.byteOffset, a.map.byteLength).equals(Buffer.from(b.map.buffer, b.map.byteOffset, b.map.byteLength))).toBe(true);
  expect(Array.from(a.cells)).toEqual(Array.from(b.cells));
  expect(Array.from(a.cellProbs)).toEqual(Array.from(b.cellProbs));
};

describe("WireNetThread", () => {
  let dir = "";
  let net: WireNet;
  let thread: WireNetThread;
  const photo = { width: 44, height: 30, rgb: new Uint8Array(44 * 30 * 3).map((_, i) => (i * 37 + (i >> 5)) % 241) };

  beforeAll(async () => {
    await initBackend({ prefer: "wasm" });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-wirenet-thread-"));
    const teacher = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 6, threatLogit: true });
    await saveModel(dir, teacher, { scenario: "test", seed: 6 });
    net = teacherWireNet(teacher, "here", { frozen: true });
    thread = await WireNetThread.start(dir, "there");
  }, 60000);
  afterAll(async () => {
    await thread.close();
    net.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers with the same bits as this thread, plain and flip-averaged", async () => {
    same(await thread.detect(photo), detectNative(net, photo));
    same(await thread.detect(photo, true), detectNativeFlipAveraged(net, photo));
    expect(thread.name).toBe("there");
  }, 30000);

  it("the mirrored pass (detect --tta flip on 2 threads): averaged with this thread's plain pass, the bits of the flip average in one thread", async () => {
    const mirrored = await thread.detectMirrored(photo);
    same(mirrored, detectNative(net, mirrorRgb(photo)));
    same(averageWithMirrored(detectNative(net, photo), mirrored), detectNativeFlipAveraged(net, photo));
    same(await detectFlipAveragedOnThread(net, photo, thread), detectNativeFlipAveraged(net, photo));
    same(await detectWithSecond(net, photo, true, { mirror: thread }), detectNativeFlipAveraged(net, photo));
    expect(() => detectWithSecond(net, photo, false, { mirror: thread })).toThrow("serves the flip average only");
    const broken = { width: 44, height: 30, rgb: new Uint8Array(10) };
    await expect(detectFlipAveragedOnThread(net, broken, thread)).rejects.toThrow("rgb.length=10");
    same(await detectFlipAveragedOnThread(net, photo, thread), detectNativeFlipAveraged(net, photo));
  }, 30000);

  it("takes one photo at a time", async () => {
    const first = thread.detect(photo);
    await expect(thread.detect(photo)).rejects.toThrow("one photo at a time");
    same(await first, detectNative(net, photo));
  }, 30000);

  it("detect's path with the thread: the mean of both networks; a photo that fails leaves the thread free for the next", async () => {
    same(await detectWithPartner(net, photo, false, thread), meanDetections([detectNative(net, photo), detectNative(net, photo)]));
    const broken = { width: 44, height: 30, rgb: new Uint8Array(10) };
    await expect(detectWithPartner(net, broken, false, thread)).rejects.toThrow("rgb.length=10");
    same(await detectWithPartner(net, photo, true, thread), detectNativeFlipAveraged(net, photo));
  }, 30000);

  it("names a missing model, and refuses photos once closed", async () => {
    await expect(WireNetThread.start(path.join(dir, "nothing-here"), "missing")).rejects.toThrow(/missing: .*nothing-here/);
    const t = await WireNetThread.start(dir, "short-lived");
    await t.close();
    await expect(t.detect(photo)).rejects.toThrow("short-lived: closed");
  }, 60000);
});
